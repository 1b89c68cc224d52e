-- rlx.plan.layout: which memory layout a run trains in, and which rule chose it: one rule for every
-- entry point (rlx.train{}, study:sweep{}, `rlx train` and the study; docs/training.md "Chosen on
-- the machine that trains", issue 48 item 12):
--   given       the caller's memory_format (channels_last or contiguous) always wins;
--   calibrated  else this machine's calibration of the model (rlx.calibrate: the faster layout
--               beyond its 95 % CI at the runs' batch, else a tie that keeps the default,
--               probed once per model, precision, input and threads), kept in the study's
--               database and in the user's cache (rlx.calibrate.cache_db()); one stored before
--               issue 55 (best steps at batch 2, no CI) is not used, and measured again;
--   default     else rlx.train's own default (channels_last for a convolutional model).
-- `rlx train` and the study calibrate what is missing first (a dozen steps of the model at the
-- runs' batch, which they say); rlx.train{} and study:sweep{} use what is stored and train nothing
-- they were not asked to.
-- The result of every run records the rule (memory_format_rule) and why (memory_format_choice).
local errors = require("rlx.errors")
local M = {}

-- The layouts a caller may name (rlx.model.MEMORY_FORMATS, engine/models' list), and "auto": the
-- rule above. The one list of --memory-format, --set memory_format= and the sweep's option.
M.LAYOUTS = require("rlx.model").MEMORY_FORMATS
M.CHOICES = {"auto"}
for _, l in ipairs(M.LAYOUTS) do M.CHOICES[#M.CHOICES + 1] = l end

--- The layout of a sweep's run of (model, precision) at `input` from the sweep's calibration
--- (rlx.calibrate's, keyed by rlx.calibrate.key), nil when it has none for it.
function M.calibrated(calibration, model, precision, input)
  local cal = calibration and calibration[rlx.calibrate.key(model, precision, input)]
  return type(cal) == "table" and cal.memory_format or nil
end

-- The device kind and id a run trains on ("auto": the first GPU when there is one).
local function device_of(device)
  if device == nil or device == "auto" then
    for _, d in ipairs(rlx.devices()) do
      if d.kind == "cuda" then return "cuda", d.id end
    end
    return "cpu", "cpu"
  end
  return rlx.calibrate.kind(device), device
end

-- The input side a run trains at: its own, else its dataset's (CIFAR-10 32), else 224 (the rule of
-- engine/train/trainer.cpp).
local function input_of(run)
  if run.input then return run.input end
  if run.data and run.data ~= "synthetic" then
    local ok, d = pcall(rlx._core.train.dataset, run.data)
    if ok and type(d) == "table" and d.kind == "cifar10" then return 32 end
  end
  return 224
end

-- Whether the calibration cache can be read (rlx.fs.check_file, the one reader's rule: a FIFO
-- there is not waited on); a lookup that only reads treats one that cannot as absent.
local function cache_readable(path)
  local ok, size = pcall(rlx.fs.check_file, path, {what = "the calibration cache", missing_ok = true})
  return ok and size ~= nil
end

-- This machine's calibration of `f` ({model, precision, input, batch}) on device `device` with
-- `threads` (nil: the default), from `study` when given, else the user's cache; probed and kept
-- there when missing and `probe` is true. Returns it and the database it came from, or nil.
local function lookup(f, device, threads, o)
  local kind = rlx.calibrate.kind(device)
  local key = rlx.calibrate.key(f.model, f.precision, f.input)
  local function stored(st)
    local c = rlx.calibrate.stored(st, kind, threads)[key]
    if c and not (type(c.probe) == "table" and c.probe.verdict) then o.stale = true end
    return c and rlx.calibrate.current(c, kind, threads) and c or nil
  end
  if o.study then
    local c = stored(o.study)
    if c then return c, o.study.path end
  end
  local path = rlx.calibrate.cache_db()
  if not o.probe and not cache_readable(path) then return nil end
  local st = rlx.study{name = "calibrations", db = path}
  local c = stored(st)
  if not c and o.probe then
    c = rlx.calibrate.ensure(o.study or st, device, {f}, {classes = o.classes, lr = o.lr, quiet = true,
      threads = threads, trainer = o.trainer})[key]
  end
  st:close()
  return c, c and (o.study and o.probe and o.study.path or path)
end

--- The layout of a run (`run`: rlx.train's options) and the rule that chose it: {memory_format
--- (nil: rlx.train's default), rule = "given" | "calibrated" | "default", calibration (for
--- "calibrated"), where (its database), why (for "default"), error (why the probe failed)}. opts: study (its database first),
--- probe (calibrate what is missing: rlx train, a study), classes, lr, trainer (the probe's).
local memo = {}  -- calibrated choices made in this process: a loop of rlx.train{} looks up once

function M.choose(run, opts)
  opts = opts or {}
  local given = run.memory_format
  if given ~= nil and given ~= "auto" then return {memory_format = given, rule = "given"} end
  if type(run.model) ~= "string" then
    return {rule = "default", why = "a model given as a table is not calibrated"}
  end
  local _, device = device_of(run.device)
  local f = {model = run.model, precision = run.precision or "fp32", input = input_of(run), batch = run.batch}
  local threads = (tonumber(run.threads) or 0) > 0 and run.threads or nil
  local memo_key = table.concat({f.model, f.precision, f.input, device, tostring(threads),
    opts.study and opts.study.path or "", tostring(opts.probe)}, "|")
  if memo[memo_key] then return memo[memo_key] end
  local o = {study = opts.study, probe = opts.probe, classes = opts.classes or run.classes, lr = opts.lr or run.lr,
    trainer = opts.trainer}
  local ok, cal, where = pcall(lookup, f, device, threads, o)
  if not ok then
    errors.pass_exits(cal)
    return {rule = "default", why = "no calibration: " .. errors.message(cal), error = errors.message(cal)}
  end
  if not cal then
    -- A calibration stored before issue 55 (best steps at batch 2, no CI) is not used: it did not hold.
    memo[memo_key] = {rule = "default", why = string.format(o.stale and "%s %s at %dx%d was calibrated on this " ..
      "machine by the rule before issue 55 (best steps at batch 2, no CI), which did not hold (rlx train --model %s, " ..
      "or a study, measures it again)" or "%s %s at %dx%d is not calibrated on this machine (rlx train " ..
      "--model %s, or a study, calibrates it)", f.model, f.precision, f.input, f.input, f.model)}
    return memo[memo_key]
  end
  memo[memo_key] = {memory_format = cal.memory_format, rule = "calibrated", calibration = cal, where = where}
  return memo[memo_key]
end

--- Records the choice in a run's result: memory_format_rule ("given", "calibrated", "default") and
--- memory_format_choice (the calibration in words, "yours", or why there was none).
function M.stamp(result, choice)
  if type(result) ~= "table" or type(choice) ~= "table" then return result end
  result.memory_format_rule = choice.rule
  if choice.rule == "calibrated" and choice.calibration then
    result.memory_format_choice = rlx.calibrate.text(choice.calibration)
  elseif choice.rule == "given" then
    result.memory_format_choice = "yours"
  else
    result.memory_format_choice = choice.why
  end
  return result
end

return M
