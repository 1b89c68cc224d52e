-- experiments/hypotheses.lua: seed 001's three questions as hypotheses the report judges (§2, §6.6),
-- each against the 95 % CIs of the rows it names (docs/report.md, "Hypotheses"). all.lua declares
-- them on its study; `rlx report A.db B.db --hypotheses experiments/hypotheses.lua` judges them on
-- any databases. A hypothesis whose rows a study lacks is reported untested. Change the thresholds
-- to what you expect, and say why in §2.
return {
  -- 1. Where is each model compute-bound vs. bandwidth-bound across environments?
  {"VGG-16 is compute-bound on every machine (the most FLOP per byte of the three)",
    bound = {is = "compute", model = "vgg16"}},
  {"MobileNetV2 is memory-bound on a CPU (depthwise convolutions move many bytes per FLOP)",
    bound = {is = "memory", model = "mobilenet_v2", device = "cpu"}},
  -- 2. How do batch size and precision shift arithmetic intensity and throughput?
  {"AMP at least 2x over fp32 for ResNet-50 on cuda",
    speedup = {precision = "amp", over = "fp32", model = "resnet50", device = "cuda"}, at_least = 2.0},
  {"On a GPU, ResNet-50 fp32 at batch 256 trains at least 10 % more images/s than at batch 64",
    batch = {batch = 256, over = 64, model = "resnet50", precision = "fp32", device = "cuda"}, at_least = 1.1},
  -- 3. What is the effect of the environment (GPU type, virtualization) vs. bare metal?
  {"A GPU trains ResNet-50 fp32 at least 50x faster than a CPU at the same batch",
    env = {env = "cuda", over = "cpu", model = "resnet50", precision = "fp32"}, at_least = 50},
  -- Seed 004's hypothesis 4 ("I am not sure if 2 GPU will necessarily outperform 1 GPU"), as data-parallel
  -- ranks (issue 52): the same batch per rank, so 2 ranks train twice the images per step; untested
  -- on a study without runs of ranks > 1 (the default study has none).
  {"2 ranks train ResNet-50 at least 1.6x faster than 1 (the same batch per rank)",
    ranks = {ranks = 2, over = 1, model = "resnet50"}, at_least = 1.6},
}
