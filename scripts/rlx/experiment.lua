-- rlx.experiment: the machinery of a study script, so experiments/all.lua reads as the study.
--
--   scale(matrix, params): the scale's settings (matrix.scale[params.scale]) with the --set
--     overrides applied: warmup= (a count or auto), iters= (a fixed count: drops the precision
--     target), target_ci= (a precision target: drops the fixed count), min_iters=, max_iters=,
--     input=, repeats=, budget= (30m, 1.5h, none), models=, batch=, precision= (comma lists) and
--     counters=false.
--   pick(dir, kind, labels): the environment script for a device: DIR/<label>.lua for the first of
--     `labels` (environment label, GPU hardware label, device kind) that exists and is for `kind`.
--   plan(study, opts): what every device will sweep (its environment script, batch sizes and
--     precisions: bf16 on a CPU only where it is native, see native_bf16), calibrated on this
--     machine first (rlx.calibrate: each model's memory layout and seconds per image), and what
--     it costs (rlx.budget) against the scale's time budget. A budget is a plan to keep, never a
--     gate: what does not fit at the quality protocol is left out whole, breadth first (every
--     configuration's first repeat before any second one), and named with the command that adds
--     it. Prints one estimate and stores the plan (the plans table).
--   run(study, opts): plan, then for every device measures the peaks once per environment
--     (study:ensure_peaks) and sweeps the shared matrix within what is left of the budget.
--   finish(study, opts): figures, summary and report (nothing in a dry run).
--   open_study(opts): rlx.study with its refusals as one line (exit 2) instead of a traceback.
--   check_complete(summary): exit 1 naming the runs other processes still train (run's summary).
--
-- An environment script (experiments/cpu.lua, rtx4090.lua, ...) returns plain data:
--   {kind = "cuda", batch = {64, 128, 256}, precision = {"fp32", "amp"}, counters = true}
-- so adding an environment is copying one file to experiments/<label>.lua (docs/study.md).
local options = require("rlx.options")
local budget = require("rlx.budget")

local M = {}

local RUN_SPEC = {
  dir = {type = "string", required = true},
  matrix = {type = "table", required = true},
  scale = {type = "table", required = true},
  devices = {type = "string"},
  retry_crashed = {type = "boolean", default = false},
  list = {type = "table"},
  data = {type = "string"},
  memory_format = {type = "string", one_of = {"auto", "channels_last", "contiguous"}, default = "auto"},
  started = {type = "number"},
  figures = {type = "string", default = "figures"},
}
local FINISH_SPEC = {figures = {type = "string", default = "figures"}, scale = {type = "table", required = true}}

--- The parameters of a study script (experiments/all.lua declares them: rlx.params.declare), as
--- data: `--set KEY=VALUE` for each, with its type, default and help (`rlx run SCRIPT --help`).
M.PARAMS = {
  scale = {one_of = {"smoke", "default", "full"}, default = "default", help = "fidelity against time (matrix.lua)"},
  budget = {help = "study time budget, e.g. 30m, 1.5h or none (default: the scale's)"},
  target_ci = {type = "number", help = "time each run until the 95 % CI is within ±this fraction (e.g. 0.02)"},
  warmup = {help = "warm-up iterations, or auto: until steady (overrides the scale)"},
  iters = {type = "integer", min = 1, help = "a fixed count of measured iterations (instead of target_ci)"},
  min_iters = {type = "integer", min = 2, help = "with target_ci: timed iterations before judging"},
  max_iters = {type = "integer", min = 1, help = "with target_ci: at most this many timed iterations"},
  input = {type = "integer", min = 1, help = "image side in pixels (overrides the scale)"},
  repeats = {type = "integer", min = 1, help = "repeats per configuration (overrides the scale)"},
  models = {help = "comma list of models (default: matrix.lua's)"},
  batch = {help = "comma list of batch sizes (default: the environment script's)"},
  precision = {help = "comma list, e.g. fp32,bf16 (default: the environment script's; bf16 on CPUs with it)"},
  counters = {type = "boolean", default = true, help = "hardware counters on CUDA"},
  memory_format = {one_of = {"auto", "channels_last", "contiguous"}, default = "auto",
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
}

-- Seconds the peaks take when they are not stored yet, counted only by a dry run (a real run
-- measures them before it plans, so the plan counts their real time: on a 2-core EPYC the full
-- set took 16-21 s against these 60, which alone put the 4-minute bar 25 % under its estimate),
-- and what the figures and the report take after the sweeps, kept out of the sweeps' share of
-- the budget: 1-3 s on that EPYC for 3 to 27 runs, so 10 s leaves room for a slower machine
-- without holding back a quarter-minute of a short budget (docs/benchmarks.md, issue 30).
M.PEAKS_S = {quick = 15, full = 60}
M.FINISH_S = 10

local now_s = require("rlx._study_common").now_s

local function fail(msg) rlx.fail(2, "experiments/all.lua: " .. msg) end

-- The precisions rlx.train takes (engine/train/config.cpp).
M.PRECISIONS = {"fp32", "amp", "bf16"}

-- A --set comma list checked item by item against `valid` (a typo would plan runs that all fail,
-- or none at all; issue 35 item 2): an unknown or repeated item ends the program (exit 2).
local function list_of(text, what, valid)
  if text == nil then return nil end
  local out, why = options.split_list(text)
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
local function budget_of(text, default)
  if text == nil then text = default end
  if text == nil then return nil end
  local s = tostring(text):lower():gsub("%s", "")
  if s:match("^[%d.]+$") and tonumber(s) ~= 0 then
    fail(string.format("--set budget=%s needs a unit: %ss, %sm or %sh (or none for no budget)", text, s, s, s))
  end
  local ok, b = pcall(budget.parse_duration, text)
  if not ok then fail("--set budget=: " .. rlx.errors.message(b)) end
  if b == nil and s ~= "none" then
    fail(string.format("--set budget=%s leaves no time for any run: give a positive duration such as 30m, or none " ..
      "for no budget", text))
  end
  return b
end

-- --set devices=: the device kinds to run (nil: all); an unknown one ends the program (exit 2)
-- before anything is opened (M.scale checks it first).
local function wanted_kinds(devices)
  if not devices then return nil end
  local wanted, valid = {}, {cpu = true, cuda = true}
  for k in tostring(devices):gmatch("[^,]+") do
    if not valid[k] then fail(string.format("--set devices= takes cpu and/or cuda (e.g. cpu,cuda), got '%s'", k)) end
    wanted[k] = true
  end
  return wanted
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
    S.min_iters, S.max_iters, S.warmup = S.min_iters or 5, S.max_iters or 100, S.warmup or "auto"
  end
  if P.warmup ~= nil then
    local w = P.warmup == "auto" and "auto" or tonumber(P.warmup)
    if w ~= "auto" and (not w or w < 0 or w ~= math.floor(w)) then
      fail(string.format("--set warmup= must be a whole number >= 0 or auto, got '%s'", tostring(P.warmup)))
    end
    S.warmup = w
  end
  for _, k in ipairs({"min_iters", "max_iters"}) do
    if P[k] ~= nil then
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
  S.budget_s = budget_of(P.budget, S.budget)
  -- The scale's budget may grow up to budget_max so that every configuration gets min_repeats
  -- kept runs (M.plan); a budget given with --set is kept as given.
  if P.budget ~= nil then S.budget_max, S.min_repeats = nil, nil end
  S.budget_max_s = S.budget_max and budget.parse_duration(S.budget_max) or nil
  S.models, S.precision = list_of(P.models, "models", rlx.model.list()), list_of(P.precision, "precision",
    M.PRECISIONS)
  if P.batch then
    local v, why = options._from_text({type = "int_list", min = 1}, P.batch)
    if why then fail("--set batch= " .. why) end
    S.batch = v
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

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end

--- The environment script for a device of `kind`: the first DIR/<label>.lua among `labels` (nils
--- skipped) whose table says kind = `kind`. Returns its path, name and table, or nil.
function M.pick(dir, kind, labels)
  for i = 1, #labels + 1 do
    local name = labels[i]
    if i > #labels then name = kind end
    local path = name and (dir .. "/" .. name .. ".lua")
    if path and exists(path) then
      local ok, env = pcall(dofile, path)
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

--- Whether the CPU of an environment computes bf16 natively: AVX-512 BF16 or AMX (x86), or the
--- bf16 feature (Arm). Elsewhere LibTorch emulates it, about 2x slower than fp32.
function M.native_bf16(env)
  local flags = " " .. tostring(env.cpu_flags or "") .. " "
  for _, f in ipairs({"avx512_bf16", "amx_bf16", "bf16"}) do
    if flags:find(" " .. f .. " ", 1, true) then return true end
  end
  return false
end

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
    retry_crashed = o.retry_crashed, data = o.data,
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

-- Calibrates every device (rlx.calibrate): the families (model, precision, input) it sweeps, each
-- at its smallest batch. Returns the seconds spent probing.
local function calibrate(study, devs, S, mx)
  local spent = 0
  for _, d in ipairs(devs) do
    local families, seen = {}, {}
    local smallest = math.huge
    for _, b in ipairs(d.sweep.batch) do smallest = math.min(smallest, b) end
    for _, model in ipairs(d.sweep.models) do
      for _, precision in ipairs(d.sweep.precision) do
        local key = rlx.calibrate.key(model, precision, S.input)
        if not seen[key] then
          seen[key] = true
          families[#families + 1] = {model = model, precision = precision, input = S.input, batch = smallest}
        end
      end
    end
    local cals, s, missing = rlx.calibrate.ensure(study, d.id, families, {classes = mx.classes, lr = mx.lr})
    d.calibration, d.uncalibrated, spent = cals, missing, spent + s
    if d.sweep.memory_format == nil then d.sweep.calibration = cals end
  end
  return spent
end

-- Seconds of every device's kept runs (at the iterations they are expected to stop at), of their
-- minimum, and of what the budget leaves out, given `left` seconds (nil: no budget).
local function cost(study, devs, S, left)
  local need, total, unknown, out_s = 0, 0, 0, 0
  for _, d in ipairs(devs) do
    local opts = {}
    for k, v in pairs(d.sweep) do opts[k] = v end
    opts.notes = nil
    opts.budget_s = S.target_ci and left and math.max(0, left) or nil
    local e = study:estimate(opts)
    d.estimate = e
    need = need + (e.need_s or e.total_s)
    total, unknown, out_s = total + e.total_s, unknown + e.unestimated, out_s + (e.left_out_s or 0)
  end
  return need, total, unknown, out_s
end

--- When the whole matrix does not fit `left_s` seconds, every CPU device's precisions beyond its
--- first (bf16: the seed's CPU matrix is fp32) are left out first, with a note saying so; what
--- still does not fit is then trimmed run by run (rlx.budget.trim). Returns the new minimum,
--- total, unestimated count and left-out seconds.
function M.drop_optional(study, devs, S, left)
  local before = 0
  for _, d in ipairs(devs) do before = before + (d.estimate.need_s or 0) + (d.estimate.left_out_s or 0) end
  local kept = {}
  for i, d in ipairs(devs) do
    kept[i] = d.sweep.precision
    if d.kind == "cpu" and #d.sweep.precision > 1 then d.sweep.precision = {d.sweep.precision[1]} end
  end
  local need, total, unknown, out_s = cost(study, devs, S, left)
  for i, d in ipairs(devs) do
    if #kept[i] > #d.sweep.precision then
      local dropped = {}
      for j = 2, #kept[i] do dropped[#dropped + 1] = kept[i][j] end
      d.notes[#d.notes + 1] = string.format("%s left out to fit the budget of %s (with %s the study needs at least " ..
        "%s; %s without); --set budget= or --set precision=%s measures it", table.concat(dropped, ", "),
        budget.duration_text(S.budget_s), table.concat(dropped, ", "), budget.duration_text(before),
        budget.duration_text(need + out_s), table.concat(kept[i], ","))
    end
  end
  return need, total, unknown, out_s
end

--- The scale's budget raised so that every configuration gets S.min_repeats runs kept at the quality
--- protocol (two runs are the least a configuration needs for a CI across repeats), up to
--- S.budget_max_s: on a machine where the seed's matrix at two repeats needs 34 minutes, the
--- default budget of 30 grows to 34; where it needs an hour, to 45, and the plan leaves out what
--- does not fit. `overhead_s`: what the study spends beyond its runs. Returns a note saying so, or
--- nil when the budget stays (a budget given with --set always does).
function M.raise_budget(study, devs, S, overhead_s)
  if not (S.budget_s and S.budget_max_s and S.min_repeats and S.target_ci) then return nil end
  local need = 0
  for _, d in ipairs(devs) do
    local opts = {}
    for k, v in pairs(d.sweep) do opts[k] = v end
    opts.notes, opts.repeats, opts.budget_s = nil, math.min(S.min_repeats, d.sweep.repeats or S.min_repeats), math.huge
    need = need + (study:estimate(opts).need_s or 0)
  end
  local want = overhead_s + need / (1 - budget.RERUN_RESERVE)
  if want <= S.budget_s then return nil end
  local from = S.budget_s
  S.budget_s = math.min(want, S.budget_max_s)
  return string.format("budget raised from %s to %s so that every configuration gets %d steady runs within its " ..
    "precision (%s of runs at the least protocol here, %s with the rest of the study and the rerun reserve%s); " ..
    "--set budget= keeps it as given", budget.duration_text(from), budget.duration_text(S.budget_s), S.min_repeats,
    budget.duration_text(need), budget.duration_text(want),
    want > S.budget_max_s and string.format(", more than the ceiling of %s: the rest is left out",
      budget.duration_text(S.budget_max_s)) or "")
end

-- A shell word: as it is when plain, else in single quotes.
local function shell_word(w)
  w = tostring(w)
  if w:match("^[%w%._/,:=+%-]+$") then return w end
  return "'" .. w:gsub("'", "'\\''") .. "'"
end

--- The command that runs this study again with `budget` (seconds): the same script and --set
--- options, the budget replaced; stored runs are skipped, so it adds what this one left out.
function M.rerun_command(budget_s)
  local parts = {"rlx run", shell_word(arg and arg[0] or "experiments/all.lua")}
  local keys = {}
  for k in pairs(rlx.params_text or {}) do if k ~= "budget" then keys[#keys + 1] = k end end
  table.sort(keys)
  for _, k in ipairs(keys) do parts[#parts + 1] = "--set " .. shell_word(k .. "=" .. rlx.params_text[k]) end
  parts[#parts + 1] = "--set budget=" .. math.ceil(budget_s / 60) .. "m"
  return table.concat(parts, " ")
end

-- The budget that adds `left_out_s` seconds of runs (their minimum, with the slack of the sweep's
-- rerun reserve) and draws the figures and report again.
local function budget_for(left_out_s)
  return left_out_s / (1 - budget.RERUN_RESERVE) + M.FINISH_S
end

-- "27 runs, ~14.2 min: a, b, c, d, e, f and 21 more": what was left out, the first few by name
-- (every label is in the plan's detail, conn:plans).
local function left_out_text(labels, need_s)
  local shown = {}
  for i = 1, math.min(#labels, 6) do shown[i] = labels[i] end
  return string.format("%d run%s, ~%s: %s%s", #labels, #labels == 1 and "" or "s", budget.duration_text(need_s),
    table.concat(shown, ", "), #labels > #shown and string.format(" and %d more", #labels - #shown) or "")
end

-- The labels of the items the plan left out, in order.
local function left_out_labels(devs)
  local labels = {}
  for _, d in ipairs(devs) do
    for _, it in ipairs(d.estimate.left_out or {}) do labels[#labels + 1] = it.label end
  end
  return labels
end

-- What a dry run has not calibrated: "3 models", or "3 models in 2 precisions (6 probes)" where
-- a probe is one model in one precision (a CPU with native bf16 probes fp32 and bf16).
local function uncalibrated_text(devs)
  local models, seen_precisions, n_models, n_precisions, n = {}, {}, 0, 0, 0
  for _, d in ipairs(devs) do
    for _, f in ipairs(d.uncalibrated) do
      n = n + 1
      if not models[f.model] then models[f.model], n_models = true, n_models + 1 end
      if not seen_precisions[f.precision] then seen_precisions[f.precision], n_precisions = true, n_precisions + 1 end
    end
  end
  local text = string.format("%d model%s", n_models, n_models == 1 and "" or "s")
  if n_precisions <= 1 then return text end
  return string.format("%s in %d precisions (%d probes)", text, n_precisions, n)
end

--- The devices to sweep and their cost against the budget, after calibrating each on this machine;
--- prints the plan and stores it (study.db:put_plan).
function M.plan(study, opts)
  local o = options.check("rlx.experiment.plan", opts, RUN_SPEC)
  local S, dry = o.scale, rlx.flags and rlx.flags.dry_run
  local started = o.started or now_s()
  local devs = devices_plan(study, o)
  local calib_s = calibrate(study, devs, S, o.matrix)
  -- A dry run probes nothing: the time the run's probe would take is counted, from the priors.
  local probe_s, uncalibrated = 0, 0
  for _, d in ipairs(devs) do
    local est = study:_estimator(d.kind)
    uncalibrated = uncalibrated + #d.uncalibrated
    probe_s = probe_s + rlx.calibrate.probe_seconds(d.uncalibrated, function(f) return (est:step(f)) end)
  end
  calib_s = calib_s + probe_s
  -- The peaks are measured before the estimate, not assumed: the plan then counts their real time
  -- (measured_peaks_s) and the estimates use them. Only a dry run counts PEAKS_S.
  local measured_peaks_s, peaks_s = 0, 0
  for _, d in ipairs(devs) do
    if not study:peaks(d.kind) then
      local t0 = now_s()
      if not dry then study:ensure_peaks(d.kind, {quick = S.peaks_quick == true}) end
      measured_peaks_s = measured_peaks_s + now_s() - t0
      if not study:peaks(d.kind) then peaks_s = peaks_s + M.PEAKS_S[S.peaks_quick and "quick" or "full"] end
    end
  end
  local spent = now_s() - started + probe_s
  local raised = M.raise_budget(study, devs, S, spent + peaks_s + M.FINISH_S)
  local left = S.budget_s and (S.budget_s - spent - M.FINISH_S - peaks_s)
  local need, total, unknown, out_s = cost(study, devs, S, left)
  if left and out_s > 0 and not S.precision then need, total, unknown, out_s = M.drop_optional(study, devs, S, left) end
  for _, d in ipairs(devs) do
    for _, note in ipairs(d.notes) do print(d.id .. ": " .. note) end
  end
  local n_run, n_out = 0, 0
  for _, d in ipairs(devs) do n_run, n_out = n_run + d.estimate.to_run, n_out + #(d.estimate.left_out or {}) end
  if raised then print("plan: " .. raised) end
  local estimate_s = spent + peaks_s + total + M.FINISH_S
  local parts = string.format("calibration %s, peaks %s, runs %s, figures and report %s",
    budget.duration_text(calib_s), budget.duration_text(peaks_s + measured_peaks_s), budget.duration_text(total),
    budget.duration_text(M.FINISH_S))
  print(string.format("plan: %d runs%s%s; estimated %s in all (%s)%s", n_run,
    n_out > 0 and string.format(" (%d left out for the budget)", n_out) or "",
    unknown > 0 and string.format(", %d without an estimate", unknown) or "", budget.duration_text(estimate_s), parts,
    S.budget_s and string.format("; budget %s", budget.duration_text(S.budget_s)) or ""))
  for _, d in ipairs(devs) do
    if S.target_ci then print(string.format("plan: %s at %s", d.id, study:_estimator(d.kind):cv_text())) end
  end
  if uncalibrated > 0 then
    print(string.format("plan: a dry run calibrates nothing: %s not yet calibrated here %s estimated from " ..
      "priors measured on another CPU; the run probes %s first (the calibration above) and plans again from " ..
      "this machine", uncalibrated_text(devs), uncalibrated == 1 and "is" or "are", uncalibrated == 1 and "it" or "them"))
  end
  local detail = {calibration_s = calib_s, peaks_s = peaks_s + measured_peaks_s, runs_s = total,
    finish_s = M.FINISH_S, budget_note = raised}
  if n_out > 0 then
    detail.left_out = left_out_labels(devs)
    detail.add = M.rerun_command(budget_for(out_s))
    print(string.format("plan: left out, breadth first (every configuration's first repeat before any second): %s; " ..
      "to add them to this database: %s", left_out_text(detail.left_out, out_s), detail.add))
  end
  local out = {devices = devs, estimate_s = estimate_s, need_s = need, left_s = left, fits = n_out == 0,
    left_out_s = out_s, detail = detail, probe_s = probe_s}
  if not dry then
    out.plan_id = study.db:put_plan{study = study.name, environment_id = study.env_id, budget_s = S.budget_s,
      estimate_s = estimate_s, planned = n_run, left_out = n_out, detail = detail}
  end
  return out
end

--- Sweeps every device of the plan. opts: dir (the environment scripts' folder), matrix, scale
--- (M.scale's), devices (a comma list of kinds to keep, or nil), retry_crashed, list (stand-in
--- rlx.devices()), data (a dataset path for every run; nil: synthetic images), started (the
--- study's start on rlx's monotonic clock: the budget counts from it).
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
  if not ok then rlx.fail(1, who .. ": " .. require("rlx.errors").message(require("rlx.errors").pass_exits(err))) end
end

function M.run(study, opts)
  local o = options.check("rlx.experiment.run", opts, RUN_SPEC)
  o.started = o.started or o.scale.started or now_s()
  -- The plan first: one refused (exit 2) leaves no figures folder behind (issue 35 item 3).
  local plan = M.plan(study, o)
  M.check_outputs(o)
  local dry, S, summary = rlx.flags and rlx.flags.dry_run, o.scale, {}
  for i, d in ipairs(plan.devices) do
    print(string.format("== %s: %s", d.id, d.name))
    study:ensure_peaks(d.kind, {quick = S.peaks_quick == true})
    print(string.format("batch sizes and precisions from experiments/%s.lua", d.script))
    local sweep = d.sweep
    sweep.notes = #d.notes > 0 and d.notes or nil
    if S.budget_s then
      -- What is left now, less what the later devices need at least.
      local later = 0
      for j = i + 1, #plan.devices do later = later + (plan.devices[j].estimate.need_s or 0) end
      -- A dry run measures no peaks and probes nothing: it leaves their time out as the run would
      -- spend it (the plan's estimates of both), so the sweep keeps the runs the plan kept.
      local peaks_s = dry and not study:peaks(d.kind) and M.PEAKS_S[S.peaks_quick and "quick" or "full"] or 0
      local probe_s = dry and plan.probe_s or 0
      sweep.budget_s = math.max(0, S.budget_s - (now_s() - o.started) - M.FINISH_S - later - peaks_s - probe_s)
    end
    local stats = study:sweep(sweep)
    if type(stats) == "table" and stats.planned and not dry then
      print(string.format("%s: %d planned, %d ran (%d ok, %d failed%s), %d already done%s", d.id, stats.planned,
        stats.ran or 0, stats.ok or 0, stats.failed or 0,
        (stats.reruns or 0) > 0 and string.format(", %d reruns of unsteady, contended or imprecise runs",
          stats.reruns) or "", stats.skipped or 0,
        #(stats.left_out or {}) > 0 and string.format(", %d left out for the budget", #stats.left_out) or ""))
    end
    summary[#summary + 1] = {device = d.id, script = d.path, stats = stats}
  end
  summary.estimate_s = plan.estimate_s
  S.estimate_s, S.plan_id, S.plan_detail = plan.estimate_s, plan.plan_id, plan.detail
  if not dry then M.left_out_after(summary, S) end
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
    detail.left_out, detail.add = labels, M.rerun_command(budget_for(need))
    print(string.format("left out for the budget: %s; to add them to this database: %s", left_out_text(labels, need),
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
  rlx.fail(1, require("rlx.show").printable(string.format("experiments/all.lua: the study is incomplete: %d run(s) " ..
    "were still being trained by other processes when it ended: %s; the figures and report leave them out: run " ..
    "the same command again once those processes have finished", #left, table.concat(left, "; "))))
end

--- The study's last line: its wall time against the plan's one estimate, made before the first
--- run ("done in 27.1 min; the plan estimated 28.0 min (-3 %)"), or what a dry run did.
function M.done_line(S, summary)
  if rlx.flags and rlx.flags.dry_run then return "dry run: nothing trained, no figures drawn" end
  local wall, est = now_s() - S.started, S.estimate_s or (summary and summary.estimate_s) or 0
  return string.format("done in %s; the plan estimated %s%s", budget.duration_text(wall), budget.duration_text(est),
    est > 0 and string.format(" (%+.0f %%)", (wall / est - 1) * 100) or "")
end

--- Figures, the summary and the report (the report goes next to the figures folder, docs/report.md).
--- In a dry run it says so and does nothing. opts: figures (folder), scale (M.scale's).
function M.finish(study, opts)
  local o = options.check("rlx.experiment.finish", opts, FINISH_SPEC)
  if rlx.flags and rlx.flags.dry_run then return end
  local S, dir = o.scale, o.figures
  -- The figures state the input size and protocol themselves (read from the runs); the note names the preset.
  local note = S.name ~= "full" and ("scale " .. S.name) or nil
  local fig = study:figures{dir = dir, note = note}
  print(string.format("figures in %s/:", dir))
  for _, file in ipairs(fig.files) do print("  " .. file.path) end
  for _, w in ipairs(fig.warnings) do print("  (skipped) " .. w) end
  study:summary()
  -- The plan's wall time (to here: the figures drawn, the report not yet written) is recorded
  -- before the report, which states it against the estimate.
  if S.plan_id then study.db:finish_plan(S.plan_id, now_s() - S.started, S.plan_detail or {}) end
  print("report: " .. study:report{dir = dir:match("^(.*)/[^/]+$") or ".", figures = dir:match("[^/]+$"),
    quiet = true}.html)
end

return M
