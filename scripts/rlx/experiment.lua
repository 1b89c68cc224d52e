-- rlx.experiment: the machinery of a study script, so experiments/all.lua reads as the study.
--
--   open(params, dir): the study a script runs (docs/lua-api/experiment.md): checks data=, opens
--     the study, says what it is, and returns an experiment whose methods run it:
--     x:environments() (the plan: every device's environment script, calibrated and costed against
--     the budget), x:sweep(env) (peaks once per environment, then the matrix), x:figures(),
--     x:report() (summary, report, the last line; exit 1 when other processes still hold runs).
--     A study's own methods work on it too (x:runs{...}, x:points{...}).
--   scale(matrix, params): the scale's settings (matrix.scale[params.scale]) with the --set
--     overrides applied: warmup= (a count or auto), iters= (a fixed count: drops the precision
--     target), target_ci= (a precision target: drops the fixed count), min_iters=, max_iters=,
--     input=, repeats=, budget= (30m, 1.5h, none), models=, batch=, precision= (comma lists) and
--     counters=false.
--   pick(dir, kind, labels): the environment script for a device: DIR/<label>.lua for the first of
--     `labels` (environment label, GPU hardware label, device kind) that exists and is for `kind`.
--   plan(study, opts): what every device will sweep (its environment script, batch sizes and
--     precisions: bf16 on a CPU only where it is native, see native_bf16) and what it costs: the
--     plan itself is rlx.plan's (rlx.plan.study: calibration, estimates, budget, what is left out).
--     Prints it and stores it (the plans table).
--   run(study, opts): plan, then every device's sweep; finish(study, opts): figures, summary and
--     report (nothing in a dry run). open_study(opts), check_complete(summary): the exits.
--
-- An environment script (experiments/cpu.lua, rtx4090.lua, ...) returns plain data:
--   {kind = "cuda", batch = {64, 128, 256}, precision = {"fp32", "amp"}, counters = true}
-- so adding an environment is copying one file to experiments/<label>.lua (docs/study.md).
local options = require("rlx.options")
local text = require("rlx.plan.text")
local plan_study = require("rlx.plan.study")
local plan = require("rlx.plan")
local layout = require("rlx.plan.layout")
local train_options = require("rlx._train_options")
local show = require("rlx.show")

local M = {}

local RUN_SPEC = {
  dir = {type = "string", required = true},
  matrix = {type = "table", required = true},
  scale = {type = "table", required = true},
  devices = {type = "string"},
  retry_crashed = {type = "boolean", default = false},
  list = {type = "table"},
  data = {type = "string"},
  memory_format = {type = "string", one_of = layout.CHOICES, default = "auto"},
  started = {type = "number"},
  figures = {type = "string", default = "figures"},
  -- The report's (--set with= and title=): carried to x:report, checked by M.open (report_options).
  with = {type = "string"},
  title = {type = "string"},
}
local FINISH_SPEC = {figures = {type = "string", default = "figures"}, scale = {type = "table", required = true},
  with = {type = "string"}, title = {type = "string"}}

-- A parameter that is an option of rlx.train: its type and bounds are the option's declaration
-- (engine/train/options.cpp); the help says what it does to the study.
local function train_param(name, help, extra)
  local e = train_options.spec(name, extra)
  e.help = help
  return e
end

