-- rlx.plan: the one owner of a study's plan (docs/study.md "Time budget"): how long each run takes
-- here (rlx.plan.estimate, from the calibration and the runs stored), which runs a budget keeps and
-- their caps on timed iterations (rlx.plan.fit), the whole study's plan before its first run
-- (rlx.plan.study), and its words (rlx.plan.text). rlx.study and rlx.experiment plan through one
-- entry point, the study's planner: rlx.plan.of(study). The arithmetic (medians, t, CIs) is
-- rlx.stats's (engine/train/stats.cpp); rlx.budget is the public face of estimate and fit.
local errors = require("rlx.errors")
local estimate = require("rlx.plan.estimate")
local fit = require("rlx.plan.fit")
local train_options = require("rlx._train_options")
local kind_of = require("rlx.studydb.data").kind_of
local now_s = require("rlx.study._common").now_s

local M = {}
local Planner = {}
Planner.__index = Planner

--- The planner of a study object (one per object, made on first use): one estimator per device
--- kind, primed with the study's runs and calibrations in its environment.
function M.of(study)
  errors.expect("rlx.plan.of", study, "table", "a study (rlx.study)")
  local p = rawget(study, "_planner")
  if not p then
    p = setmetatable({study = study, estimators = {}}, Planner)
    rawset(study, "_planner", p)
  end
  return p
end

-- The most repeats a sweep plans: every repeat is one more run of each configuration, planned,
-- claimed and stored one by one (a dry run of 1e6 repeats took about 3 hours; issue 48 item 6).
M.MAX_REPEATS = 50
M.MAX_REPEATS_WHY = "every repeat is one more run of each configuration, planned and stored one by one; " ..
  "seed 001 asks for 3"

--- Whether a sweep's options time each run to a CI target.
function M.targeted(o) return o.target_ci ~= nil and o.target_ci > 0 end

--- The protocol the plan's arithmetic needs (caps, trim, expected iterations) from a sweep's
--- options; what the sweep leaves out is rlx.train's declared default (engine/train/options.cpp).
function M.protocol(o)
  return {min_iters = o.min_iters or train_options.default("min_iters"),
    max_iters = o.max_iters or train_options.default("max_iters"), accept_ci = o.accept_ci, target_ci = o.target_ci}
end
local targeted, protocol = M.targeted, M.protocol

-- fit.select over plan items (each with config, run and key): repeats first, up to o.repeats.
local function select_runs(est, todo, left_s, S, o)
  local configs, rounds, groups = {}, {}, {}
  for i, it in ipairs(todo) do configs[i], rounds[i], groups[i] = it.config, it.run, it.key end
  return fit.select(est, configs, left_s, S, rounds, groups, o.min_repeats)
end

-- Peaks for estimates when none are stored yet (a dry run before the study measured them): a
-- quick FMA and DRAM measurement on the CPU (about a second), a GPU's datasheet entry.
function Planner:_probe_peaks(kind)
  if kind == "cuda" then
    local ok, entry = pcall(rlx.peaks.datasheet, self.study.env.gpu_name or "")
    return ok and entry or nil
  end
  local ok, p = pcall(rlx.peaks.measure, {device = "cpu", quick = true, only = {"fp32", "dram"}, repeats = 3})
  errors.pass_exits(p)
  return ok and p or nil
end

--- The estimator of device kind `kind` (rlx.plan.estimate), made on first use.
function Planner:estimator(kind)
  if not self.estimators[kind] then
    self.estimators[kind] = estimate.estimator(self.study, kind, {probe = function() return self:_probe_peaks(kind) end})
  end
  return self.estimators[kind]
end

--- Peaks of `kind` were measured: the estimates use them from now on.
function Planner:forget(kind) self.estimators[kind] = nil end

