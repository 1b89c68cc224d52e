-- gpu_vs_pytorch.lua: rlx's half of bench/gpu_vs_pytorch.sh, one round: every case eager and
-- with cuda_graphs, each a rlx.train run with the Python loop's settings (bench/gpu_train_loop.py:
-- channels_last, synthetic input, lr 0.01, momentum 0.9, weight decay 1e-4, TF32 and cuDNN
-- benchmark off), one JSON object per line on stdout in the Python loop's format.
--   rlx run bench/gpu_vs_pytorch.lua --set cases=resnet50:amp:64,mobilenet_v2:amp:64 --set round=1
local P = rlx.params.declare{
  cases = {default = "resnet50:amp:64,resnet50:bf16:64,mobilenet_v2:amp:64", help = "MODEL:PRECISION:BATCH,..."},
  variants = {default = "eager,graphs", help = "eager and/or graphs"},
  device = {default = "cuda", help = "cuda (cpu: a dry run of the script)"},
  input = {type = "integer", min = 1, default = 224, help = "image side"},
  warmup = {type = "integer", min = 1, default = 5, help = "eager steps before the timed ones"},
  iters = {type = "integer", min = 1, default = 30, help = "timed steps"},
  round = {type = "integer", min = 1, default = 1, help = "the round, echoed"}}

for spec in P.cases:gmatch("[^,]+") do
  local model, precision, batch = spec:match("^([%w_]+):(%w+):(%d+)$")
  assert(model, "a case is MODEL:PRECISION:BATCH, got " .. spec)
  for variant in P.variants:gmatch("[^,]+") do
    local opts = {model = model, precision = precision, batch = tonumber(batch), device = P.device, input = P.input,
      warmup = P.warmup, iters = P.iters, lr = 0.01, momentum = 0.9, weight_decay = 1e-4,
      memory_format = "channels_last", cuda_graphs = variant == "graphs", progress = false}
    local ok, r = pcall(rlx.train, opts)
    local row = {tool = "rlx", round = P.round, case = string.format("%s %s b%s", model, precision, batch), model = model,
      precision = precision, batch = tonumber(batch), variant = variant, optimizer = "rlx", ok = ok and r.ok == true}
    if row.ok then
      row.samples, row.images_per_s, row.median_ms = r.samples, r.images_per_s, r.iter_s.median * 1e3
    else
      row.error = ok and r.error or rlx.errors.message(r)
    end
    print(rlx.json.encode(row))
  end
end
