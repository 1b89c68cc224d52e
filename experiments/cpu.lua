-- experiments/cpu.lua: the CPU environment's sweep (seed 001: batch 16/32/64, fp32 and bf16).
-- Called by all.lua as dofile("experiments/cpu.lua")(study, device, matrix, scale). Counters are
-- off: on CPU the roofline points come from the analytic complexity (source "estimated").
return function(study, device, M, S)
  return study:sweep{
    device = device.id or "cpu", models = M.models, batch = M.cpu.batch, precision = M.cpu.precision,
    repeats = S.repeats or M.repeats, warmup = S.warmup, iters = S.iters, input = S.input,
    classes = M.classes,
  }
end
