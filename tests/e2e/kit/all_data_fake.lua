-- all_data_fake.lua: experiments/all.lua on an ImageFolder with a zone, an instance type and a price
-- per hour, with a stand-in trainer (fixed values per run, no LibTorch work) and stored peaks, so
-- kit.sh can check the report's time breakdown, cost and environment rows by hand. Pass the same
-- --set values as all.lua takes (db, zone, instance, label, data, price_per_hour, ...).
local P = rlx.params_text
local real = rlx.train
-- resnet50 fp32 batch 16: 100 images/s, so 0.16 s per iteration, 0.04 s of it data wait.
-- mobilenet_v2 bf16 batch 64: 400 x 4 x 1.25 = 2,000 images/s, and three times that in repeat 2.
local function fake(o)
  local ips = ({resnet50 = 100, vgg16 = 25, mobilenet_v2 = 400})[o.model] * (o.batch / 16) *
    (o.precision == "bf16" and 1.25 or 1)
  if o.model == "mobilenet_v2" and o.precision == "bf16" and o.batch == 64 and tostring(o.label):match("_run2$") then
    ips = ips * 3
  end
  local it = o.batch / ips
  -- Every timed step the same (the layout probe, rlx.calibrate, reads the steps: a tie).
  local samples = {}
  for i = 1, o.iters or 1 do samples[i] = it end
  return {ok = true, samples = samples, images_per_s = ips, seconds = o.iters * it, wall_s = o.iters * it + 0.04,
    iter_s = {mean = it, sd = 0, median = it}, device = "cpu", precision = o.precision, batch = o.batch,
    iters = o.iters, data_wait_s = o.iters * it / 4, user_s = 0.5, sys_s = 0.1, max_rss_bytes = 1e9,
    data_kind = "imagefolder", dataset_size = 12, dataset_classes = 3}
end
rawset(rlx, "train", setmetatable({dataset = real.dataset, METRICS_CSV_COLUMNS = real.METRICS_CSV_COLUMNS},
  {__call = function(_, o) return fake(o) end}))
for _, f in ipairs({P.db, P.db .. "-wal", P.db .. "-shm"}) do os.remove(f) end
local study = rlx.study{name = "p1-roofline", db = P.db, label = P.label, zone = P.zone, instance_type = P.instance}
study:store_peaks({dram_gbps = 10, fp32_gflops = 100, gemm_bf16_gflops = 40}, {device = "cpu"})
study:close()
dofile("experiments/all.lua")
