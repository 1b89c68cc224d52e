-- A study with made-up, deterministic runs (no training): 2 models x 2 precisions x 3 batches x
-- 3 repeats on one environment, peaks and roofline points stored; then the whole figure set.
local tmp = os.getenv("RLX_TEST_TMP") or "/tmp"
local db = tmp .. "/plot_figures.db"
os.remove(db); os.remove(db .. "-wal"); os.remove(db .. "-shm")
local study = rlx.study{name = "plotfig", db = db, label = "testenv"}
study:store_peaks({dram_gbps = 20, l2_gbps = 150, fp32_gflops = 300, bf16_gflops = 600, fp64_gflops = 150}, {device = "cpu"})
local n = 0
for _, model in ipairs({"resnet50", "mobilenet_v2"}) do
  for _, prec in ipairs({"fp32", "bf16"}) do
    for _, batch in ipairs({16, 32, 64}) do
      for run = 1, 3 do
        n = n + 1
        local ips = (model == "resnet50" and 10 or 40) * (prec == "bf16" and 1.5 or 1) * (1 + batch / 64) + run * 0.3
        local ai = (model == "resnet50" and 30 or 8) * (1 + batch / 128)
        local gflops = ai * (prec == "bf16" and 3 or 2)
        if prec == "bf16" then ai = ai * 1.1 end
        study:store_run({model = model, precision = prec, batch = batch, device = "cpu", iters = 2},
          {ok = true, images_per_s = ips, device = "cpu", iter_s = {mean = batch / ips}},
          {run = run, roofline = {{level = "dram", precision = prec, ai = ai, gflops = gflops, flops = 1, bytes = 1,
            seconds = 1, source = "estimated"}}})
      end
    end
  end
end
local r = require("rlx.figures").draw(study, {dir = tmp .. "/plot_figs"})
local names = {}
for _, f in ipairs(r.files) do
  local _, w, h = rlx.plot.pixel(f.path, 0, 0)
  names[#names + 1] = f.path:match("[^/]+$") .. "=" .. w .. "x" .. h
end
table.sort(names)
print(#r.files .. " files, " .. #r.warnings .. " warnings, " .. n .. " runs")
print(table.concat(names, " "))
