-- rlx.study._common: what rlx.study and its sweep's slots (rlx.study._slot) both use: the warning
-- line, the clock, the JSON-able part of a value and the roofline rows of a run (the plan's
-- arithmetic is rlx.plan's). Each file requires it (no module hands its private helpers to another).
local printable = require("rlx.show").printable
local M = {}

--- A warning on stderr; the labels, names and errors in it are escaped (rlx.show.printable).
function M.warn(msg) io.stderr:write("rlx.study: " .. printable(msg) .. "\n") end

--- Seconds on rlx's monotonic clock (rlx._core.host.monotonic): durations of runs and budgets.
function M.now_s() return rlx._core.host.monotonic() end

--- The JSON-able part of a value: functions, userdata and threads (a model object, a callback)
--- are dropped rather than failing the run's transaction.
function M.plain_data(v, depth)
  local t = type(v)
  if t == "string" or t == "boolean" then return v end
  if t == "number" then return v == v and v or nil end
  if t ~= "table" or depth > 32 then return nil end
  local out = {}
  for k, x in pairs(v) do
    if type(k) == "string" or type(k) == "number" then out[k] = M.plain_data(x, depth + 1) end
  end
  return out
end

--- The roofline rows of a run (rlx.roofline.for_run); none, with a warning, when it fails.
function M.roofline_rows(result, peaks, complexity)
  local roofline = rlx.roofline
  if type(roofline) ~= "table" or type(roofline.for_run) ~= "function" then return {} end
  local ok, rows = pcall(roofline.for_run, result, {peaks = peaks, complexity = complexity})
  if not ok then
    M.warn("rlx.roofline.for_run failed: " .. tostring(rows))
    return {}
  end
  return type(rows) == "table" and rows or {}
end

return M
