-- rlx models: lists the built-in models, or prints one model's complexity: totals, a table over
-- batch sizes (training FLOPs, bytes, arithmetic intensity and memory per iteration) and, with
-- --layers, an aligned per-layer table. NAME may also be a Lua file returning a model table.
local args = require("rlx.cli._args")
local M = {summary = "model zoo: parameters, FLOPs, bytes, training memory per batch",
  synopsis = "models [NAME] [--batch 16,32] [--layers]"}

-- The default batch sizes of the table: --batch given or not is told by identity (args.parse
-- hands the default table over as it is).
local BATCHES = {16, 32, 64, 128, 256}

local cmd = {name = "models",
  usage = "rlx models [NAME|FILE.lua] [--batch 16,32,64] [--input N] [--classes N] " ..
    "[--precision fp32|amp|bf16] [--gib N] [--layers] [--json]",
  description = "Without NAME, lists the built-in models with their size and cost at 224x224.\n" ..
    "With NAME (a built-in, or a Lua file that returns a model table), prints the model's\n" ..
    "totals, a batch-size table and, with --layers, every layer. Formulas: docs/complexity.md.",
  options = {
    {"batch", "--batch", type = "int_list", min = 1, default = BATCHES,
      help = "batch sizes for NAME's table, e.g. 16,32,64"},
    {"input", "--input", type = "integer", min = 1, default = 224, help = "input side in pixels"},
    {"classes", "--classes", type = "integer", min = 1, default = 1000, help = "number of classes"},
    {"precision", "--precision", one_of = rlx.model.PRECISIONS,
      default = "fp32", help = "precision of activations and weight copies"},
    {"gib", "--gib", type = "number", metavar = "N",
      help = "also print the largest batch of NAME whose training memory fits N GiB"},
    {"layers", "--layers", type = "boolean", help = "print NAME's per-layer table"},
    {"json", "--json", type = "boolean", help = "print one JSON object"},
  },
  positionals = {{"name", optional = true, path = "file"}}}

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
    -- Read by the one rule for a user's files (a FIFO or a device is refused at once).
    local read, text = pcall(rlx.fs.read, name, {what = "the model file"})
    if not read then rlx.fail(2, "rlx models: " .. rlx.errors.message(rlx.errors.pass_exits(text))) end
    local chunk, err = load(text, "@" .. name)
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

