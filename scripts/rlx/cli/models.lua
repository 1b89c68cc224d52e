-- rlx models: lists the built-in models, or prints one model's complexity: totals, a table over
-- batch sizes (training FLOPs, bytes, arithmetic intensity and memory per iteration) and, with
-- --layers, an aligned per-layer table. NAME may also be a Lua file returning a model table.
local args = require("rlx.cli.args")
local M = {summary = "model zoo: parameters, FLOPs, bytes, training memory per batch",
  synopsis = "models [NAME] [--batch 16,32] [--layers]"}

local cmd = {name = "models",
  usage = "rlx models [NAME|FILE.lua] [--batch 16,32,64] [--input N] [--classes N] " ..
    "[--precision fp32|amp|bf16] [--gib N] [--layers] [--json]",
  description = "Without NAME, lists the built-in models with their size and cost at 224x224.\n" ..
    "With NAME (a built-in, or a Lua file that returns a model table), prints the model's\n" ..
    "totals, a batch-size table and, with --layers, every layer. Formulas: docs/complexity.md.",
  options = {
    {"batch", "--batch", type = "int_list", min = 1, default = {16, 32, 64, 128, 256},
      help = "batch sizes for the table, e.g. 16,32,64"},
    {"input", "--input", type = "integer", min = 1, default = 224, help = "input side in pixels"},
    {"classes", "--classes", type = "integer", min = 1, default = 1000, help = "number of classes"},
    {"precision", "--precision", one_of = {"fp32", "amp", "bf16"},
      default = "fp32", help = "precision of activations and weight copies"},
    {"gib", "--gib", type = "number", metavar = "N",
      help = "also print the largest batch whose training memory fits N GiB"},
    {"layers", "--layers", type = "boolean", help = "print the per-layer table"},
    {"json", "--json", type = "boolean", help = "print one JSON object"},
  },
  positionals = {{"name", optional = true}}}

local function giga(n) return string.format("%.3f", n / 1e9) end
local function mega(n) return string.format("%.3f", n / 1e6) end
local function mb(n) return string.format("%.1f", n / 1e6) end
local function mib(n) return string.format("%.1f", n / 2 ^ 20) end
local function commas(n)
  local s = string.format("%d", n)
  local out = s:reverse():gsub("(%d%d%d)", "%1,"):reverse()
  return (out:gsub("^,", ""))
end

