-- experiments/cuda.lua: a CUDA environment's sweep (seed 001: batch 64/128/256, fp32 and amp),
-- with hardware counters (CUPTI) so the roofline points are measured FLOPs and DRAM bytes rather
-- than estimates. Called by all.lua as dofile("experiments/cuda.lua")(study, device, matrix, scale).
return function(study, device, M, S)
  return study:sweep{
    device = device.id or "cuda:0", models = M.models, batch = M.cuda.batch, precision = M.cuda.precision,
    repeats = S.repeats or M.repeats, warmup = S.warmup, iters = S.iters, input = S.input,
    classes = M.classes, counters = S.counters ~= false,
  }
end