--- The parameters of a study script (experiments/all.lua declares them: rlx.params.declare), as
--- data: `--set KEY=VALUE` for each, with its type, default and help (`rlx run SCRIPT --help`).
M.PARAMS = {
  scale = {one_of = {"smoke", "default", "full"}, default = "default", help = "fidelity against time (matrix.lua)"},
  budget = {help = "study time budget, e.g. 30m, 1.5h or none (default: the scale's)"},
  target_ci = train_param("target_ci", "time each run until the 95 % CI is within ±this fraction (e.g. 0.02)"),
  warmup = {help = "warm-up iterations, or auto: until steady (overrides the scale)"},
  iters = train_param("iters", "a fixed count of measured iterations (instead of target_ci)"),
  min_iters = train_param("min_iters", "with target_ci: timed iterations before judging"),
  max_iters = train_param("max_iters", "with target_ci: at most this many timed iterations"),
  -- A study's images are at least 8 pixels a side (the models' smallest feature maps).
  input = train_param("input", "image side in pixels (overrides the scale; 8 to 4096)", {min = 8}),
  repeats = {type = "integer", min = 1, help = "repeats per configuration (overrides the scale; at most 50)"},
  models = {help = "comma list of models (default: matrix.lua's)"},
  batch = {help = "comma list of batch sizes (default: the environment script's)"},
  precision = {help = "comma list, e.g. fp32,bf16 (default: the environment script's; bf16 on CPUs with it)"},
  counters = {type = "boolean", default = true, help = "hardware counters on CUDA"},
  memory_format = {one_of = layout.CHOICES, default = "auto",
    help = "memory layout of every run (auto: each model's faster one, measured on this machine: rlx.calibrate)"},
  retry_crashed = {type = "boolean", default = false, help = "retry runs whose process died"},
  devices = {help = "device kinds to run, e.g. cpu,cuda (default: all)"},
  name = {default = "p1-roofline", help = "study name"},
  db = {help = "database file (default results/<name>.db)"},
  figures = {default = "figures", help = "figures folder"},
  label = {help = "environment label (default: from the hardware)"},
  env = {help = "environment label, as RLX_ENV (rlx.env.capture)"},
  data = {help = "train on this dataset: an ImageFolder root (e.g. an Imagenette subset) or a CIFAR-10 folder " ..
    "(default: synthetic images)"},
  zone = {help = "cloud region/zone, e.g. us-central1-a (stored with the environment)"},
  instance = {help = "cloud instance type, e.g. g2-standard-8 (stored with the environment)"},
  price_per_hour = {type = "number", min = 0, max = 1e9,
    help = "the machine's price per hour: the report adds cost per 1,000 images"},
  with = {help = "other machines' study databases, comma-separated: one report over them all (rlx report A.db B.db)"},
  title = {help = "the report's title (default: seed 001's, with the environments named)"},
}

-- What a dry run counts for peaks not yet measured, and what the figures and report take: the
-- plan's (rlx.plan.study).
M.PEAKS_S, M.FINISH_S = plan_study.PEAKS_S, plan_study.FINISH_S

local now_s = require("rlx.study._common").now_s

local function fail(msg) rlx.fail(2, "experiments/all.lua: " .. msg) end
local errors = require("rlx.errors")

-- The precisions rlx.train takes: rlx.model.PRECISIONS (engine/models, the one list).
M.PRECISIONS = require("rlx.model").PRECISIONS

-- A --set comma list checked item by item against `valid` (a typo would plan runs that all fail,
-- or none at all; issue 35 item 2): an unknown or repeated item ends the program (exit 2).
local function list_of(given, what, valid)
  if given == nil then return nil end
  local out, why = options.split_list(given)
  if why then fail(string.format("--set %s= %s", what, why)) end
  local known, seen = {}, {}
  for _, v in ipairs(valid) do known[v] = true end
  for _, v in ipairs(out) do
    if not known[v] then
      fail(string.format("--set %s=: unknown %s '%s' (valid: %s)", what, what == "models" and "model" or what, v,
        table.concat(valid, ", ")))
    end
    if seen[v] then fail(string.format("--set %s=: '%s' is listed twice", what, v)) end
    seen[v] = true
  end
  return out
end

-- --set budget=: a duration with its unit, or none. A bare number is refused (30 was silently 30
-- seconds) and so is a zero budget (it silently meant no budget; issue 35 item 5).
local function budget_of(given, default)
  if given == nil then given = default end
  if given == nil then return nil end
  local s = tostring(given):lower():gsub("%s", "")
  if s:match("^[%d.]+$") and tonumber(s) ~= 0 then
    fail(string.format("--set budget=%s needs a unit: %ss, %sm or %sh (or none for no budget)", given, s, s, s))
  end
  local ok, b = pcall(text.parse_duration, given)
  if not ok then fail("--set budget=: " .. rlx.errors.message(b)) end
  if b == nil and s ~= "none" then
    fail(string.format("--set budget=%s leaves no time for any run: give a positive duration such as 30m, or none " ..
      "for no budget", given))
  end
  return b
end

-- --set devices=: the device kinds to run (nil: all); an unknown one ends the program (exit 2)
-- before anything is opened (M.scale checks it first).
local function wanted_kinds(devices)
  if not devices then return nil end
  local kinds, why = options.split_list(devices)
  if why then fail("--set devices= " .. why) end
  local wanted, valid = {}, {}
  for _, k in ipairs(rlx.model.DEVICE_KINDS) do valid[k] = true end
  for _, k in ipairs(kinds) do
    if not valid[k] then
      fail(string.format("--set devices= takes %s (e.g. %s), got '%s'", table.concat(rlx.model.DEVICE_KINDS, " and/or "),
        table.concat(rlx.model.DEVICE_KINDS, ","), k))
    end
    if wanted[k] then fail(string.format("--set devices=: '%s' is listed twice", k)) end
    wanted[k] = true
  end
  return wanted
