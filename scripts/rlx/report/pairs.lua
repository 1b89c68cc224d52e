-- rlx.report.pairs: the rows a report compares, found once for the tables of §4.1, §6.1 and §6.2 and
-- for the drafts that cite them: a precision against fp32 (same configuration otherwise), the same
-- workload in two environments, the largest batch of a series against its smallest. Each pair
-- carries both rows' throughput (rlx.report.compute.throughput) and the ratio of their mean images/s
-- with its 95 % CI (rlx.stats.ratio_ci95: nil bounds when a side has one run).
local compute = require("rlx.report.compute")
local configs = require("rlx.results.configs")
local stats = require("rlx.stats")
local M = {}

--- rlx.stats.ratio_ci95 of two rows' images/s, or nil where it has none: values whose spread
--- overflows (a 1e308 images/s stored by a broken run) leave the pair out, not the report.
function M.ratio(a, b)
  local ok, r = pcall(stats.ratio_ci95, a, b)
  if not ok then
    require("rlx.errors").pass_exits(r)
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

--- The precisions compared with fp32 (§6.1).
M.LOWER_PRECISIONS = {"amp", "bf16"}

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

--- A ratio and its qualifier as drafts cite them: "2.86×", "95 % CI [2.51, 3.21]" (or "one run per
--- side: no CI").
function M.ratio_parts(r)
  local md = require("rlx.report.md")
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
