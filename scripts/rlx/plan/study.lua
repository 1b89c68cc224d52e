-- rlx.plan.study: the whole study's plan before its first run (rlx.experiment.plan calls it through
-- rlx.plan): calibrates every device's models on this machine (rlx.calibrate) and hands the
-- layouts to its sweep, measures the peaks before estimating, raises the scale's budget where the
-- matrix needs it, estimates every device's sweep against what is left (study:estimate), leaves out
-- the optional precisions, then whole runs, and says what was left out with the command that adds
-- it (rlx.plan.text). Also the budget of each device's sweep as the study goes.
local fit = require("rlx.plan.fit")
local text = require("rlx.plan.text")
local now_s = require("rlx.study._common").now_s
local planner_of = require("rlx.plan").of

local M = {}

-- Seconds the peaks take when they are not stored yet, counted only by a dry run (a real run
-- measures them before it plans, so the plan counts their real time: on a 2-core EPYC the full
-- set took 16-21 s against these 60, which alone put the 4-minute bar 25 % under its estimate),
-- and what the figures and the report take after the sweeps, kept out of the sweeps' share of
-- the budget: 1-3 s on that EPYC for 3 to 27 runs, so 10 s leaves room for a slower machine
-- without holding back a quarter-minute of a short budget (docs/benchmarks.md, issue 30).
M.PEAKS_S = {quick = 15, full = 60}
M.FINISH_S = 10

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