-- Prints rows (arrays of strings) under headers, numbers right-aligned, text left-aligned.
local function print_table(headers, rows, left)
  local widths = {}
  for i, h in ipairs(headers) do widths[i] = #h end
  for _, r in ipairs(rows) do
    for i, c in ipairs(r) do widths[i] = math.max(widths[i], #c) end
  end
  local function line(cells)
    local parts = {}
    for i, c in ipairs(cells) do
      local w = widths[i]
      parts[i] = (left and left[i]) and (c .. string.rep(" ", w - #c)) or (string.rep(" ", w - #c) .. c)
    end
    print((table.concat(parts, "  "):gsub("%s+$", "")))
  end
  line(headers)
  local rule = {}
  for i, w in ipairs(widths) do rule[i] = string.rep("-", w) end
  line(rule)
  for _, r in ipairs(rows) do line(r) end
end

local function load_model(name)
  if name:match("%.lua$") then
    local chunk, err = loadfile(name)
    if not chunk then rlx.fail(2, "rlx models: cannot load " .. name .. ": " .. err) end
    local ok, model = pcall(chunk)
    if not ok then
      rlx.errors.pass_exits(model)
      rlx.fail(1, "rlx models: " .. name .. ": " .. rlx.errors.message(model))
    end
    if type(model) ~= "table" then
      rlx.fail(2, "rlx models: " .. name .. " must return a model table, got a " .. type(model))
    end
    return model
  end
  return name
end

local function list(o)
  local rows, out = {}, {}
  for _, name in ipairs(rlx.model.list()) do
    local s = rlx.model.summary{model = name, input = o.input, classes = o.classes, layers = false}
    out[#out + 1] = s
    rows[#rows + 1] = {name, commas(s.params), giga(s.forward_macs), giga(s.forward_flops),
      giga(s.elementwise_flops), giga(s.train_flops)}
  end
  if o.json then print(rlx.json.encode(out, 2)) return 0 end
  print(string.format("built-in models at %dx%d, %d classes (per image, batch 1):", o.input, o.input,
    o.classes))
  print_table({"model", "params", "GMACs", "fwd GFLOPs", "elementwise GFLOPs", "train GFLOPs"}, rows,
    {true})
  return 0
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  if not o.name then return list(o) end
  local model = load_model(o.name)
  local ok, first = pcall(rlx.model.summary, {model = model, batch = o.batch[1], input = o.input,
    classes = o.classes, precision = o.precision, layers = o.layers or false})
  if not ok then
    args.fail("models", first, {usage = true})
  end
  local batches = {}
  for _, b in ipairs(o.batch) do
    local s = first
    if b ~= o.batch[1] then
      ok, s = pcall(rlx.model.summary, {model = model, batch = b, input = o.input,
        classes = o.classes, precision = o.precision, layers = false})
      if not ok then args.fail("models", s, {usage = true}) end
    end
    batches[#batches + 1] = {batch = b, train_flops = s.train_flops, bytes = s.bytes, ai = s.ai,
      memory_bytes = s.memory_bytes, memory_fp32_bytes = s.memory_fp32_bytes,
      memory_amp_bytes = s.memory_amp_bytes, activation_bytes = s.activation_bytes}
  end
  local fits
  if o.gib then
    if o.gib <= 0 then args.usage_error("models", "--gib must be a number > 0, got '" .. o.gib .. "'") end
    fits = {}
    for _, p in ipairs{"fp32", "amp"} do
      fits[p] = rlx.model.max_batch{model = model, memory_gib = o.gib, input = o.input,
        classes = o.classes, precision = p}
    end
  end
  if o.json then
    first.batches = batches
    if fits then first.max_batch = {gib = o.gib, fp32 = fits.fp32, amp = fits.amp} end
    print(rlx.json.encode(first, 2))
    return 0
  end
  local s = first
  print(string.format("%s: input %dx%dx%d, %d classes, %s", s.model, s.channels, s.input, s.input,
    s.classes, s.precision))
  print(string.format("  parameters   %s (trainable %s), buffers %s", commas(s.params),
    commas(s.trainable_params), commas(s.buffers)))
  print(string.format("  forward      %s GMACs = %s GFLOPs per image (conv + linear)",
    giga(s.forward_macs), giga(s.forward_flops)))
  print(string.format("  elementwise  %s GFLOPs per image (bias, BN, activations, pooling, adds)",
    giga(s.elementwise_flops)))
  print(string.format("  backward     %s GFLOPs per image; optimizer %s GFLOPs per iteration",
    giga(s.backward_flops), giga(s.optimizer_flops)))
  print(string.format("  state        params %s MB + grads %s MB + momentum %s MB + buffers %s MB",
    mega(s.param_bytes), mega(s.grad_bytes), mega(s.momentum_bytes), mega(s.buffer_bytes)))
  print(string.format("  params size  %s MB = %s MiB in fp32 (torchsummary's \"Params size (MB)\" is this MiB figure)",
    mb(s.params * 4), mib(s.params * 4)))
  print("")
  local rows = {}
  for _, b in ipairs(batches) do
    rows[#rows + 1] = {tostring(b.batch), giga(b.train_flops), giga(b.bytes),
      string.format("%.1f", b.ai), mb(b.activation_bytes), mb(b.memory_bytes), mib(b.memory_bytes),
      mb(b.memory_fp32_bytes), mb(b.memory_amp_bytes)}
  end
  print_table({"batch", "train GFLOP/iter", "GB/iter", "AI FLOP/B", "activations MB",
    "memory MB", "memory MiB", "fp32 MB", "amp MB"}, rows)
  print("  (MB = 1e6 bytes and GB = 1e9, as in the report; MiB = 2^20 bytes, the unit torchsummary prints as \"MB\")")
  if fits then
    print(string.format("largest batch within %g GiB: %d in fp32, %d in amp (an upper bound: the " ..
      "memory estimate is a floor, docs/complexity.md)", o.gib, fits.fp32, fits.amp))
  end
  if o.layers then
    print("")
    print(string.format("layers (batch %d, %s):", s.batch, s.precision))
    local lrows = {}
    for _, l in ipairs(s.layers) do
      lrows[#lrows + 1] = {l.name, l.kind, table.concat(l.output, "x"), commas(l.params),
        mega(l.macs), mega(l.elementwise_flops), mega(l.backward_flops), mega(l.saved_bytes)}
    end
    print_table({"layer", "kind", "output", "params", "MMACs", "elementwise MFLOPs",
      "backward MFLOPs", "saved MB"}, lrows, {true, true, true})
  end
  return 0
end

return M
