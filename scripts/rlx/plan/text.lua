-- rlx.plan.text: the words of the study's plan (scripts/rlx/plan/ owns planning): durations as
-- people type and read them, the plan's lines before the first run, what was left out and the
-- command that adds it.
local errors = require("rlx.errors")
local M = {}

--- "30m", "1.5h", "90s", "1800" (seconds) -> seconds; "none", "0" and nil -> nil (no budget). Raises for
--- anything else, naming the forms.
function M.parse_duration(text, fname)
  if text == nil then return nil end
  if type(text) == "number" then return text > 0 and text or nil end
  local s = tostring(text):lower():gsub("%s", "")
  if s == "none" or s == "0" or s == "" then return nil end
  local n, unit = s:match("^(%d+%.?%d*)([smh]?)$")
  if not n then
    errors.raise(fname or "rlx.budget.parse_duration", string.format("a duration is a number with s, m or h " ..
      "(e.g. 30m, 1.5h, 900s) or none, got '%s'", tostring(text)))
  end
  return tonumber(n) * ({s = 1, m = 60, h = 3600})[unit == "" and "s" or unit]
end

--- 95 -> "1.6 min", 4000 -> "1.1 h", 30 -> "30 s", 0.42 -> "0.4 s".
function M.duration_text(s)
  if s >= 3600 then return string.format("%.1f h", s / 3600) end
  if s >= 60 then return string.format("%.1f min", s / 60) end
  return string.format(s < 10 and "%.1f s" or "%.0f s", s)
end
local duration_text = M.duration_text

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