-- The smallest input side `model` takes (a layer's kernel must fit its input), when `input` is
-- below it; nil when the model fails at `input` for another reason (it fails at 224 too, or input
-- is not below 224). Output sides only grow with the input, so a bisection settles it.
local DEFAULT_INPUT = 224
local function smallest_input(model, input, classes)
  local function takes(n)
    return (pcall(rlx.model.summary, {model = model, input = n, classes = classes, layers = false}))
  end
  if input >= DEFAULT_INPUT or not takes(DEFAULT_INPUT) then return nil end
  local lo, hi = input, DEFAULT_INPUT  -- not takes(lo), takes(hi)
  while hi - lo > 1 do
    local mid = math.floor((lo + hi) / 2)
    if takes(mid) then hi = mid else lo = mid end
  end
  return hi
end

-- A model's summary at o's input, or a usage error (exit 2) naming what is wrong; an input too
-- small for the model also names the smallest it takes.
local function summary_or_fail(model, o, extra)
  local opts = {model = model, input = o.input, classes = o.classes, layers = false}
  for k, v in pairs(extra or {}) do opts[k] = v end
  local ok, s = pcall(rlx.model.summary, opts)
  if ok then return s end
  rlx.errors.pass_exits(s)
  local min = smallest_input(model, o.input, o.classes)
  local text = rlx.errors.message(s)
  if min then
    text = string.format("%s: input %d is too small (%s); the smallest input it takes is %d: use --input %d or more",
      type(model) == "string" and model or tostring(model.name or "the model"), o.input, text:gsub(";.*", ""), min,
      min)
  end
  args.fail("models", text, {usage = true})
end

-- The list of built-in models, per image (batch 1). A model that cannot take --input is listed
-- with "-" and named below the table with the smallest input it takes (in JSON: error and
-- min_input instead of its numbers).
local function list(o)
  local rows, out, notes = {}, {}, {}
  for _, name in ipairs(rlx.model.list()) do
    local ok, s = pcall(rlx.model.summary, {model = name, input = o.input, classes = o.classes, layers = false})
    if ok then
      out[#out + 1] = s
      rows[#rows + 1] = {name, commas(s.params), giga(s.forward_macs), giga(s.forward_flops),
        giga(s.elementwise_flops), giga(s.train_flops)}
    else
      rlx.errors.pass_exits(s)
      local min = smallest_input(name, o.input, o.classes)
      if not min then summary_or_fail(name, o) end  -- not a size problem: the usage error
      local why = (rlx.errors.message(s):gsub(";.*", ""))
      out[#out + 1] = {model = name, input = o.input, classes = o.classes, min_input = min,
        error = string.format("input %d is too small: %s", o.input, why)}
      rows[#rows + 1] = {name, "-", "-", "-", "-", "-"}
      notes[#notes + 1] = string.format("  %s: input too small: it takes %dx%d or more (at %d: %s)", name, min, min,
        o.input, why)
    end
  end
  if o.json then print(rlx.json.encode(out, 2)) return 0 end
  print(string.format("built-in models at %dx%d, %d classes (per image, batch 1):", o.input, o.input,
    o.classes))
  print_table({"model", "params", "GMACs", "fwd GFLOPs", "elementwise GFLOPs", "train GFLOPs"}, rows,
    {true})
  for _, line in ipairs(notes) do print(line) end
  return 0
end

-- The flags that only shape one model's output: refused without NAME rather than ignored.
local function check_list_flags(o)
  local need = o.batch ~= BATCHES and "--batch" or o.gib and "--gib" or o.layers and "--layers" or nil
  if need then
    args.usage_error("models", string.format("%s applies to one model, and the list is per image at batch 1: name " ..
      "the model (rlx models resnet50 %s)", need, need == "--batch" and "--batch 16,32" or need == "--gib" and
      "--gib 16" or "--layers"))
  end
end

-- The largest batch rlx accepts for the model (its FLOP and byte counts stay within int64), when
-- `batch` is beyond it; nil when `batch` is accepted.
local function accepted_limit(model, o, batch)
  local function accepts(b)
    return (pcall(rlx.model.summary, {model = model, batch = b, input = o.input, classes = o.classes,
      layers = false}))
  end
  local hi = math.min(batch, 2 ^ 53)
  if hi == batch and accepts(hi) then return nil end
  local lo = 1  -- accepts(lo) (the table's first batch was accepted), not accepts(hi)
  while hi - lo > 1 do
    local mid = lo + math.floor((hi - lo) / 2)
    if accepts(mid) then lo = mid else hi = mid end
  end
  return lo
end

-- The --gib line: the largest batch in fp32 and in amp, capped at what rlx accepts, or that not
-- even batch 1 fits and what it needs.
local function fits_line(o, fits, limit, one)
  local parts, none = {}, 0
  for _, p in ipairs({"fp32", "amp"}) do
    if fits[p] == 0 then
      none = none + 1
      parts[#parts + 1] = string.format("none in %s (batch 1 needs %s MiB)", p, mib(one[p]))
    else
      parts[#parts + 1] = string.format("%d in %s", fits[p], p)
    end
  end
  if none == 2 then
    return string.format("not even batch 1 fits within %g GiB: it needs %s MiB in fp32 and %s MiB in amp " ..
      "(training memory, docs/complexity.md)", o.gib, mib(one.fp32), mib(one.amp))
  end
  if limit then
    return string.format("largest batch within %g GiB: %s, capped at the largest batch rlx accepts for this model " ..
      "at input %d (a larger one's FLOP or byte counts pass the int64 limit; the budget would hold more)", o.gib,
      table.concat(parts, ", "), o.input)
  end
  return string.format("largest batch within %g GiB: %s (an upper bound: the memory estimate is a floor, " ..
    "docs/complexity.md)", o.gib, table.concat(parts, ", "))
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  if not o.name then
    check_list_flags(o)
    return list(o)
  end
  local model = load_model(o.name)
  local first = summary_or_fail(model, o, {batch = o.batch[1], precision = o.precision, layers = o.layers or false})
  local batches = {}
  for _, b in ipairs(o.batch) do
    local s = first
    if b ~= o.batch[1] then
      s = summary_or_fail(model, o, {batch = b, precision = o.precision})
    end
    batches[#batches + 1] = {batch = b, train_flops = s.train_flops, bytes = s.bytes, ai = s.ai,
      memory_bytes = s.memory_bytes, memory_fp32_bytes = s.memory_fp32_bytes,
      memory_amp_bytes = s.memory_amp_bytes, activation_bytes = s.activation_bytes}
  end
  local fits, limit, one
  if o.gib then
    if o.gib <= 0 then args.usage_error("models", "--gib must be a number > 0, got '" .. o.gib .. "'") end
    fits = {}
    for _, p in ipairs{"fp32", "amp"} do
      fits[p] = rlx.model.max_batch{model = model, memory_gib = o.gib, input = o.input,
        classes = o.classes, precision = p}
    end
    -- A budget beyond what the counts can hold answers with a batch no command accepts: cap it.
    limit = accepted_limit(model, o, math.max(fits.fp32, fits.amp, 1))
    if limit then
      for _, p in ipairs{"fp32", "amp"} do fits[p] = math.min(fits[p], limit) end
    end
    local s1 = summary_or_fail(model, o, {batch = 1})
    one = {fp32 = s1.memory_fp32_bytes, amp = s1.memory_amp_bytes}
  end
  if o.json then
    first.batches = batches
    if fits then first.max_batch = {gib = o.gib, fp32 = fits.fp32, amp = fits.amp, limit = limit} end
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
  if fits then print(fits_line(o, fits, limit, one)) end
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

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
