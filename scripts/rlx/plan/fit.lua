-- rlx.plan.fit: which runs a time budget keeps, and the caps on timed iterations that make them fit
-- (scripts/rlx/plan/ owns planning; docs/study.md "Time budget"; docs/lua-api/budget.md).
--
-- Precision, not time, is what a run must reach (issue 30): a run is kept by the report when its
-- 95 % CI is within accept_ci (5 %); M.iters_for gives the timed iterations that takes at a
-- spread cv (rlx.stats.iters_for_ci, the trainer's own t and CI). The selection (M.select) keeps
-- the runs that fit the budget at that minimum, repeats first (issue 45: every configuration at the
-- seed's 3 repeats within ±5 % is worth more than single runs at ±2 %): every configuration's first
-- run, then every second one when all of them fit, then the rest by cost, cheapest first; what does
-- not fit is left out whole. The caps (M.caps) then share the time left among the kept runs: timed
-- iterations in proportion to 1 / sqrt(step), never below a run's minimum, up to max_iters. A run
-- stops earlier when its CI reaches target_ci (2 %), so the estimate counts, for each run, the
-- iterations that target takes at the spread seen, within its cap (rlx.plan.estimate's
-- expected_iters). `est` below is an rlx.plan.estimate estimator (step, outside, min_iters,
-- expected_iters).
local stats = require("rlx.stats")
local train_options = require("rlx._train_options")
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
  local least = train_options.OPTIONS.min_iters.min  -- a CI needs two samples
  lo, hi = math.max(least, lo or least), hi or train_options.default("max_iters")
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

--- Which of `configs` (the runs still to do, in the sweep's order) fit left_s seconds at their
--- minimum (est:min_iters), repeats first (issue 45): every configuration's first run (rounds[i]
--- = 1) in order, each kept when it fits what the runs kept before it leave (a later, cheaper one
--- can still use time a costly one could not); then, when every configuration's runs up to
--- `min_repeats` fit what is left, all of them (breadth first); then the rest by cost: the
--- cheapest configuration's runs first, up to all its repeats, each kept when it fits. So a
--- budget too short for `min_repeats` of everything still brings every cheap configuration to
--- its full repeats, and no run left out would fit the time left. `groups[i]` names config i's
--- configuration (its repeats share it). Returns {keep (indices, ascending), left_out (indices),
--- need_s (the kept runs' minimum), left_out_s, cost (index -> minimum seconds), room (index ->
--- the seconds left for it at its turn, for a left-out one), short (nil, or {need_s (what did not
--- fit), left_s (what was left for it), min_repeats (the runs of every configuration that did not
--- fit: 1 when even one of each did not)})}.
function M.select(est, configs, left_s, S, rounds, groups, min_repeats)
  local out = {keep = {}, left_out = {}, need_s = 0, left_out_s = 0, cost = {}, room = {}}
  local kept, left = {}, left_s
  for i, c in ipairs(configs) do
    local step = est:step(c)
    out.cost[i] = step and (est:outside(c) + est:min_iters(c, S)) * step or nil
  end
  local function try(i)
    local cost = out.cost[i]
    if not cost or cost <= left then
      kept[i], left = true, left - (cost or 0)
    else
      out.room[i] = left
    end
  end
  local rest, first_out_s = {}, 0
  for i = 1, #configs do
    if (rounds[i] or 1) <= 1 then
      try(i)
      if not kept[i] then first_out_s = first_out_s + out.cost[i] end
    else
      rest[#rest + 1] = i
    end
  end
  -- Breadth first up to min_repeats when all of it fits.
  local breadth, breadth_s = {}, 0
  for _, i in ipairs(rest) do
    if rounds[i] <= (min_repeats or 1) then breadth[#breadth + 1], breadth_s = i, breadth_s + (out.cost[i] or 0) end
  end
  local by_cost = rest
  if first_out_s > 0 then
    out.short = {need_s = first_out_s, left_s = left, min_repeats = 1}
  elseif #breadth > 0 then
    if breadth_s <= left then
      for _, i in ipairs(breadth) do kept[i], left = true, left - (out.cost[i] or 0) end
      by_cost = {}
      for _, i in ipairs(rest) do if not kept[i] then by_cost[#by_cost + 1] = i end end
    else
      out.short = {need_s = breadth_s, left_s = left, min_repeats = min_repeats}
    end
  end
  -- The rest by cost: a configuration's cost is its run's; ties keep the sweep's order.
  local first = {}
  for _, i in ipairs(by_cost) do first[groups[i]] = first[groups[i]] or i end
  table.sort(by_cost, function(a, b)
    local ca, cb = out.cost[a] or 0, out.cost[b] or 0
    if ca ~= cb then return ca < cb end
    if first[groups[a]] ~= first[groups[b]] then return first[groups[a]] < first[groups[b]] end
    return a < b
  end)
  for _, i in ipairs(by_cost) do try(i) end
  for i = 1, #configs do
    if kept[i] then
      out.keep[#out.keep + 1] = i
      out.need_s = out.need_s + (out.cost[i] or 0)
    else
      out.left_out[#out.left_out + 1] = i
      out.left_out_s = out.left_out_s + (out.cost[i] or 0)
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
  if c.warmup == nil or c.warmup == "auto" then
    caps.max_warmup = math.max(3, math.min(c.max_warmup or train_options.default("max_warmup"), plan.n))
  end
  return caps, plan
end

return M