--- Whether an environment's CPU computes bf16 natively: its flags include avx512_bf16, amx_bf16 or
--- (Arm) bf16; elsewhere LibTorch emulates it, about 2x slower than fp32. rlx.experiment.native_bf16
--- is this function (the plan, the study and the report's analysis ask it).
function M.native_bf16(env)
  local flags = " " .. tostring(env.cpu_flags or "") .. " "
  for _, f in ipairs({"avx512_bf16", "amx_bf16", "bf16"}) do
    if flags:find(" " .. f .. " ", 1, true) then return true end
  end
  return false
end

local function native_bf16(study) return M.native_bf16(study.env or {}) end

--- When the whole matrix does not fit `left_s` seconds, every CPU device's precisions beyond its
--- first (bf16: the seed's CPU matrix is fp32) are left out first, with a note saying so; what
--- still does not fit is then trimmed run by run (rlx.plan.fit.trim). On a CPU with native bf16
--- (issue 55, question 2 on a CPU) bf16 stays at one batch per model, the smallest of the sweep
--- (`precision_batch`): one fp32/bf16 pair per model, whose first run rlx.plan.fit.select keeps with
--- every configuration's first, before any third repeat. Returns the new minimum, total,
--- unestimated count and left-out seconds.
function M.drop_optional(study, devs, S, left)
  local before = 0
  for _, d in ipairs(devs) do before = before + (d.estimate.need_s or 0) + (d.estimate.left_out_s or 0) end
  local kept, paired = {}, {}
  for i, d in ipairs(devs) do
    kept[i] = d.sweep.precision
    if d.kind == "cpu" and #d.sweep.precision > 1 then
      local keep = {d.sweep.precision[1]}
      if native_bf16(study) and d.sweep.precision[1] ~= "bf16" then
        for _, p in ipairs(d.sweep.precision) do
          if p == "bf16" then
            local smallest = math.huge
            for _, b in ipairs(d.sweep.batch) do smallest = math.min(smallest, b) end
            keep[2], paired[i] = "bf16", smallest
            d.sweep.precision_batch = {bf16 = {smallest}}
          end
        end
      end
      d.sweep.precision = keep
    end
  end
  local need, total, unknown, out_s = cost(study, devs, S, left)
  for i, d in ipairs(devs) do
    if paired[i] then
      d.notes[#d.notes + 1] = text.paired("bf16", paired[i], d.sweep.models, S, before, need + out_s)
    end
    if #kept[i] > #d.sweep.precision then
      local dropped, is_kept = {}, {}
      for _, p in ipairs(d.sweep.precision) do is_kept[p] = true end
      for j = 2, #kept[i] do if not is_kept[kept[i][j]] then dropped[#dropped + 1] = kept[i][j] end end
      d.notes[#d.notes + 1] = text.dropped(dropped, kept[i], S, before, need + out_s)
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
  local want = overhead_s + need / (1 - fit.RERUN_RESERVE)
  if want <= S.budget_s then return nil end
  local from = S.budget_s
  S.budget_s = math.min(want, S.budget_max_s)
  return text.raised{from_s = from, to_s = S.budget_s, need_s = need, want_s = want, ceiling_s = S.budget_max_s,
    min_repeats = S.min_repeats}
end

--- The budget that adds `left_out_s` seconds of runs (their minimum, with the slack of the sweep's
--- rerun reserve) and draws the figures and report again.
function M.budget_for(left_out_s)
  return left_out_s / (1 - fit.RERUN_RESERVE) + M.FINISH_S
end

-- The labels of the items the plan left out, in order.
local function left_out_labels(devs)
  local labels = {}
  for _, d in ipairs(devs) do
    for _, it in ipairs(d.estimate.left_out or {}) do labels[#labels + 1] = it.label end
  end
  return labels
end

--- The plan of the devices `devs` (rlx.experiment's: {id, kind, sweep, notes, ...}) for scale S:
--- calibrates, measures the peaks not stored (not in a dry run), raises the budget where the scale
--- allows, estimates every sweep against what is left and leaves out what does not fit. o:
--- {started (the study's start on rlx's clock), matrix}. Returns {devices, estimate_s, need_s,
--- left_s, fits, left_out_s, detail, probe_s, planned, left_out, unknown, uncalibrated,
--- budget_s, lines (rlx.plan.text.plan_lines)}.
function M.make(study, devs, S, o)
  local dry = rlx.flags and rlx.flags.dry_run
  local planner = planner_of(study)
  local calib_s = calibrate(study, devs, S, o.matrix)
  -- A dry run probes nothing: the time the run's probe would take is counted, from the priors.
  local probe_s, uncalibrated = 0, 0
  for _, d in ipairs(devs) do
    local est = planner:estimator(d.kind)
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
  local spent = now_s() - o.started + probe_s
  local raised = M.raise_budget(study, devs, S, spent + peaks_s + M.FINISH_S)
  local left = S.budget_s and (S.budget_s - spent - M.FINISH_S - peaks_s)
  local need, total, unknown, out_s = cost(study, devs, S, left)
  if left and out_s > 0 and not S.precision then need, total, unknown, out_s = M.drop_optional(study, devs, S, left) end
  local n_run, n_out = 0, 0
  for _, d in ipairs(devs) do
    n_run, n_out = n_run + d.estimate.to_run, n_out + #(d.estimate.left_out or {})
    if S.target_ci then d.cv_text = planner:estimator(d.kind):cv_text() end
  end
  local estimate_s = spent + peaks_s + total + M.FINISH_S
  local detail = {calibration_s = calib_s, peaks_s = peaks_s + measured_peaks_s, runs_s = total,
    finish_s = M.FINISH_S, budget_note = raised}
  if n_out > 0 then
    detail.left_out = left_out_labels(devs)
    detail.add = text.rerun_command(M.budget_for(out_s))
  end
  local p = {devices = devs, estimate_s = estimate_s, need_s = need, left_s = left, fits = n_out == 0,
    left_out_s = out_s, detail = detail, probe_s = probe_s, planned = n_run, left_out = n_out, unknown = unknown,
    uncalibrated = uncalibrated, budget_s = S.budget_s, repeats = 1, accept_ci = S.accept_ci}
  -- Said before the first run: the budget holds fewer than min_repeats of every configuration.
  for _, d in ipairs(devs) do
    p.repeats = math.max(p.repeats, d.sweep.repeats or 1)
    p.min_repeats = p.min_repeats or d.sweep.min_repeats
    p.short = p.short or d.estimate.short
  end
  detail.short = p.short
  p.lines = text.plan_lines(p)
  return p
end

--- What the study does after device i's sweep, for the time left its runs' lines state: the later
--- devices' runs as planned and the figures and report.
function M.after_s(p, i)
  local s = M.FINISH_S
  for j = i + 1, #p.devices do s = s + (p.devices[j].estimate.total_s or 0) end
  return s
end

--- The budget of device i's sweep now: what is left of the study's budget less the figures and
--- report and what the later devices need at least. A dry run measures no peaks and probes
--- nothing: it leaves their time out as the run would spend it (the plan's estimates of both), so
--- the sweep keeps the runs the plan kept.
function M.device_budget(study, p, i, S, started)
  local dry = rlx.flags and rlx.flags.dry_run
  local later = 0
  for j = i + 1, #p.devices do later = later + (p.devices[j].estimate.need_s or 0) end
  local d = p.devices[i]
  local peaks_s = dry and not study:peaks(d.kind) and M.PEAKS_S[S.peaks_quick and "quick" or "full"] or 0
  local probe_s = dry and p.probe_s or 0
  return math.max(0, S.budget_s - (now_s() - started) - M.FINISH_S - later - peaks_s - probe_s)
end

return M
