-- rlx.plan.layout: which memory layout a run trains in, and which rule chose it (one rule for every
-- entry point: rlx.train{}, study:sweep{}, `rlx train` and the study; docs/training.md "Chosen on
-- the machine that trains"): the caller's memory_format always wins; else this machine's
-- calibration of the model (rlx.calibrate); else rlx.train's own default.
local M = {}

-- The layouts a caller may name (rlx.model.MEMORY_FORMATS, engine/models' list), and "auto": the
-- calibrated one. The one list of --memory-format, --set memory_format= and the sweep's option.
M.LAYOUTS = require("rlx.model").MEMORY_FORMATS
M.CHOICES = {"auto"}
for _, l in ipairs(M.LAYOUTS) do M.CHOICES[#M.CHOICES + 1] = l end

--- The layout of a sweep's run of (model, precision) at `input` from the sweep's calibration
--- (rlx.calibrate's, keyed by rlx.calibrate.key), nil when it has none for it.
function M.calibrated(calibration, model, precision, input)
  local cal = calibration and calibration[rlx.calibrate.key(model, precision, input)]
  return type(cal) == "table" and cal.memory_format or nil
end

return M
