-- rlx.plan.fit: which runs a time budget keeps, and the caps on timed iterations that make them fit
-- (scripts/rlx/plan/ owns planning; docs/study.md "Time budget"; docs/lua-api/budget.md).
--
-- Precision, not time, is what a run must reach (issue 30): a run is kept by the report when its
-- 95 % CI is within accept_ci (5 %); M.iters_for gives the timed iterations that takes at a
-- spread cv (rlx.stats.iters_for_ci, the trainer's own t and CI). The trim (M.trim) keeps the runs
-- that fit the budget at that minimum, in the sweep's order (breadth first: every configuration's
-- first repeat before any second one), and leaves out the rest, whole; the caps (M.caps) then
-- share the time left among the kept runs: timed iterations in proportion to 1 / sqrt(step), never
-- below a run's minimum, up to max_iters. A run stops earlier when its CI reaches target_ci (2 %),
-- so the estimate counts, for each run, the iterations that target takes at the spread seen,
-- within its cap (rlx.plan.estimate's expected_iters). `est` below is an rlx.plan.estimate
-- estimator (step, outside, min_iters, expected_iters).
local stats = require("rlx.stats")
local M = {}

M.SECONDS_SLACK = 1.5
-- The share of a sweep's budget its caps leave for rerunning the runs that ended unsteady or
-- shared their cores (study.md, "Time budget"): measured, the default study filled its 30 minutes
-- with the matrix alone and 4 of its 27 runs stayed unsteady for want of a minute each.
M.RERUN_RESERVE = 0.1

local function num(v) return type(v) == "number" and v == v and v > 0 and v < math.huge and v or nil end

--- Timed iterations for the 95 % CI of the mean to be within ±ci at a step spread cv: the least n
--- in [lo, hi] with t975(n - 1) x cv / sqrt(n) <= ci (rlx.stats.iters_for_ci), hi when none is;
--- lo without a ci.
function M.iters_for(cv, ci, lo, hi)
  lo, hi = math.max(2, lo or 2), hi or 100
  if not num(ci) then return lo end
  return stats.iters_for_ci(math.max(0, cv), ci, lo, hi)
end

-- Timed iterations of a run of step seconds at allocation k: k / sqrt(step) between its minimum
-- and max_iters.
local function iters_at(k, step, least, S)
  return math.max(least, math.min(S.max_iters, math.floor(k / math.sqrt(step))))
end

--- The caps for configs still to run (configs[1] is the next one) in left_s seconds, for a
--- precision-targeted scale S (min_iters, max_iters, and optionally accept_ci and target_ci).
--- Timed iterations go to each run in proportion to 1 / sqrt(its step time), scaled to fill the
--- time left, never below the run's minimum (est:min_iters): for a fixed time, that minimises the
--- sum of the runs' squared CI half-widths (half-width^2 ~ cv^2 / n; minimising sum 1 / n_i under
--- sum n_i x step_i = T gives n_i ~ step_i^-1/2), so a MobileNetV2 step of 0.5 s gets about 6x the
--- iterations of a VGG-16 step of 20 s instead of the same count, at a small cost to the slow
--- runs. Returns {n (configs[1]'s), ns (each config's, nil without an estimate), fits, need_s (at
--- the minima), total_s (at ns), expected_s (at the iterations the runs are expected to stop
--- at, est:expected_iters), unknown (runs without an estimate)}.
function M.caps(est, configs, left_s, S)
  local steps, least, fixed_s, need, unknown = {}, {}, 0, 0, 0
  for i, c in ipairs(configs) do
    steps[i] = est:step(c)
    if steps[i] then
      least[i] = est.min_iters and est:min_iters(c, S) or S.min_iters
      fixed_s = fixed_s + est:outside(c) * steps[i]
      need = need + (est:outside(c) + least[i]) * steps[i]
    else
      unknown = unknown + 1
    end
  end
  local function timed_s(k)
    local t = 0
    for i, step in pairs(steps) do t = t + iters_at(k, step, least[i], S) * step end
    return t
  end
  -- The largest k whose runs fit: at hi every run is at max_iters; bisect below it.
  local lo, hi = 0, 0
  for _, step in pairs(steps) do hi = math.max(hi, (S.max_iters + 1) * math.sqrt(step)) end
  if fixed_s + timed_s(hi) <= left_s then lo = hi
  else
    for _ = 1, 60 do
      local mid = (lo + hi) / 2
      if fixed_s + timed_s(mid) <= left_s then lo = mid else hi = mid end
    end
  end
  local ns, expected = {}, fixed_s
  for i, c in ipairs(configs) do
    if steps[i] then
      ns[i] = iters_at(lo, steps[i], least[i], S)
      expected = expected + (est.expected_iters and est:expected_iters(c, ns[i], S) or ns[i]) * steps[i]
    end
  end
  local first = ns[1]
  if not first then  -- no estimate for the next run: the count of a median-speed run
    local known = {}
    for _, step in pairs(steps) do known[#known + 1] = step end
    first = #known > 0 and iters_at(lo, stats.median(known), S.min_iters, S) or S.min_iters
  end
  return {n = first, ns = ns, fits = need <= left_s, need_s = need, total_s = fixed_s + timed_s(lo),
    expected_s = expected, unknown = unknown}
end

--- Which of `configs` (in the sweep's order, its priority) fit left_s seconds at their minimum
--- (est:min_iters): each is kept when it fits in what the ones kept before it leave, else left
--- out whole, so a run is never cut below the precision it needs and a later, cheaper run can
--- still use time a costly one could not. A config without an estimate is kept (nothing says it
--- does not fit). `rounds` (optional, index -> repeat number) keeps the order breadth first: once
--- a run of repeat r is left out, no run of a later repeat is kept, so no configuration gets a
--- third run while another lacks its second (a cheap third run once took the time a second
--- needed). Returns {keep (the indices kept, in order), left_out (the others), need_s (the kept
--- runs' minimum), left_out_s (the left-out runs' minimum, nil parts skipped), cost (index ->
--- minimum seconds)}.
function M.trim(est, configs, left_s, S, rounds)
  local out = {keep = {}, left_out = {}, need_s = 0, left_out_s = 0, cost = {}}
  local first_out_round = math.huge
  for i, c in ipairs(configs) do
    local step = est:step(c)
    local cost = step and (est:outside(c) + est:min_iters(c, S)) * step or nil
    out.cost[i] = cost
    local round = rounds and rounds[i] or 1
    if round <= first_out_round and (not cost or out.need_s + cost <= left_s) then
      out.keep[#out.keep + 1] = i
      out.need_s = out.need_s + (cost or 0)
    else
      out.left_out[#out.left_out + 1] = i
      out.left_out_s = out.left_out_s + (cost or 0)
      if rounds then first_out_round = math.min(first_out_round, round) end
    end
  end
  return out
end

--- Per-run caps for the next run (configs[1]), to pass to rlx.train: max_iters, max_seconds and,
--- for warm-up until steady, max_warmup = n between 3 and 10 (a warm-up that has not settled by
--- then is left to the timed section's steady-state verdict rather than eating the budget).
function M.next_caps(est, configs, left_s, S)
  local plan = M.caps(est, configs, left_s, S)
  local c = configs[1]
  local step = est:step(c)
  local caps = {max_iters = plan.n}
  if step then caps.max_seconds = plan.n * step * M.SECONDS_SLACK end
  if c.warmup == nil or c.warmup == "auto" then caps.max_warmup = math.max(3, math.min(c.max_warmup or 10, plan.n)) end
  return caps, plan
end

return M
