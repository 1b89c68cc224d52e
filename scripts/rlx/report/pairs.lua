-- rlx.report.pairs: the rows a report compares, found once for the tables of §4.1, §6.1 and §6.2 and
-- for the drafts that cite them: a precision against fp32 (same configuration otherwise), the same
-- workload in two environments, the largest batch of a series against its smallest. Each pair
-- carries both rows' throughput (rlx.report.compute.throughput) and the ratio of their mean images/s
-- with its 95 % CI (rlx.stats.ratio_ci95: nil bounds when a side has one run).
local compute = require("rlx.report.compute")
local configs = require("rlx.studydb.configs")
local stats = require("rlx.stats")
local model = require("rlx.model")
local errors = require("rlx.errors")
local md = require("rlx.report.md")
local M = {}

--- rlx.stats.ratio_ci95 of two rows' images/s, or nil where it has none: values whose spread
--- overflows (a 1e308 images/s stored by a broken run) leave the pair out, not the report.
function M.ratio(a, b)
  local ok, r = pcall(stats.ratio_ci95, a, b)
  if not ok then
    errors.pass_exits(r)
    return nil
  end
  return r
end

-- Rows by their configuration but one field, then that field's value.
local function index(D, field)
  local idx = {}
  for _, g in ipairs(D.groups) do idx[configs.key(g.runs[1], {[field] = true}) .. "\0" .. tostring(g[field])] = g end
  return idx
end