end

-- --set batch= sizes rlx.model can describe at the scale's input, for every model swept: refused
-- as `rlx models` refuses them (a batch whose FLOPs or bytes overflow int64 was planned as runs
-- "without an estimate"; issue 48 item 6).
local function check_batches(S, matrix)
  for _, model in ipairs(S.models or matrix.models) do
    for _, b in ipairs(S.batch) do
      local ok, err = pcall(rlx.model.summary, {model = model, batch = b, input = S.input, classes = matrix.classes,
        layers = false})
      if not ok then fail("--set batch=: " .. rlx.errors.message(rlx.errors.pass_exits(err))) end
    end
  end
end

-- The protocol overrides: a fixed count (iters=) or a precision target (target_ci=), not both.
local function apply_protocol(S, P)
  if P.iters and P.target_ci then fail("--set iters= (a fixed count) and --set target_ci= exclude each other") end
  if P.iters then S.iters, S.target_ci, S.min_iters, S.max_iters = P.iters, nil, nil, nil end
  if P.target_ci then
    if P.target_ci <= 0 or P.target_ci >= 1 then
      fail(string.format("--set target_ci= must be a fraction in (0, 1), e.g. 0.02, got %s", tostring(P.target_ci)))
    end
    S.target_ci, S.iters = P.target_ci, nil
    -- What the scale leaves out is rlx.train's: its declared caps, and warm-up until steady.
    S.min_iters = S.min_iters or train_options.default("min_iters")
    S.max_iters = S.max_iters or train_options.default("max_iters")
    S.warmup = S.warmup or "auto"
  end
  if P.warmup ~= nil then
    local count = train_options.OPTIONS.warmup
    local w = P.warmup == "auto" and "auto" or options._from_text({type = "integer", min = count.min,
      max = count.typed_max}, tostring(P.warmup))
    if not w then
      fail(string.format("--set warmup= must be a whole number from 0 to 100000, or auto, got '%s'", tostring(P.warmup)))
    end
    S.warmup = w
  end
  -- The parameters whose option needs target_ci (min_iters, max_iters: their declarations).
  for _, d in ipairs(train_options.OPTIONS) do
    local k = d.name
    if M.PARAMS[k] and P[k] ~= nil and d.needs and d.needs[1].option == "target_ci" then
      if not S.target_ci then fail(string.format("--set %s= applies to a precision target (target_ci=)", k)) end
      S[k] = P[k]
    end
  end
  if S.target_ci and S.min_iters > S.max_iters then
    fail(string.format("min_iters=%d is more than max_iters=%d: a run cannot time at least %d and at most %d " ..
      "iterations; raise --set max_iters= or lower --set min_iters=", S.min_iters, S.max_iters, S.min_iters,
      S.max_iters))
  end
end

--- The scale's settings with the --set overrides applied (a new table; budget_s in seconds or nil;
--- started: now on rlx's monotonic clock, where the budget counts from).
function M.scale(matrix, P)
  local S = {name = P.scale, started = now_s()}
  for k, v in pairs(matrix.scale[P.scale]) do S[k] = v end
  apply_protocol(S, P)
  for _, k in ipairs({"input", "repeats"}) do
    if P[k] ~= nil then S[k] = P[k] end
  end
  if P.repeats and P.repeats > plan.MAX_REPEATS then
    fail(string.format("--set repeats=%s: at most %d (%s)", rlx.params_text and rlx.params_text.repeats or
      tostring(P.repeats), plan.MAX_REPEATS, plan.MAX_REPEATS_WHY))
  end
  S.budget_s = budget_of(P.budget, S.budget)
  -- The scale's budget may grow up to budget_max so that every configuration gets min_repeats
  -- kept runs (M.plan); a budget given with --set is kept as given.
  if P.budget ~= nil then S.budget_max, S.min_repeats = nil, nil end
  S.budget_max_s = S.budget_max and text.parse_duration(S.budget_max) or nil
  S.models, S.precision = list_of(P.models, "models", rlx.model.list()), list_of(P.precision, "precision",
    M.PRECISIONS)
  if P.batch then
    local v, why = options._from_text({type = "int_list", min = 1}, P.batch)
    if why then fail("--set batch= " .. why) end
    S.batch = v
    check_batches(S, matrix)
  end
  if P.counters == false then S.counters = false end
  wanted_kinds(P.devices)
  -- A run asked for a looser target than the scale's acceptance is kept at that target.
  if S.target_ci and S.accept_ci then S.accept_ci = math.max(S.accept_ci, S.target_ci) end
  return S
