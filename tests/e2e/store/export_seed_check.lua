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

-- logs/metrics.csv: the header of the kit's code/run_train.py (rlx train --log-dir appends it too),
-- ok runs only. fp32 batch 32 at 160 images/s for 5 timed iterations: elapsed 5 x 32 / 160 = 1 s,
-- 160 images processed.
local head, rows, n = csv("logs/metrics.csv")
check(head == "timestamp,hostname,arch,backend,device_name,batch_size,warmup_iters,measured_iters,precision,lr," ..
  "momentum,weight_decay,elapsed_sec,images_per_sec,images_processed,data_root,label,torch_version,channels_last," ..
  "grad_accum_steps,deterministic,cudnn_benchmark", "metrics.csv header: %s", head)
check(n == 4, "metrics.csv: %d rows, expected the 4 ok runs", n)
local r = rows["envA_resnet50_fp32_bs32_run1"]
check(r and r.arch == "resnet50" and r.backend == "cpu" and r.device_name == "CPU" and r.precision == "fp32" and
  r.batch_size == 32 and r.warmup_iters == 1 and r.measured_iters == 5 and r.images_per_sec == 160 and
  r.elapsed_sec == 1 and r.images_processed == 160 and r.lr == 0.1 and r.momentum == 0.9 and
  r.weight_decay == 1e-4 and r.data_root == "synthetic" and r.torch_version == rlx.version().torch and
  r.channels_last == "True" and r.grad_accum_steps == 1 and r.deterministic == "False" and
  r.cudnn_benchmark == "False", "metrics.csv row of fp32 bs32: %s", rlx.json.encode(r or {}))
-- Unix seconds of the stored finish time (this run finished within the last hour).
check(r.timestamp == math.floor(r.timestamp) and os.time() - r.timestamp >= 0 and
  os.time() - r.timestamp < 3600, "metrics.csv timestamp %s", tostring(r.timestamp))

-- logs/model_summaries/summary.json as the kit's scripts/model_complexity.py writes it: model, then
-- batch size (a string). resnet50 at 224 (torchvision: 25,557,032 parameters, 4,089,184,256 conv +
-- linear MACs per image); per batch of 16: 65,426,948,096 MACs, FLOPs = 2 x MACs = 130,853,896,192.
local sum = rlx.json.decode(read("logs/model_summaries/summary.json"))
local m = sum.resnet50
check(m and m["16"] and m["32"] and m["64"] == nil, "summary.json resnet50 batches: %s", rlx.json.encode(m or {}))
local e16 = m["16"]
check(e16.params == 25557032 and e16.mult_adds_per_sample_forward == 4089184256 and
  e16.mult_adds_per_batch_forward == 65426948096 and e16.flops_per_batch_forward == 130853896192 and
  m["32"].flops_per_batch_forward == 261707792384, "summary.json resnet50 16: %s", rlx.json.encode(e16))
check(e16.batch_size == 16 and e16.input_size[3] == 224 and e16.classes == 1000, "summary.json batch, input, classes")
check(sum.vgg16 == nil, "summary.json has vgg16, whose runs failed")
local est = rlx.model.summary{model = "resnet50", batch = 16, input = 224, precision = "bf16", layers = false}
check(e16.training.bf16.training_memory_bytes == est.memory_bytes and
  near(e16.training.bf16.training_memory_mib, est.memory_bytes / 2 ^ 20) and e16.training.fp32 ~= nil,
  "summary.json training memory")

-- analysis/peaks.json as the kit's roofline.py reads it: the key is the labels' first field
-- ("envA"), peak_gflops and peak_gbps per precision. 100 GFLOP/s and 20 GB/s: ridge 5 FLOP/byte;
-- no bf16 compute roof: null.
local peaks_text = read("analysis/peaks.json")
local p = rlx.json.decode(peaks_text).envA
check(p and p.peak_gflops.fp32 == 100 and p.peak_gbps.fp32 == 20 and p.ridge_ai.fp32 == 5 and p.peak_gbps.bf16 == 20,
  "peaks.json envA: %s", peaks_text)
check(peaks_text:find('"bf16": null') ~= nil and p.peak_gflops.bf16 == nil and p.source == "stored" and
  p.device == "cpu", "peaks.json bf16: %s", peaks_text)

-- analysis/roofline_points.csv: the kit's columns, then rlx's; one row per ok run, estimated,
-- against those roofs. fp32 batch 16 at 100 images/s: 0.16 s per iteration, 5 x 0.16 = 0.8 s.
head, rows, n = csv("analysis/roofline_points.csv")
check(head == "label,env,arch,backend,batch_size,precision,elapsed_sec,images_per_sec,ai,attained_gflops," ..
  "peak_gflops,peak_gbps,level,flops_per_iter,bytes_per_iter,iter_s,ridge_ai,attainable_gflops,bound,source," ..
  "counters_source", "roofline_points.csv header: %s", head)
check(n == 4, "roofline_points.csv: %d rows", n)
r = rows["envA_resnet50_fp32_bs16_run1"]
local train = rlx.model.summary{model = "resnet50", batch = 16, input = 224, layers = false}
check(r.env == "envA" and r.backend == "cpu" and near(r.elapsed_sec, 0.8) and r.images_per_sec == 100,
  "roofline_points.csv fp32 bs16 run fields")
check(r.source == "estimated" and r.level == "dram" and near(r.flops_per_iter, train.train_flops) and
  near(r.bytes_per_iter, train.bytes), "roofline_points.csv fp32 bs16 flops/bytes")
check(near(r.iter_s, 0.16) and near(r.ai, r.flops_per_iter / r.bytes_per_iter) and
  near(r.attained_gflops, r.flops_per_iter / 0.16 / 1e9), "roofline_points.csv fp32 bs16 seconds, AI, attained")
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
