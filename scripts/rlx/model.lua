-- rlx.model: the model zoo and its complexity (engine/models through rlx._core.model).
--   rlx.model.list()                     -> {"resnet18", "resnet34", ...}
--   rlx.model.summary{model="resnet50", batch=32, input=224, classes=1000, precision="fp32"}
--     -> {params=..., forward_macs=..., train_flops=..., bytes=..., ai=..., memory_bytes=...,
--         layers={{name=, kind=, output={C,H,W}, params=, macs=, ...}, ...}}
-- A model is a built-in name or a Lua table (docs/lua-api/model.md):
--   {name="tiny", layers={{"conv", out=16, k=3, pad=1}, {"bn"}, {"relu"}, {"maxpool", k=2},
--    {"flatten"}, {"linear"}}}
local core = rlx._core.model
local M = {}

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

--- "64x56x56" for a shape array.
function M.shape_string(shape)
  return table.concat(shape, "x")
end

return M
