-- experiments/matrix.lua: the one definition of the study (seed 001's run matrix), shared by every
-- environment script (cpu.lua, cuda.lua) and by all.lua.
--
-- Scales trade fidelity for time. `full` is the seed's protocol (224x224 images, 10 warm-up and 100
-- measured iterations, 3 repeats). `default` must finish on a 2-core CPU in under 30 minutes,
-- peaks included, so it trains on 32x32 synthetic images with 1 warm-up and 4 measured
-- iterations: FLOPs per image drop by (224/32)^2 = 49x, which keeps the matrix intact (every model,
-- batch, precision and repeat). Measured on the 2-core Xeon this was written on (shared, load ~5):
-- one step at 32x32, batch 32, takes ~6.5 s for VGG-16 fp32, ~2 s for ResNet-50, ~0.6 s for
-- MobileNetV2, so the 54 runs x 5 steps come to about 17 minutes (64x64 would need about an hour).
-- Measured later on an idle 2-core AMD EPYC VM: the whole default study took 424 s.
-- `smoke` (one measured iteration, two repeats) checks the pipeline end to end in a few minutes.
-- Choose with `rlx run experiments/all.lua --set scale=smoke|default|full`.
return {
  models = {"resnet50", "vgg16", "mobilenet_v2"},
  repeats = 3,
  classes = 1000,
  scale = {
    smoke = {input = 32, warmup = 0, iters = 1, repeats = 2, peaks_quick = true},
    default = {input = 32, warmup = 1, iters = 4, repeats = 3, peaks_quick = true},
    full = {input = 224, warmup = 10, iters = 100, repeats = 3, peaks_quick = false},
  },
}