end

--- The protocol of a scale in words: "warm-up until steady, then timed until the 95 % CI of the
--- mean iteration time is within ±2 % (3-50 iterations)" or "1 warm-up + 4 measured iterations".
function M.protocol_text(S)
  if S.target_ci then
    local w = S.warmup == "auto" and "warm-up until steady (at most 10)" or string.format("%s warm-up", S.warmup)
    return string.format("%s, then timed until the 95 %% CI of the mean iteration time is within ±%g %% " ..
      "(%d-%d iterations)", w, S.target_ci * 100, S.min_iters, S.max_iters)
  end
  return string.format("%s warm-up + %s measured iterations", tostring(S.warmup), tostring(S.iters))
end

-- A Lua file of the study's folder (matrix.lua, an environment script), read by the one reader
-- (rlx.fs.read: a FIFO or a device there is refused, not waited on): what it returns, or raises.
local function run_file(path, what)
  local source = rlx.fs.read(path, {what = what})
  local chunk, err = load(source, "@" .. path)
  if not chunk then error(err, 0) end
  return chunk()
end

--- The environment script for a device of `kind`: the first DIR/<label>.lua among `labels` (nils
--- skipped) whose table says kind = `kind`. Returns its path, name and table, or nil.
function M.pick(dir, kind, labels)
  for i = 1, #labels + 1 do
    local name = labels[i]
    if i > #labels then name = kind end
    local path = name and (dir .. "/" .. name .. ".lua")
    if path then
      local ok, env = pcall(run_file, path, "the environment script")  -- a missing or broken one: the next label's
      if ok and type(env) == "table" and env.kind == kind and env.batch and env.precision then
        return path, name, env
      end
    end
  end
end

