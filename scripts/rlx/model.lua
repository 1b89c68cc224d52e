-- rlx.model: the model zoo and its complexity (engine/models through rlx._core.model).
--   rlx.model.list()                     -> {"resnet18", "resnet34", ...}
--   rlx.model.max_batch{model="resnet50", memory_gib=16, precision="amp"}  -> largest batch
--   rlx.model.summary{model="resnet50", batch=32, input=224, classes=1000, precision="fp32"}
--     -> {params=..., forward_macs=..., train_flops=..., bytes=..., ai=..., memory_bytes=...,
--         layers={{name=, kind=, output={C,H,W}, params=, macs=, ...}, ...}}
-- A model is a built-in name or a Lua table (docs/lua-api/model.md):
--   {name="tiny", layers={{"conv", out=16, k=3, pad=1}, {"bn"}, {"relu"}, {"maxpool", k=2},
--    {"flatten"}, {"linear"}}}
local errors = require("rlx.errors")
local core = rlx._core.model
local M = {}

-- Every precision rlx knows, in the order help texts list them ({"fp32", "amp", "bf16"}): the one
-- list (engine/models' precision_names, which rlx.train checks against), read by every flag,
-- study parameter and option that takes a precision.
M.PRECISIONS = core.precisions()
-- The memory layouts a model trains in ({"channels_last", "contiguous"}; the first is a
-- convolutional model's default): the one list, which rlx.train checks against.
M.MEMORY_FORMATS = core.memory_formats()
-- The kinds of device rlx trains and measures on ({"cpu", "cuda"}): the one list (engine/models'
-- device_kind_names, rlx.peaks.measure's device), read by every flag and loop over device kinds.
M.DEVICE_KINDS = core.device_kinds()

--- Names of the built-in models.
function M.list()
  return core.list()
end

--- Complexity of a model at a batch size, input size and precision (see docs/complexity.md).
--- rlx.model.summary("resnet18") is short for rlx.model.summary{model="resnet18"}.
function M.summary(opts)
  if type(opts) == "string" then opts = {model = opts} end
  return core.summary(opts)
end

--- The largest batch whose training memory (memory_bytes, docs/complexity.md) fits in a device
--- of `memory_gib` GiB (or `memory_bytes` bytes); 0 when even batch 1 does not fit. Memory is
--- linear in the batch (state + batch x per-image activations), so two summaries settle it.
function M.max_batch(opts)
  local o = rlx.options.check("rlx.model.max_batch", opts, {
    model = {type = "any", required = true},
    memory_gib = {type = "number", min = 0},
    memory_bytes = {type = "number", min = 0},
    input = {type = "integer", min = 1, default = 224},
    classes = {type = "integer", min = 1, default = 1000},
    precision = {type = "string", one_of = M.PRECISIONS, default = "fp32"},
  })
  if (o.memory_gib == nil) == (o.memory_bytes == nil) then
    errors.raise("rlx.model.max_batch", "give exactly one of 'memory_gib' and 'memory_bytes'")
  end
  local budget = o.memory_bytes or o.memory_gib * 2 ^ 30
  local function at(batch)
    return core.summary{model = o.model, batch = batch, input = o.input, classes = o.classes,
      precision = o.precision, layers = false}.memory_bytes
  end
  if type(o.model) ~= "string" and type(o.model) ~= "table" then
    errors.raise("rlx.model.max_batch", "option 'model' must be a model name or a model table, got a " ..
      type(o.model))
  end
  local ok, one = pcall(at, 1)
  if not ok then
    rlx.errors.pass_exits(one)
    errors.raise("rlx.model.max_batch", errors.message(one))
  end
  local two = at(2)
  local per_image = two - one
  local state = one - per_image
  if budget < one then return 0 end
  return math.floor((budget - state) / per_image)
end

--- "64x56x56" for a shape array.
function M.shape_string(shape)
  if type(shape) ~= "table" then
    errors.raise("rlx.model.shape_string", "expected an array of dimensions such as {64, 56, 56}, got " ..
      type(shape))
  end
  for i, d in ipairs(shape) do
    if type(d) ~= "number" then
      errors.raise("rlx.model.shape_string", string.format("element %d must be a number, got %s", i, type(d)))
    end
  end
  return table.concat(shape, "x")
end

return M