--- A run finished (config as trained, rlx.train's result, its wall seconds): the estimates learn
--- from it.
function Planner:observe(config, result, wall_s)
  local est = self.estimators[kind_of(config.device)]
  if est and type(result.iter_s) == "table" then
    est:observe(config, {iter_mean_s = result.iter_s.mean, seconds = result.seconds, total_s = wall_s,
      warmup_samples = result.warmup_samples, cv = type(result.stability) == "table" and result.stability.cv or nil,
      counted_s = (tonumber(result.counter_iters) or 0) * (tonumber(result.counted_iter_s) or 0)})
  end
end

-- What each item still to run would cost: it.estimate_s and it.estimate_source at the timed
-- iterations it is expected to stop at (a precision-targeted config stops at its CI target,
-- within its cap ns[it], else max_iters; a fixed config runs its iters), it.iters_cap, and
-- it.need_s, the same at the least iterations that keep it (min_iters; fixed: estimate_s).
function Planner:_estimate_items(todo, ns, S)
  local total, unknown = 0, 0
  for _, it in ipairs(todo) do
    local c = it.config
    local est = self:estimator(kind_of(c.device))
    local cap = c.target_ci and ((ns or {})[it] or c.max_iters or train_options.default("max_iters")) or nil
    local n = cap and est:expected_iters(c, cap, S) or nil
    local est_s, source = est:run(c, n)
    it.iters_cap = c.target_ci and ns and ns[it] or nil
    it.estimate_s, it.estimate_source = est_s, source
    it.need_s = c.target_ci and est:run(c, est:min_iters(c, S)) or est_s
    if est_s then total = total + est_s else unknown = unknown + 1 end
  end
  return total, unknown
end

--- What a sweep's items (study:plan's) would cost under its options o (study:sweep's): the items
--- to run (will_run(it): not done, not another shard's), with a budget (o.budget_s, precision-
--- targeted) those that fit and their caps, the others left out whole. Returns {items, to_run,
--- total_s, unestimated, iters_min, iters_max, fits, need_s, left_out, left_out_s} (study:estimate).
function Planner:sweep(items, o, will_run)
  local todo = {}
  for _, it in ipairs(items) do if will_run(it) then todo[#todo + 1] = it end end
  local out = {items = items, fits = true, left_out = {}, left_out_s = 0}
  local S, ns = protocol(o), nil
  if targeted(o) and o.budget_s then
    local est = self:estimator(kind_of(o.device))
    local sel = select_runs(est, todo, o.budget_s, S, o)
    local kept, kept_configs = {}, {}
    for _, i in ipairs(sel.keep) do kept[#kept + 1], kept_configs[#kept_configs + 1] = todo[i], todo[i].config end
    for _, i in ipairs(sel.left_out) do
      todo[i].left_out, todo[i].need_s = true, sel.cost[i]
      out.left_out[#out.left_out + 1] = todo[i]
    end
    out.fits, out.need_s, out.left_out_s, out.short = #sel.left_out == 0, sel.need_s, sel.left_out_s, sel.short
    local plan = fit.caps(est, kept_configs, o.budget_s, S)
    ns = {}
    for j, it in ipairs(kept) do
      ns[it] = plan.ns[j]
      if plan.ns[j] then
        out.iters_min, out.iters_max = math.min(out.iters_min or plan.ns[j], plan.ns[j]),
          math.max(out.iters_max or plan.ns[j], plan.ns[j])
      end
    end
    todo = kept
  end
  out.to_run = #todo
  out.total_s, out.unestimated = self:_estimate_items(todo, ns, S)
  return out
end

--- Whether items[i] still fits the time left before `deadline` (fit.select over the items still
--- to run, less the share kept for reruns, fit.RERUN_RESERVE: repeats first, then by cost), and
--- its caps when it does: the timed iterations it can have beside the later runs that fit too. An
--- item that does not fit is left out whole, never cut below its precision: it.need_s is what it
--- would need, it.left_s the time left, it.room_s what the runs ranked before it leave for it.
--- will_run(it): whether a later item will be trained.
function Planner:slot(items, i, o, deadline, will_run, rerun_spent_s)
  local S = protocol(o)
  local todo = {}
  for j = i, #items do
    if will_run(items[j]) then todo[#todo + 1] = items[j] end
  end
  local left = deadline - now_s() - self:reserve_left(o, rerun_spent_s)
  -- The estimator after the time left: a first one may measure quick peaks (Planner:_probe_peaks).
  local est = self:estimator(kind_of(o.device))
  local sel = select_runs(est, todo, left, S, o)
  items[i].need_s, items[i].left_s, items[i].room_s = sel.cost[1], left, sel.room[1]
  if sel.keep[1] ~= 1 then return false end
  local kept = {}
  for _, k in ipairs(sel.keep) do kept[#kept + 1] = todo[k].config end
  return true, (fit.next_caps(est, kept, left, S))
end

--- Seconds of the budget still kept for reruns: fit.RERUN_RESERVE of it, less what reruns during
--- the matrix have spent (rerun_spent_s), so that the runs the plan kept never pay for them twice.
function Planner:reserve_left(o, rerun_spent_s)
  return math.max(0, (o.budget_s or 0) * fit.RERUN_RESERVE - (rerun_spent_s or 0))
end

--- Runs a sweep may still train (flagged runs to train again, during or after its matrix; left-out runs that
--- now fit), cheapest first, so that one long run that does not fit never keeps the short ones
--- from the time: each gets it.min_s, its estimate at the least iterations that keep it.
function Planner:by_cost(list, o)
  local S = protocol(o)
  for k, it in ipairs(list) do
    local est = self:estimator(kind_of(it.config.device))
    it.min_s, it.cost_order = est:run(it.config, targeted(o) and est:min_iters(it.config, S) or nil), k
  end
  local function cost(it) return it.min_s or math.huge end
  table.sort(list, function(a, b)
    if cost(a) ~= cost(b) then return cost(a) < cost(b) end
    return a.cost_order < b.cost_order
  end)
  return list
end

--- The caps of list[k] in left_s seconds beside the runs after it in the list (nil without a
--- precision target).
function Planner:caps_among(list, k, o, left_s)
  if not targeted(o) then return nil end
  local configs = {}
  for j = k, #list do configs[#configs + 1] = list[j].config end
  return (fit.next_caps(self:estimator(kind_of(list[k].config.device)), configs, left_s, protocol(o)))
end

--- Seconds the runs of `items` after the i-th are expected to take (those that fit now: fit.select
--- with a deadline), at the iterations each is expected to stop at; nil when none can be estimated.
function Planner:time_left(items, i, o, deadline, will_run, rerun_spent_s)
  local todo = {}
  for j = i + 1, #items do
    if will_run(items[j]) then todo[#todo + 1] = items[j] end
  end
  local S, total = protocol(o), 0
  if #todo == 0 then return 0 end
  local est = self:estimator(kind_of(o.device))
  if deadline and targeted(o) then
    local sel = select_runs(est, todo, deadline - now_s() - self:reserve_left(o, rerun_spent_s), S, o)
    local kept = {}
    for _, k in ipairs(sel.keep) do kept[#kept + 1] = todo[k] end
    todo = kept
  end
  for _, it in ipairs(todo) do
    local c = it.config
    local n = targeted(o) and est:expected_iters(c, c.max_iters or S.max_iters, S) or nil
    total = total + (est:run(c, n) or 0)
  end
  if deadline then total = math.min(total, math.max(0, deadline - now_s())) end
  return total
end

return M
