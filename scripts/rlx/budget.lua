-- rlx.budget: the public face of the study's planning (docs/lua-api/budget.md), whose one owner is
-- scripts/rlx/plan/: the estimator (rlx.plan.estimate), which runs a budget keeps and their caps
-- (rlx.plan.fit), and durations (rlx.plan.text). Nothing is computed here.
local estimate = require("rlx.plan.estimate")
local fit = require("rlx.plan.fit")
local text = require("rlx.plan.text")

local M = {}

-- The priors of the estimates (the same tables: a change here is a change there).
M.PRIOR_EFFICIENCY, M.DEFAULT_EFFICIENCY = estimate.PRIOR_EFFICIENCY, estimate.DEFAULT_EFFICIENCY
M.DEFAULT_WARMUP_ITERS, M.DEFAULT_SETUP_ITERS = estimate.DEFAULT_WARMUP_ITERS, estimate.DEFAULT_SETUP_ITERS
M.RUN_OVERHEAD_S, M.PRIOR_CV, M.COUNTER_STEPS = estimate.RUN_OVERHEAD_S, estimate.PRIOR_CV, estimate.COUNTER_STEPS
M.SECONDS_SLACK, M.RERUN_RESERVE = fit.SECONDS_SLACK, fit.RERUN_RESERVE

--- An estimator for the runs of `study` on device kind `kind` (rlx.plan.estimate.estimator).
function M.estimator(study, kind, opts) return estimate.estimator(study, kind, opts) end

--- The compute roof (GFLOP/s) an estimate divides by (rlx.plan.estimate.compute_roof).
function M.compute_roof(peaks, precision, tf32) return estimate.compute_roof(peaks, precision, tf32) end

--- Timed iterations for a 95 % CI of ±ci at a spread cv (the prior spread when nil; rlx.plan.fit).
function M.iters_for(cv, ci, lo, hi) return fit.iters_for(cv or estimate.PRIOR_CV, ci, lo, hi) end

--- The caps on timed iterations of configs in left_s seconds (rlx.plan.fit.caps).
function M.caps(est, configs, left_s, S) return fit.caps(est, configs, left_s, S) end

--- Which configs fit left_s seconds at their minimum (rlx.plan.fit.trim).
function M.trim(est, configs, left_s, S, rounds) return fit.trim(est, configs, left_s, S, rounds) end

--- The caps of the next run, to pass to rlx.train (rlx.plan.fit.next_caps).
function M.next_caps(est, configs, left_s, S) return fit.next_caps(est, configs, left_s, S) end

--- "30m", "1.5h", "90s" -> seconds; "none" -> nil (rlx.plan.text.parse_duration).
function M.parse_duration(text_, fname) return text.parse_duration(text_, fname) end

--- 95 -> "1.6 min" (rlx.plan.text.duration_text).
function M.duration_text(s) return text.duration_text(s) end

return M
