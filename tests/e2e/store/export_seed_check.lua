-- export_seed_check.lua: reads back the files `rlx export DIR/kit.db --layout seed --out DIR/kit`
-- wrote (export_seed_make.lua's study) and checks names, columns and values worked out by hand.
-- Prints "seed layout ok" or fails naming the file and the value.
local dir = assert(rlx.params.dir, "--set dir=") .. "/kit"
local function read(path)
  local f = assert(io.open(dir .. "/" .. path, "rb"), "missing " .. path)
  local t = f:read("*a")
  f:close()
  return t
end
local function check(cond, what, ...) if not cond then error(string.format(what, ...), 0) end end
local function near(a, b) return type(a) == "number" and math.abs(a - b) <= 1e-9 * math.abs(b) end
local function csv(path)
  local lines = {}
  for line in read(path):gmatch("([^\n]*)\n") do lines[#lines + 1] = line end
  local header, rows = {}, {}
  for name in lines[1]:gmatch("[^,]+") do header[#header + 1] = name end
  for i = 2, #lines do
    local cells, row = {}, {}
    for cell in (lines[i] .. ","):gmatch("([^,]*),") do cells[#cells + 1] = cell end
    check(#cells == #header, "%s line %d has %d cells for %d columns", path, i, #cells, #header)
    for k, name in ipairs(header) do row[name] = tonumber(cells[k]) or cells[k] end
    rows[row.label] = row
  end
  return lines[1], rows, #lines - 1
end

-- logs/metrics.csv: the columns rlx train --log-dir appends, ok runs only.
local head, rows, n = csv("logs/metrics.csv")
check(head == "timestamp,label,host,device,arch,precision,batch_size,warmup_iters,iters,elapsed_s,images_per_s",
  "metrics.csv header: %s", head)
check(n == 4, "metrics.csv: %d rows, expected the 4 ok runs", n)
local r = rows["envA_resnet50_fp32_bs32_run1"]
check(r and r.arch == "resnet50" and r.device == "cpu" and r.precision == "fp32" and r.batch_size == 32 and
  r.warmup_iters == 1 and r.iters == 5 and r.images_per_s == 160 and near(r.elapsed_s, 5 * 32 / 160),
  "metrics.csv row of fp32 bs32")

-- logs/model_summaries/summary.json: resnet50 at 224 (torchvision: 25,557,032 parameters,
-- 4,089,184,256 conv + linear MACs per image); FLOPs per batch = 2 x MACs x batch.
local sum = rlx.json.decode(read("logs/model_summaries/summary.json"))
local m = sum.resnet50
check(m and m.params == 25557032 and m.mult_adds_per_sample_forward == 4089184256, "summary.json resnet50 %s",
  rlx.json.encode(m or {}))
check(m.flops_per_batch_forward["16"] == 130853896192 and m.flops_per_batch_forward["32"] == 261707792384,
  "summary.json flops_per_batch_forward %s", rlx.json.encode(m.flops_per_batch_forward))
check(m.batch_sizes[1] == 16 and m.batch_sizes[2] == 32 and m.input_size[3] == 224 and m.classes == 1000,
  "summary.json batch sizes, input, classes")
check(sum.vgg16 == nil, "summary.json has vgg16, whose runs failed")
local est = rlx.model.summary{model = "resnet50", batch = 16, input = 224, precision = "bf16", layers = false}
check(m.training["16"].bf16.training_memory_bytes == est.memory_bytes and
  near(m.training["16"].bf16.training_memory_mib, est.memory_bytes / 2 ^ 20), "summary.json training memory")

-- analysis/peaks.json: 100 GFLOP/s and 20 GB/s, ridge 5 FLOP/byte; no bf16 compute roof: null.
local peaks_text = read("analysis/peaks.json")
local p = rlx.json.decode(peaks_text)
check(p.envA.fp32.peak_gflops == 100 and p.envA.fp32.peak_gbps == 20 and p.envA.fp32.ridge_ai == 5,
  "peaks.json fp32: %s", rlx.json.encode(p.envA.fp32))
check(peaks_text:find('"peak_gflops": null') ~= nil and p.envA.bf16.peak_gbps == 20, "peaks.json bf16: %s", peaks_text)

-- analysis/roofline_points.csv: one row per ok run, estimated, against those roofs.
head, rows, n = csv("analysis/roofline_points.csv")
check(head == table.concat(rlx.seed_layout.POINT_COLUMNS, ","), "roofline_points.csv header: %s", head)
check(n == 4, "roofline_points.csv: %d rows", n)
r = rows["envA_resnet50_fp32_bs16_run1"]
local train = rlx.model.summary{model = "resnet50", batch = 16, input = 224, layers = false}
check(r.source == "estimated" and r.level == "dram" and near(r.flops, train.train_flops) and near(r.bytes, train.bytes),
  "roofline_points.csv fp32 bs16 flops/bytes")
check(near(r.seconds, 0.16) and near(r.ai, r.flops / r.bytes) and near(r.attained_gflops, r.flops / 0.16 / 1e9),
  "roofline_points.csv fp32 bs16 seconds, AI, attained")
check(r.peak_gflops == 100 and r.peak_gbps == 20 and r.ridge_ai == 5 and near(r.attainable_gflops,
  math.min(r.ai * 20, 100)) and r.bound == (r.ai < 5 and "memory" or "compute"), "roofline_points.csv roofs")
check(rows["envA_resnet50_bf16_bs16_run1"].peak_gflops == "", "bf16 row has no compute roof")

-- code/metric_names_ncu.txt: the seed's list in current names, one line.
check(read("code/metric_names_ncu.txt") == "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum," ..
  "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum," ..
  "smsp__sass_thread_inst_executed_op_hadd_pred_on.sum,smsp__sass_thread_inst_executed_op_hmul_pred_on.sum," ..
  "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum,dram__bytes_read.sum,dram__bytes_write.sum," ..
  "pcie__read_bytes.sum,pcie__write_bytes.sum,gpu__time_duration.sum\n", "metric_names_ncu.txt: %s",
  read("code/metric_names_ncu.txt"))

-- logs/env_info.md and logs/requirements.txt.
check(read("logs/env_info.md"):find("^# Environment: envA\n") ~= nil, "env_info.md title")
local req = read("logs/requirements.txt")
local v = rlx.version()
check(req:find("\nlibtorch==" .. v.torch:gsub("%p", "%%%0"), 1) ~= nil and req:find("\nrlx==", 1, true) ~= nil and
  req:find("# environment envA ", 1, true) ~= nil, "requirements.txt: %s", req)
print("seed layout ok")
