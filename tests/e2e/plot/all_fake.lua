-- experiments/all.lua end to end with a stand-in trainer (deterministic images/s, no LibTorch
-- work) and stored peaks, so the test exercises the matrix, the store, resume and every figure in
-- seconds. It runs all.lua twice: the second run must train nothing and redraw the figures.
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local n = 0
rawset(rlx, "train", function(o)
  if o.label then n = n + 1 end  -- a study's run (the calibration's probes have no label)
  local base = ({resnet50 = 12, vgg16 = 4, mobilenet_v2 = 40})[o.model] * (o.precision == "bf16" and 0.7 or 1)
  local ips = base * (1 + o.batch / 64) * (1 + 0.01 * (n % 3))
  local step = o.batch / ips
  local samples = {}
  for i = 1, o.iters or 1 do samples[i] = step end
  return {ok = true, images_per_s = ips, seconds = o.iters * step, device = "cpu", precision = o.precision,
    batch = o.batch, iters = o.iters, iter_s = {mean = step, sd = 0, median = step}, samples = samples, config = o}
end)
-- Roofline points need complexity; give a fixed one when rlx.model is not built in.
if not (rlx.model and rlx.model.summary) then
  rawset(rlx, "model", {summary = function(o)
    local f = ({resnet50 = 1e9, vgg16 = 4e9, mobilenet_v2 = 1e8})[o.model] * (o.batch or 1)
    return {train_flops = f, bytes = f / (20 + (o.batch or 1) / 8), params = 1}
  end})
end
local db = rlx.params.db or (tmp .. "/plot_all.db")
for _, f in ipairs({db, db .. "-wal", db .. "-shm"}) do os.remove(f) end
local study = rlx.study{name = "p1-roofline", db = db, label = rlx.params.label}
if not study:peaks("cpu") then
  study:store_peaks({dram_gbps = 10, l2_gbps = 75, fp32_gflops = 100, gemm_bf16_gflops = 40}, {device = "cpu"})
end
study:close()
dofile("experiments/all.lua")
print("first pass trained " .. n)
n = 0
dofile("experiments/all.lua")
print("second pass trained " .. n)