--- The candidate labels for a device: the environment label, the same with '_' for '-' (seed 001's
--- keys mac_mps and gcp_<gpu> are written mac-mps and gcp-l4: '_' separates a run label's fields),
--- its first part (gcp-l4 -> gcp), then the GPU's hardware label.
function M.labels_for(study, dev)
  local label = study.env.label
  local labels = {label}
  if type(label) == "string" and label:find("-", 1, true) then
    labels[#labels + 1] = (label:gsub("%-", "_"))
    labels[#labels + 1] = label:match("^([^-]+)%-")
  end
  if dev.kind == "cuda" and dev.name then
    labels[#labels + 1] = rlx.env.hardware_label{gpu_name = dev.name}
  end
  return labels
end

--- Whether an environment's CPU computes bf16 natively (rlx.plan.study.native_bf16, its owner).
M.native_bf16 = plan_study.native_bf16

-- The precisions a device sweeps and why any of its script's were left out.
local function wanted_precisions(study, kind, env, S)
  if S.precision then return S.precision, nil end
  if kind ~= "cpu" or M.native_bf16(study.env) then return env.precision, nil end
  local out = {}
  for _, p in ipairs(env.precision) do if p ~= "bf16" then out[#out + 1] = p end end
  if #out == #env.precision then return out, nil end
  return out, "bf16 left out: this CPU has no native bf16 (no avx512_bf16 or AMX), so LibTorch emulates it, about " ..
    "2x slower than fp32; --set precision=fp32,bf16 measures it anyway"
end

-- Those of them the device trains in: a precision this build refuses on it (dev.refused_precisions,
-- rlx.devices(): the trainer would refuse every such run) is left out, with the refusal as its note.
local function precisions(study, dev, kind, env, S)
  local wanted, note = wanted_precisions(study, kind, env, S)
  local refused, out, notes = dev.refused_precisions or {}, {}, {note}
  for _, p in ipairs(wanted) do
    if refused[p] then
      notes[#notes + 1] = string.format("%s left out: %s", p, refused[p])
    else
      out[#out + 1] = p
    end
  end
  return out, notes
end

-- The sweep options of one device (study:sweep's).
local function sweep_options(id, env, precision, S, mx, o)
  return {device = id, models = S.models or mx.models, batch = S.batch or env.batch, precision = precision,
    repeats = S.repeats or mx.repeats, warmup = S.warmup, iters = S.iters, input = S.input, classes = mx.classes,
    lr = mx.lr, target_ci = S.target_ci, accept_ci = S.target_ci and S.accept_ci or nil, min_iters = S.min_iters,
    max_iters = S.max_iters, counters = env.counters == true and S.counters ~= false or nil,
    retry_crashed = o.retry_crashed, data = o.data, min_repeats = S.min_repeats,
    memory_format = o.memory_format ~= "auto" and o.memory_format or nil}
end

-- The devices to sweep: {id, kind, name, script, sweep (options), notes}.
local function devices_plan(study, o)
  local wanted, out = wanted_kinds(o.devices), {}
  for _, dev in ipairs(o.list or rlx.devices()) do
    local kind, id = dev.kind or "cpu", dev.id or dev.kind or "cpu"
    if wanted and not wanted[kind] then
      print(string.format("%s (%s): skipped (--set devices=%s)", id, dev.name or "", o.devices))
    else
      local path, name, env = M.pick(o.dir, kind, M.labels_for(study, dev))
      if not path then
        print(string.format("%s (%s): no experiments/%s.lua, skipped", id, dev.name or "", kind))
      else
        local precision, notes = precisions(study, dev, kind, env, o.scale)
        if #precision == 0 then
          print(string.format("%s (%s): skipped, it trains in none of the precisions asked for: %s", id, dev.name or "",
            table.concat(notes, "; ")))
        else
          out[#out + 1] = {id = id, kind = kind, name = dev.name or kind, script = name, path = path, notes = notes,
            sweep = sweep_options(id, env, precision, o.scale, o.matrix, o)}
        end
      end
    end
  end
  return out
end

--- Leaves out every CPU device's precisions beyond its first when the matrix does not fit
--- (rlx.plan.study.drop_optional); raises the scale's budget where the matrix needs it
--- (rlx.plan.study.raise_budget); the command that runs the study again with a budget
--- (rlx.plan.text.rerun_command). The plan owns them; these are their names here.
M.drop_optional, M.raise_budget = plan_study.drop_optional, plan_study.raise_budget
M.rerun_command = text.rerun_command

--- The devices to sweep and their cost against the budget, after calibrating each on this machine;
--- prints the plan and stores it (study.db:put_plan). The plan is rlx.plan.study's.
function M.plan(study, opts)
  local o = options.check("rlx.experiment.plan", opts, RUN_SPEC)
  local p = plan_study.make(study, devices_plan(study, o), o.scale, {started = o.started or now_s(),
    matrix = o.matrix})
  for _, line in ipairs(p.lines) do print(line) end
  if not (rlx.flags and rlx.flags.dry_run) then
    p.plan_id = study.db:put_plan{study = study.name, environment_id = study.env_id, budget_s = o.scale.budget_s,
      estimate_s = p.estimate_s, planned = p.planned, left_out = p.left_out, detail = p.detail}
  end
  return p
end

--- Before any work (issue 25): the figures folder and the report beside it can be written (made
--- now, unless a dry run); an unusable one ends the program (exit 1) before peaks or runs.
function M.check_outputs(o)
  local who = (arg and arg[0]) or "rlx.experiment.run"
  local report_dir = o.figures:match("^(.*)/[^/]+$") or "."
  local dry = rlx.flags and rlx.flags.dry_run and true or false
  local ok, err = pcall(function()
    rlx.fs.check_output(o.figures, "folder", {create = not dry, what = "figures"})
    for _, f in ipairs({"report.md", "report.html"}) do
      rlx.fs.check_output(report_dir .. "/" .. f, "file", {create = not dry, create_parent = true, what = "report"})
    end
  end)
  if not ok then rlx.fail(1, who .. ": " .. errors.message(errors.pass_exits(err))) end
end

-- Sweeps device i of plan p (rlx.plan.study's) under run options o: its peaks once per
-- environment, then its matrix within what is left of the budget. Returns the summary entry
-- {device, script, stats}.
local function sweep_device(study, p, i, o)
  local dry, S, d = rlx.flags and rlx.flags.dry_run, o.scale, p.devices[i]
  print(string.format("== %s: %s", d.id, d.name))
  study:ensure_peaks(d.kind, {quick = S.peaks_quick == true})
  print(string.format("batch sizes and precisions from experiments/%s.lua", d.script))
  local sweep = d.sweep
  sweep.notes = #d.notes > 0 and d.notes or nil
  if S.budget_s then sweep.budget_s = plan_study.device_budget(study, p, i, S, o.started) end
  sweep.started, sweep.after_s = o.started, plan_study.after_s(p, i)
  local stats = study:sweep(sweep)
  if type(stats) == "table" and stats.planned and not dry then
    print(string.format("%s: %d planned, %d ran (%d ok, %d failed%s), %d already done%s", d.id, stats.planned,
      stats.ran or 0, stats.ok or 0, stats.failed or 0,
      (stats.reruns or 0) > 0 and string.format(", %d reruns of unsteady, contended or imprecise runs",
        stats.reruns) or "", stats.skipped or 0,
      #(stats.left_out or {}) > 0 and string.format(", %d left out for the budget", #stats.left_out) or ""))
  end
  return {device = d.id, script = d.path, stats = stats}
end

-- After the sweeps: the plan's estimate and detail go with the scale (finish stores them), and
-- what the budget left out in the end is said.
local function after_sweeps(summary, p, S)
  summary.estimate_s = p.estimate_s
  S.estimate_s, S.plan_id, S.plan_detail = p.estimate_s, p.plan_id, p.detail
  if not (rlx.flags and rlx.flags.dry_run) then M.left_out_after(summary, S) end
end

--- Sweeps every device of the plan. opts: dir (the environment scripts' folder), matrix, scale
--- (M.scale's), devices (a comma list of kinds to keep, or nil), retry_crashed, list (stand-in
--- rlx.devices()), data (a dataset path for every run; nil: synthetic images), started (the
--- study's start on rlx's monotonic clock: the budget counts from it).
function M.run(study, opts)
  local o = options.check("rlx.experiment.run", opts, RUN_SPEC)
  o.started = o.started or o.scale.started or now_s()
  -- The plan first: one refused (exit 2) leaves no figures folder behind (issue 35 item 3).
  local p = M.plan(study, o)
  M.check_outputs(o)
  local summary = {}
  for i in ipairs(p.devices) do summary[#summary + 1] = sweep_device(study, p, i, o) end
  after_sweeps(summary, p, o.scale)
  return summary
end

--- After the sweeps: what the budget left out in the end (the plan's estimate is revised as runs
--- finish, so a run may still be left out, or fit after all), printed with the command that adds
--- exactly those runs, and kept in the plan's detail (S.plan_detail) for the plans table.
function M.left_out_after(summary, S)
  local labels, need = {}, 0
  for _, dev in ipairs(summary) do
    for _, it in ipairs(type(dev.stats) == "table" and dev.stats.left_out or {}) do
      labels[#labels + 1] = it.label
      need = need + (it.need_s or 0)
    end
  end
  local detail = S.plan_detail or {}
  detail.left_out, detail.add = nil, nil
  if #labels > 0 then
    detail.left_out, detail.add = labels, text.rerun_command(plan_study.budget_for(need))
    print(string.format("left out for the budget: %s; to add them to this database: %s", text.left_out(labels, need),
      detail.add))
  end
  S.plan_detail = detail
end

--- rlx.study(opts) for a study script: a refused option (a --set name, label, zone or instance
--- with a control character, a label with '/') ends the program with one line and exit 2, not a
--- traceback (issue 35 item 11: `--set label=../../x`); a database that cannot be opened, exit 1.
function M.open_study(opts)
  local ok, study = pcall(rlx.study, opts)
  if ok then return study end
  local err = rlx.errors.pass_exits(study)
  local usage = type(err) == "table" and rawget(err, "fn") == "rlx.study"
  rlx.fail(usage and 2 or 1, "experiments/all.lua: " .. rlx.errors.text(err))
end

--- Ends the program (exit 1) when a sweep left slots to other processes that had not stored them
--- by its end: the study is incomplete, and its figures and report leave those runs out (issue 35
--- item 1: it said "left to it" and exited 0). summary: M.run's.
function M.check_complete(summary)
  local left = {}
  for _, d in ipairs(summary or {}) do
    for _, l in ipairs(type(d.stats) == "table" and d.stats.left_to_others or {}) do left[#left + 1] = l end
  end
  if #left == 0 then return end
  rlx.fail(1, show.printable(string.format("experiments/all.lua: the study is incomplete: %d run(s) " ..
    "were still being trained by other processes when it ended: %s; the figures and report leave them out: run " ..
    "the same command again once those processes have finished", #left, table.concat(left, "; "))))
end

--- The study's last line: its wall time against the plan's one estimate, made before the first
--- run ("done in 27.1 min; the plan estimated 28.0 min (-3 %)"), or what a dry run did.
function M.done_line(S, summary)
  if rlx.flags and rlx.flags.dry_run then return "dry run: nothing trained, no figures drawn" end
  local wall, est = now_s() - S.started, S.estimate_s or (summary and summary.estimate_s) or 0
  return string.format("done in %s; the plan estimated %s%s", text.duration_text(wall), text.duration_text(est),
    est > 0 and string.format(" (%+.0f %%)", (wall / est - 1) * 100) or "")
end

-- The figures of a finished study (not in a dry run), listed.
local function draw(study, dir, S)
  -- The figures state the input size and protocol themselves (read from the runs); the note names the preset.
  local note = S.name ~= "full" and ("scale " .. S.name) or nil
  local fig = study:figures{dir = dir, note = note}
  print(string.format("figures in %s/:", dir))
  for _, file in ipairs(fig.files) do print("  " .. file.path) end
  for _, w in ipairs(fig.warnings) do print("  (skipped) " .. w) end
end

-- The summary line, the plan's wall time (to here: the figures drawn, the report not yet written:
-- the report states it against the estimate) and the report beside the figures folder.
-- extra: more options of study:report (a script's own, e.g. x:report{...}).
local function write_report(study, dir, S, extra)
  study:summary()
  if S.plan_id then study.db:finish_plan(S.plan_id, now_s() - S.started, S.plan_detail or {}) end
  local o = {dir = dir:match("^(.*)/[^/]+$") or ".", figures = dir:match("[^/]+$"), quiet = true}
  for k, v in pairs(extra or {}) do o[k] = v end
  print("report: " .. study:report(o).html)
end

--- Figures, the summary and the report (the report goes next to the figures folder, docs/report.md).
--- In a dry run it says so and does nothing. opts: figures (folder), scale (M.scale's).
function M.finish(study, opts)
  local o = options.check("rlx.experiment.finish", opts, FINISH_SPEC)
  if rlx.flags and rlx.flags.dry_run then return end
  draw(study, o.figures, o.scale)
  write_report(study, o.figures, o.scale, {with = o.with, title = o.title})
end

-- The experiment a study script runs (M.open): the study, the scale, the plan and what each
-- device's sweep did. A study's own methods work on it too: x:runs{...} is x.study:runs{...}.
local Experiment = {}
Experiment.__index = function(x, key)
  if Experiment[key] ~= nil then return Experiment[key] end
  local v = rawget(x, "study")[key]
  if type(v) ~= "function" then return v end
  return function(_, ...) return v(rawget(x, "study"), ...) end
end

-- What the study is, in the words a log keeps: where it is stored, the data and the protocol.
local function header_lines(study, data, S)
  local where = {}
  if study.env.cloud_zone then where[#where + 1] = "zone " .. study.env.cloud_zone end
  if study.env.instance_type then where[#where + 1] = "instance " .. study.env.instance_type end
  local lines = {string.format("study %s in %s, environment '%s'%s", study.name, study.path, study.env.label or "?",
    #where > 0 and (" (" .. table.concat(where, ", ") .. ")") or "")}
  if data then
    lines[#lines + 1] = string.format("data %s: %s, %d images in %d classes", data.root, data.kind, data.images,
      data.classes)
  end
  lines[#lines + 1] = string.format("scale %s: %dx%d %s images, %s, %d repeats%s", S.name, S.input, S.input,
    data and data.kind or "synthetic", M.protocol_text(S), S.repeats,
    S.budget_s and (", budget " .. text.duration_text(S.budget_s)) or "")
  return lines
end

-- --set with= and title=, checked before the study's database is opened (a usage error must leave
-- nothing behind; issue 56 item 1): the title not blank; each other database named once, an SQLite
-- database that can be read, and not the study's own (its runs would count twice). Ends the
-- program with exit 2 on a bad one.
local function check_report_options(P)
  if P.title ~= nil and not P.title:find("%S") then
    fail("--set title= is blank: give the report's title, or leave title= out for the default")
  end
  if P.with == nil then return end
  local paths, why = options.split_list(P.with)
  if why then fail("--set with= " .. why) end
  local own, seen = P.db or ("results/" .. tostring(P.name) .. ".db"), {}
  for _, path in ipairs(paths) do
    if seen[path] then fail(string.format("--set with=: '%s' is listed twice", path)) end
    seen[path] = true
  end
  for _, path in ipairs(paths) do
    local ok, conn = pcall(rlx.db.open, path, {readonly = true})
    if not ok then
      fail(string.format("--set with=%s: %s; name another machine's study database (e.g. results/p1-roofline.db " ..
        "copied from it)", path, rlx.errors.message(rlx.errors.pass_exits(conn))))
    end
    -- The study the report will read from it (rlx.report's rule), checked now rather than after
    -- the whole study has run: a database with no study, or several and none named as this one.
    -- The report's advice is rlx report's flags; here the study's name is the --set.
    local function refuse(message, kind, cause)
      if kind == "several" then
        message = cause .. ": run this study under one of those names (--set name=NAME), or report them with " ..
          "rlx report DB OTHER.db --all-studies"
      end
      error(message, 0)
    end
    local picked, err = pcall(rlx.report._pick_study, conn, path, P.name, refuse)
    pcall(conn.close, conn)
    if not picked then fail(string.format("--set with=%s: %s", path, rlx.errors.message(rlx.errors.pass_exits(err)))) end
    if rlx.fs.same_file(path, own) then
      fail(string.format("--set with=%s is this study's own database (%s): name the other machines' databases " ..
        "only", path, own))
    end
  end
end

--- The study a script runs, from its parameters (rlx.params.declare(rlx.experiment.PARAMS)) and
--- the folder of its matrix and environment scripts (default "experiments"): the scale with its
--- overrides (exit 2 on a bad one), the data (a bad data= exits 2 before anything is opened),
--- the study opened (rlx.study; a refused option exits 2) and described on stdout.
function M.open(P, dir)
  errors.expect("rlx.experiment.open", P, "table", "the parameters (rlx.params.declare's)")
  dir = dir or "experiments"
  local matrix = run_file(dir .. "/matrix.lua", "the study's matrix")
  local S = M.scale(matrix, P)
  local ok, data = pcall(function() return P.data and rlx.train.dataset(P.data) end)
  if not ok then fail("--set data=: " .. rlx.errors.text(rlx.errors.pass_exits(data))) end
  check_report_options(P)
  local study = M.open_study{name = P.name, db = P.db, label = P.label, zone = P.zone,
    instance_type = P.instance, price_per_hour = P.price_per_hour}
  for _, line in ipairs(header_lines(study, data, S)) do print(line) end
  return setmetatable({study = study, scale = S, summary = {}, options = {dir = dir, matrix = matrix, scale = S,
    devices = P.devices, retry_crashed = P.retry_crashed, data = P.data, memory_format = P.memory_format,
    figures = P.figures, started = S.started, with = P.with, title = P.title}}, Experiment)
end

--- The environments to sweep, one per device (its environment script's lists), after the plan:
--- calibrated on this machine, costed against the budget, printed and stored (M.plan). The
--- figures folder is checked then, before anything is measured.
function Experiment:environments()
  local p = rawget(self, "plan")
  if not p then
    p = M.plan(self.study, self.options)
    rawset(self, "plan", p)
    M.check_outputs(self.options)
  end
  return p.devices
end

--- Sweeps one environment (one of x:environments()): its peaks once, then the matrix with its
--- lists, within what is left of the budget.
function Experiment:sweep(env)
  local devices = self:environments()
  for i, d in ipairs(devices) do
    if d == env then
      self.summary[#self.summary + 1] = sweep_device(self.study, self.plan, i, self.options)
      return self.summary[#self.summary].stats
    end
  end
  errors.raise("experiment:sweep", "expected one of experiment:environments(), got " .. type(env))
end

-- Once, after the sweeps: the plan's estimate and what was left out in the end.
function Experiment:_after_sweeps()
  if rawget(self, "swept") then return end
  rawset(self, "swept", true)
  after_sweeps(self.summary, self.plan or {}, self.scale)
end

--- The study's figures in the figures folder (nothing in a dry run).
function Experiment:figures()
  self:_after_sweeps()
  if not (rlx.flags and rlx.flags.dry_run) then draw(self.study, self.options.figures, self.scale) end
end

--- The summary line, the report beside the figures and the study's last line; closes the study.
--- Ends the program (exit 1) when other processes still held some of its runs (M.check_complete).
--- opts: more options of study:report (its dir and figures are the experiment's).
function Experiment:report(opts)
  self:_after_sweeps()
  if not (rlx.flags and rlx.flags.dry_run) then
    -- --set with= and title= are the report's defaults; a script's own options win.
    local o = {with = self.options.with, title = self.options.title}
    for k, v in pairs(opts or {}) do o[k] = v end
    write_report(self.study, self.options.figures, self.scale, o)
  end
  print(M.done_line(self.scale, self.summary))
  self.study:close()
  M.check_complete(self.summary)
end

return M