--- The precisions compared with fp32 (§6.1): every other of rlx.model.PRECISIONS.
M.LOWER_PRECISIONS = {}
for _, p in ipairs(model.PRECISIONS) do
  if p ~= "fp32" then M.LOWER_PRECISIONS[#M.LOWER_PRECISIONS + 1] = p end
end

--- Each fp32 row with its amp or bf16 partner: {base (fp32 row), other, precision, tb, ta (their
--- throughput), r (other ÷ fp32)}, in D.groups' order.
function M.precision(D)
  local idx, out = index(D, "precision"), {}
  for _, g in ipairs(D.groups) do
    if g.precision == "fp32" then
      for _, p in ipairs(M.LOWER_PRECISIONS) do
        local h = idx[configs.key(g.runs[1], {precision = true}) .. "\0" .. p]
        if h then
          local ta, tb = compute.throughput(h), compute.throughput(g)
          local r = M.ratio(ta.values, tb.values)
          if r then out[#out + 1] = {base = g, other = h, precision = p, ta = ta, tb = tb, r = r} end
        end
      end
    end
  end
  return out
end

--- The same workload (model, precision, batch, input, data) in two environments (§6.2), the faster
--- first: {x, y (rows), a, b (their throughput), r (x ÷ y)}. envs: the environment keys in order.
function M.environments(D, envs)
  local by_env = {}
  for _, g in ipairs(D.groups) do
    local k = configs.workload_key(g.runs[1])
    by_env[g.env_key] = by_env[g.env_key] or {}
    by_env[g.env_key][k] = by_env[g.env_key][k] or {}
    table.insert(by_env[g.env_key][k], g)
  end
  local out = {}
  for i = 1, #envs do
    for j = i + 1, #envs do
      for _, g in ipairs(D.groups) do
        if g.env_key == envs[i] then
          for _, other in ipairs((by_env[envs[j]] or {})[configs.workload_key(g.runs[1])] or {}) do
            local x, y = g, other
            local a, b = compute.throughput(x), compute.throughput(y)
            if a.mean and b.mean and a.mean < b.mean then x, y, a, b = y, x, b, a end
            local r = M.ratio(a.values, b.values)
            if r then out[#out + 1] = {x = x, y = y, a = a, b = b, r = r} end
          end
        end
      end
    end
  end
  return out
end

--- Each series (one configuration but for the batch, in D.groups' order) of two or more batch
--- sizes: {rows (by batch), first, last (the smallest and largest batch's rows), ta, tb (their
--- throughput), r (largest ÷ smallest batch's images/s, or nil when a side has no mean)}.
function M.batch_series(D)
  local series, order = {}, {}
  for _, g in ipairs(D.groups) do
    local k = configs.key(g.runs[1], {batch = true})
    if not series[k] then series[k] = {}; order[#order + 1] = k end
    table.insert(series[k], g)
  end
  local out = {}
  for _, k in ipairs(order) do
    local rows = series[k]
    if #rows >= 2 then
      table.sort(rows, function(a, b) return (a.batch or 0) < (b.batch or 0) end)
      local first, last = rows[1], rows[#rows]
      local ta, tb = compute.throughput(first), compute.throughput(last)
      out[#out + 1] = {rows = rows, first = first, last = last, ta = ta, tb = tb,
        r = M.ratio(tb.values, ta.values)}
    end
  end
  return out
end

-- Data-parallel scaling (issue 52) ------------------------------------------------------------

--- The number of data-parallel ranks of a row (rlx.studydb.configs.ranks_of: 1 for one process).
function M.ranks_of(g) return configs.of(g.runs[1]).dp.ranks end

--- The images one step of a row trains over all its ranks (ranks x batch per rank).
function M.global_batch_of(g) return configs.of(g.runs[1]).dp.global_batch end

-- A row's configuration without the fields a scaling comparison varies: the ranks, the threads (the
-- cores are split between the ranks: 2 ranks x 1 thread against 1 rank x 2 threads, issue 52) and,
-- with no_batch, the batch per rank (strong scaling keeps the global batch instead).
local function family_key(g, no_batch)
  return configs.key(g.runs[1], {ranks = true, threads = true, batch = no_batch or nil})
end
M.family_key = family_key

--- The row a row g is compared with at `over` ranks: with scaling "weak" the one at the same batch
--- per rank, with "strong" the one at the same global batch (ranks x batch / over per rank), equal
--- in every other configuration field but the threads. Returns the row (nil when the study has
--- none) and the batch per rank it has or would have (nil when the global batch does not divide).
function M.ranks_partner(D, g, over, scaling)
  local batch = g.batch
  if scaling == "strong" then
    local global = M.global_batch_of(g)
    if not (global and global % over == 0) then return nil, nil end
    batch = math.floor(global / over)
  end
  local key = family_key(g, true)
  for _, o in ipairs(D.groups) do
    if o ~= g and o.batch == batch and M.ranks_of(o) == over and family_key(o, true) == key then return o, batch end
  end
  return nil, batch
end

--- The compute a row trains on, in the unit its ranks divide: GPUs on CUDA (one per rank), else
--- CPU threads (ranks x threads per rank: 2 ranks x 1 thread and 1 rank x 2 threads are the same
--- two cores).
function M.resources_of(g)
  local r = g.runs[1]
  local n = M.ranks_of(g)
  if tostring(r.device or ""):match("^cuda") then return n end
  return n * math.max(1, math.floor(tonumber(r.threads) or 1))
end

--- Speedup and efficiency of a row of N ranks over its 1-rank baseline (docs/report.md,
--- "Scaling"): speedup = mean images/s of the N ranks ÷ mean images/s of the baseline, efficiency =
--- speedup ÷ the ratio of their resources (M.resources_of: N on GPUs, one per rank; on a CPU the
--- threads, so 2 ranks x 1 thread against 1 rank x 2 threads divides by 1: the same cores), each
--- with the ratio's 95 % CI (rlx.stats.ratio_ci95 over the repeats Table 2 averages). Weak scaling:
--- the baseline has the same batch per rank, speedup = images/s(N, B) ÷ images/s(1, B); strong
--- scaling: the same global batch G, speedup = images/s(N, G/N) ÷ images/s(1, G). Returns {base, tb
--- (its throughput), r, speedup, resources (the divisor), efficiency, low, high (the efficiency's
--- CI, nil without one)}, or {missing = {ranks = 1, batch = B}} naming the baseline run the study
--- lacks (batch nil: the global batch does not divide), or {missing = ..., no_values = true} when a
--- side has no images/s.
function M.scaling_vs_one(D, g, scaling)
  local base, batch = M.ranks_partner(D, g, 1, scaling)
  if not base then return {missing = {ranks = 1, batch = batch}} end
  local ta, tb = compute.throughput(g), compute.throughput(base)
  local r = M.ratio(ta.values, tb.values)
  if not r then return {missing = {ranks = 1, batch = batch}, no_values = true, base = base} end
  local k = M.resources_of(g) / M.resources_of(base)
  return {base = base, tb = tb, r = r, speedup = r.ratio, resources = k, efficiency = r.ratio / k,
    low = r.low and r.low / k, high = r.high and r.high / k}
end

--- The study's data-parallel families: rows equal in every configuration field but the ranks, the
--- threads and the batch (family_key), of which at least one row has ranks > 1, in D.groups'
--- order. Each is {key, rows (by ranks, then batch per rank), first (its first row), entries = {{row,
--- ranks, batch, global_batch, t (throughput), weak, strong (M.scaling_vs_one; nil for 1 rank)}}}.
--- Empty when no row has ranks > 1 (the report then has no scaling section).
function M.scaling(D)
  local families, order, dp = {}, {}, {}
  for _, g in ipairs(D.groups) do
    local k = family_key(g, true)
    if not families[k] then families[k] = {key = k, rows = {}}; order[#order + 1] = k end
    table.insert(families[k].rows, g)
    if M.ranks_of(g) > 1 then dp[k] = true end
  end
  local out = {}
  for _, k in ipairs(order) do
    if dp[k] then
      local f = families[k]
      table.sort(f.rows, function(a, b)
        local x, y = M.ranks_of(a), M.ranks_of(b)
        if x ~= y then return x < y end
        return (a.batch or 0) < (b.batch or 0)
      end)
      f.first, f.entries = f.rows[1], {}
      for _, g in ipairs(f.rows) do
        local e = {row = g, ranks = M.ranks_of(g), batch = g.batch, global_batch = M.global_batch_of(g),
          t = compute.throughput(g)}
        if e.ranks > 1 then e.weak, e.strong = M.scaling_vs_one(D, g, "weak"), M.scaling_vs_one(D, g, "strong") end
        f.entries[#f.entries + 1] = e
      end
      out[#out + 1] = f
    end
  end
  return out
end

--- A ratio and its qualifier as drafts cite them: "2.86×", "95 % CI [2.51, 3.21]" (or "one run per
--- side: no CI").
function M.ratio_parts(r)
  local function n(x)
    if (math.abs(x) < 0.1 or math.abs(x) >= 10) and x ~= 0 then return md.sig(x, 3) end
    return string.format("%.2f", x)
  end
  if not r then return "-", "" end
  if r.low then return n(r.ratio) .. "×", string.format("95 %% CI [%s, %s]", n(r.low), n(r.high)) end
  return n(r.ratio) .. "×", ((r.n_a == 1 and r.n_b == 1) and "one run per side" or "one run on a side") .. ": no CI"
end

--- "2.86× (95 % CI [2.51, 3.21])", "2.86× (one run per side: no CI)".
function M.ratio_words(r)
  local x, q = M.ratio_parts(r)
  return q ~= "" and (x .. " (" .. q .. ")") or x
end

--- Whether a ratio's 95 % CI excludes 1 (a change the repeats support); nil without a CI.
function M.significant(r)
  if not (r and r.low) then return nil end
  return r.low > 1 or r.high < 1
end

return M