--- "27 runs, ~14.2 min: a, b, c, d, e, f and 21 more": what was left out, the first few by name
--- (every label is in the plan's detail, conn:plans).
function M.left_out(labels, need_s)
  local shown = {}
  for i = 1, math.min(#labels, 6) do shown[i] = labels[i] end
  return string.format("%d run%s, ~%s: %s%s", #labels, #labels == 1 and "" or "s", duration_text(need_s),
    table.concat(shown, ", "), #labels > #shown and string.format(" and %d more", #labels - #shown) or "")
end

--- What a dry run has not calibrated: "3 models", or "3 models in 2 precisions (6 probes)" where
--- a probe is one model in one precision (a CPU with native bf16 probes fp32 and bf16).
function M.uncalibrated(devs)
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

-- A rate with three significant digits: 1520, 27.3, 0.588.
local function rate(x)
  if not (type(x) == "number" and x > 0 and x < math.huge) then return "?" end
  return string.format("%." .. math.max(0, 2 - math.floor(math.log10(x))) .. "f", x)
end

--- The line after each run, for a log (`> log 2>&1`) as much as a terminal: "[3/27] LABEL: 27.3
--- images/s, CI ±1.6 % (target ±2 %), 12 iterations, 1.4 min; study 12.3 min in, ~27.1 min left"
--- (r: rlx.train's result; elapsed_s: since the study started; left_s: its estimate of the rest,
--- nil when unknown). A failed run: "[3/27] LABEL: failed after 12 s; ...".
function M.run_line(counter, label, r, wall_s, elapsed_s, left_s)
  local what
  if type(r) == "table" and r.ok then
    local parts = {rate(r.images_per_s) .. " images/s"}
    if type(r.ci_rel) == "number" and r.ci_rel == r.ci_rel and r.ci_rel < math.huge then
      parts[#parts + 1] = string.format("CI ±%.1f %%%s", r.ci_rel * 100, type(r.target_ci) == "number" and
        string.format(" (target ±%g %%)", r.target_ci * 100) or "")
    end
    local n = tonumber(r.iters) or (type(r.samples) == "table" and #r.samples) or nil
    if n then parts[#parts + 1] = string.format("%d iteration%s", n, n == 1 and "" or "s") end
    parts[#parts + 1] = duration_text(wall_s)
    what = table.concat(parts, ", ")
  else
    what = "failed after " .. duration_text(wall_s)
  end
  return string.format("%s %s: %s; study %s in%s", counter, label, what, duration_text(elapsed_s),
    left_s and string.format(", ~%s left", duration_text(left_s)) or "")
end

--- The budget note when the scale's budget was raised (rlx.plan.study's raise): p.raised =
--- {from_s, to_s, need_s, want_s, ceiling_s, min_repeats}.
function M.raised(r)
  return string.format("budget raised from %s to %s so that every configuration gets %d steady runs within its " ..
    "precision (%s of runs at the least protocol here, %s with the rest of the study and the rerun reserve%s); " ..
    "--set budget= keeps it as given", duration_text(r.from_s), duration_text(r.to_s), r.min_repeats,
    duration_text(r.need_s), duration_text(r.want_s),
    r.want_s > r.ceiling_s and string.format(", more than the ceiling of %s: runs get fewer timed iterations, " ..
      "or are left out, to fit", duration_text(r.ceiling_s)) or "")
end

--- The note of a CPU device whose precisions beyond its first were left out for the budget.
function M.dropped(dropped, kept, S, before_s, after_s)
  return string.format("%s left out to fit the budget of %s (with %s the study needs at least %s; %s without); " ..
    "--set budget= or --set precision=%s measures it", table.concat(dropped, ", "), duration_text(S.budget_s),
    table.concat(dropped, ", "), duration_text(before_s), duration_text(after_s), table.concat(kept, ","))
end

--- The note of a precision kept at one batch per model to fit the budget (issue 55): "bf16 kept at
--- batch 16 only: one fp32/bf16 pair per model (resnet50, vgg16, mobilenet_v2) answers question 2 on
--- this CPU's native bf16; its other batches are left out to fit the budget of 30.0 min (...)".
function M.paired(precision, batch, models, S, before_s, after_s)
  return string.format("%s kept at batch %d only: one fp32/%s pair per model (%s) answers how precision moves " ..
    "intensity and throughput (question 2) on this CPU's native %s, before any run gets a third repeat; its other " ..
    "batches are left out to fit the budget of %s (with them the study needs at least %s; %s without)", precision,
    batch, precision, table.concat(type(models) == "table" and models or {tostring(models)}, ", "), precision,
    duration_text(S.budget_s), duration_text(before_s), duration_text(after_s))
end

--- The plan's lines before the first run (rlx.plan.study's plan p): the devices' notes, the
--- budget raise, the one estimate, the spread assumed, what a dry run did not calibrate and what
--- was left out with the command that adds it.
function M.plan_lines(p)
  local lines = {}
  local function add(fmt, ...) lines[#lines + 1] = string.format(fmt, ...) end
  for _, d in ipairs(p.devices) do
    for _, note in ipairs(d.notes) do add("%s: %s", d.id, note) end
  end
  if p.detail.budget_note then add("plan: %s", p.detail.budget_note) end
  local parts = string.format("calibration %s, peaks %s, runs %s, figures and report %s",
    duration_text(p.detail.calibration_s), duration_text(p.detail.peaks_s), duration_text(p.detail.runs_s),
    duration_text(p.detail.finish_s))
  add("plan: %d runs%s%s; estimated %s in all (%s)%s", p.planned,
    p.left_out > 0 and string.format(" (%d left out for the budget)", p.left_out) or "",
    p.unknown > 0 and string.format(", %d without an estimate", p.unknown) or "", duration_text(p.estimate_s), parts,
    p.budget_s and string.format("; budget %s", duration_text(p.budget_s)) or "")
  for _, d in ipairs(p.devices) do
    if d.cv_text then add("plan: %s at %s", d.id, d.cv_text) end
  end
  if p.uncalibrated > 0 then
    add("plan: a dry run calibrates nothing: %s not yet calibrated here %s estimated from priors measured on " ..
      "another CPU; the run probes %s first (the calibration above) and plans again from this machine",
      M.uncalibrated(p.devices), p.uncalibrated == 1 and "is" or "are", p.uncalibrated == 1 and "it" or "them")
  end
  if p.short and p.short.min_repeats == 1 then
    add("plan: the budget cannot hold one run of every configuration (the first runs left out need ~%s): the first runs " ..
      "that fit are kept in the matrix's order, a later, cheaper one where a costly one did not fit, and the rest " ..
      "are left out whole", duration_text(p.short.need_s))
  elseif p.short then
    add("plan: the budget cannot hold %d runs of every configuration (the runs beyond the first need ~%s, ~%s is " ..
      "left after one of each): every configuration runs once, then the cheapest go on to %d repeats first%s",
      p.short.min_repeats, duration_text(p.short.need_s), duration_text(math.max(0, p.short.left_s)), p.repeats,
      p.accept_ci and string.format("; a run is kept at ±%g %% before any gets more iterations", p.accept_ci * 100)
        or "")
  end
  if p.left_out > 0 then
    local order = p.short and "every configuration once, then the cheapest" or
      string.format("every configuration once, then %d of each, then the cheapest", p.min_repeats or 2)
    if p.short and p.short.min_repeats == 1 then order = "the first runs in the matrix's order, then the cheapest" end
    add("plan: left out, repeats first (%s to %d repeats): %s; to add them to this database: %s", order, p.repeats,
      M.left_out(p.detail.left_out, p.left_out_s), p.detail.add)
  end
  return lines
end

return M
