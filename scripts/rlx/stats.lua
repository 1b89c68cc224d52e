-- rlx.stats: the statistics a study reports over repeats and iterations.
--
-- sd is the sample standard deviation (n - 1), percentiles interpolate linearly between order
-- statistics (numpy's default), and ci95 uses Student's t so three repeats get the wide interval
-- they deserve. The arithmetic is engine/train/stats.cpp's (rlx._core.stats), the one the trainer
-- stops on: this module checks arguments, keeps nil for "no value", and composes (ratio_ci95,
-- mean_sd groups rows and formats "mean ± SD" cells as in seed 001's Table 2).
local options = require("rlx.options")
local errors = require("rlx.errors")
local core = rlx._core.stats
local M = {}

local function numbers(fname, xs)
  errors.expect(fname, xs, "table", "an array of numbers")
  for i, x in ipairs(xs) do
    if type(x) ~= "number" then
      errors.raise(fname, string.format("element %d must be a number, got %s", i, type(x)))
    end
  end
  return xs
end

--- The mean; nil for no values.
function M.mean(xs)
  numbers("rlx.stats.mean", xs)
  if #xs == 0 then return nil end
  return core.summary(xs).mean
end

--- Sample standard deviation (divides by n - 1); nil for fewer than two values.
function M.sd(xs)
  numbers("rlx.stats.sd", xs)
  if #xs < 2 then return nil end
  return core.summary(xs).sd
end

--- p-th percentile, p in [0, 100], linear interpolation between closest ranks.
function M.percentile(xs, p)
  numbers("rlx.stats.percentile", xs)
  if type(p) ~= "number" or p ~= p or p < 0 or p > 100 then
    errors.raise("rlx.stats.percentile", "p must be a number in [0, 100], got " .. tostring(p))
  end
  if #xs == 0 then return nil end
  return core.percentile(xs, p)
end

function M.median(xs)
  numbers("rlx.stats.median", xs)
  return M.percentile(xs, 50)
end

--- Coefficient of variation sd / mean (a fraction, not percent).
function M.cv(xs)
  numbers("rlx.stats.cv", xs)
  local m, s = M.mean(xs), M.sd(xs)
  if not m or not s or m == 0 then return nil end
  return s / m
end

--- The t quantile for a 95% interval with df degrees of freedom (engine/train/stats.cpp's table,
--- interpolated in 1/df); nil for df < 1.
function M.t975(df)
  if type(df) ~= "number" or df ~= df then
    errors.raise("rlx.stats.t975", "df must be a number of degrees of freedom (n - 1), got " ..
      (type(df) == "number" and tostring(df) or type(df)))
  end
  if df < 1 then return nil end
  return core.t975(df)
end

--- The least count n of timed iterations in [lo, hi] whose 95 % CI of the mean is within ±ci
--- (a fraction) at a step-to-step spread cv (sd / mean): t975(n - 1) x cv / sqrt(n) <= ci, the
--- CI a run with that spread reaches; hi when none in the range does (lo is at least 2).
function M.iters_for_ci(cv, ci, lo, hi)
  local fname = "rlx.stats.iters_for_ci"
  for i, v in ipairs({cv, ci}) do
    if type(v) ~= "number" or v ~= v or v < 0 or v == math.huge then
      errors.raise(fname, string.format("argument %d (%s) must be a finite number >= 0, got %s", i,
        i == 1 and "cv" or "ci", tostring(v)))
    end
  end
  for i, v in ipairs({lo, hi}) do
    if type(v) ~= "number" or v ~= math.floor(v) or v < 0 or v > 1e9 then
      errors.raise(fname, string.format("argument %d (%s) must be a whole number from 0 to 1e9, got %s", i + 2,
        i == 1 and "lo" or "hi", tostring(v)))
    end
  end
  return core.iters_for_ci(cv, ci, lo, hi)
end

--- The steady-state verdict of timed samples (seconds per iteration), the trainer's own
--- (docs/training.md "Steady state"): {drift, cv, stable, judged, drift_t, drift_significant,
--- max_drift, max_cv}. rule = {drift =, cv =} overrides the thresholds (fractions); nil keeps
--- rlx.train's. Fewer than four samples: judged = false, stable = false.
local STEADY_SPEC = {drift = {type = "number", min = 0}, cv = {type = "number", min = 0}}
function M.steady_state(samples, rule)
  numbers("rlx.stats.steady_state", samples)
  local o = options.check("rlx.stats.steady_state", rule or {}, STEADY_SPEC)
  return core.steady_state(samples, o.drift, o.cv)
end

--- 95% confidence interval of the mean: returns low, high, half_width (nil for n < 2).
function M.ci95(xs)
  numbers("rlx.stats.ci95", xs)
  if #xs < 2 then return nil end
  local m, half = M.mean(xs), core.ci95_half(xs)
  return m - half, m + half, half
end

--- The ratio of two means, mean(a) / mean(b), with a 95% confidence interval (docs/report.md):
--- first-order (delta method) relative standard error
---   u_a = sd_a^2 / (n_a * mean_a^2), u_b = sd_b^2 / (n_b * mean_b^2), se = ratio * sqrt(u_a + u_b),
--- Welch-Satterthwaite degrees of freedom df = (u_a + u_b)^2 / (u_a^2 / (n_a - 1) + u_b^2 / (n_b - 1)),
--- interval ratio -/+ t975(df) * se. Returns {ratio, low, high, half, df, n_a, n_b, mean_a, mean_b};
--- low/high are nil when either side has fewer than two values. Both spreads zero: a zero-width
--- interval with df = n_a + n_b - 2.
function M.ratio_ci95(a, b)
  numbers("rlx.stats.ratio_ci95", a)
  numbers("rlx.stats.ratio_ci95", b)
  local na, nb = #a, #b
  if na == 0 or nb == 0 then return nil end
  local ma, mb = M.mean(a), M.mean(b)
  if mb == 0 then return nil end
  local out = {ratio = ma / mb, n_a = na, n_b = nb, mean_a = ma, mean_b = mb}
  if na < 2 or nb < 2 or ma == 0 then return out end
  local ua = M.sd(a) ^ 2 / (na * ma ^ 2)
  local ub = M.sd(b) ^ 2 / (nb * mb ^ 2)
  local u = ua + ub
  if u == 0 then
    out.df, out.half = na + nb - 2, 0
  else
    out.df = u ^ 2 / (ua ^ 2 / (na - 1) + ub ^ 2 / (nb - 1))
    out.half = M.t975(out.df) * out.ratio * math.sqrt(u)
  end
  out.low, out.high = out.ratio - out.half, out.ratio + out.half
  return out
end

--- The least-squares slope of ys on xs with its 95 % confidence interval (docs/lua-api/stats.md).
--- With groups (an array of keys, one per point), each group keeps its own level and the slope is
--- the one they share (the within, or fixed-effects, estimator): x and y are taken about their
--- group's means. slope = Sxy / Sxx, residual variance s2 = SSR / df with df = n - groups - 1, half =
--- t975(df) x sqrt(s2 / Sxx). Returns {slope, low, high, half, df, n, groups, ssw (the sum of squares
--- of y about its group means), ssr (about the fitted lines), r2 = 1 - ssr / ssw}; low/high nil when
--- df < 1; nil when the xs do not vary within any group.
function M.slope_ci95(xs, ys, groups)
  local fname = "rlx.stats.slope_ci95"
  numbers(fname, xs)
  numbers(fname, ys)
  if #xs ~= #ys or (groups ~= nil and (type(groups) ~= "table" or #groups ~= #xs)) then
    errors.raise(fname, string.format("xs, ys (and groups) must have one entry per point, got %d, %d%s", #xs, #ys,
      type(groups) == "table" and (" and " .. #groups) or ""))
  end
  local members, order = {}, {}
  for i = 1, #xs do
    local g = groups and groups[i] or 1
    if not members[g] then members[g] = {}; order[#order + 1] = g end
    table.insert(members[g], i)
  end
  local sxx, sxy, ssw, dx, dy = 0, 0, 0, {}, {}
  for _, g in ipairs(order) do
    local gx, gy = {}, {}
    for k, i in ipairs(members[g]) do gx[k], gy[k] = xs[i], ys[i] end
    local mx, my = M.mean(gx), M.mean(gy)
    for _, i in ipairs(members[g]) do
      dx[i], dy[i] = xs[i] - mx, ys[i] - my
      sxx, sxy, ssw = sxx + dx[i] ^ 2, sxy + dx[i] * dy[i], ssw + dy[i] ^ 2
    end
  end
  if #xs < 2 or sxx == 0 then return nil end
  local slope, ssr = sxy / sxx, 0
  for i = 1, #xs do ssr = ssr + (dy[i] - slope * dx[i]) ^ 2 end
  local out = {slope = slope, n = #xs, groups = #order, df = #xs - #order - 1, ssw = ssw, ssr = ssr,
    r2 = ssw > 0 and 1 - ssr / ssw or nil}
  if out.df >= 1 then
    out.half = M.t975(out.df) * math.sqrt(ssr / out.df / sxx)
    out.low, out.high = slope - out.half, slope + out.half
  end
  return out
end

--- All of the above for one array, as a table {n, mean, sd, median, min, max, p5, p95, cv, ci95_low, ci95_high}.
function M.summary(xs)
  numbers("rlx.stats.summary", xs)
  local n = #xs
  if n == 0 then return {n = 0} end
  local s = core.summary(xs)
  local lo, hi = M.ci95(xs)
  local sd = n >= 2 and s.sd or nil
  return {n = n, mean = s.mean, sd = sd, median = s.median, min = s.min, max = s.max, p5 = s.p5, p95 = s.p95,
    cv = (sd and s.mean ~= 0) and sd / s.mean or nil, ci95_low = lo, ci95_high = hi}
end

local function fmt_cell(m, s, digits)
  if m == nil then return "" end
  local f = "%." .. digits .. "f"
  if s == nil then return string.format(f, m) end
  return string.format(f .. " ± " .. f, m, s)
end

--- Groups rows by the fields in opts.by (default env, model, precision, batch) and summarises
--- `fields` (a field name or an array of them) in each group. Each output row has the by-fields,
--- n, and per field f: f_mean, f_sd and f = "mean ± sd" (digits decimals, default 1); with a single
--- field also mean, sd and text. Groups keep the order in which they first appear; rows whose
--- value is not a number (failed runs) are left out of the statistics.
function M.mean_sd(rows, fields, opts)
  errors.expect("rlx.stats.mean_sd", rows, "table", "an array of rows")
  local single = type(fields) == "string"
  if single then fields = {fields} end
  if type(fields) ~= "table" or #fields == 0 then
    errors.raise("rlx.stats.mean_sd", "expected a field name or an array of field names, got " .. type(fields))
  end
  local o = options.check("rlx.stats.mean_sd", opts, {
    by = {type = "string_list", default = {"env", "model", "precision", "batch"}},
    digits = {type = "integer", min = 0, default = 1},
  })
  local by = type(o.by) == "string" and {o.by} or o.by
  local groups, order = {}, {}
  for _, r in ipairs(rows) do
    local parts = {}
    for i, k in ipairs(by) do parts[i] = tostring(r[k]) end
    local key = table.concat(parts, "\0")
    local g = groups[key]
    if not g then
      g = {row = {}, values = {}}
      for _, k in ipairs(by) do g.row[k] = r[k] end
      for _, f in ipairs(fields) do g.values[f] = {} end
      groups[key] = g
      order[#order + 1] = key
    end
    for _, f in ipairs(fields) do
      if type(r[f]) == "number" and r[f] == r[f] then table.insert(g.values[f], r[f]) end
    end
  end
  local out = {}
  for _, key in ipairs(order) do
    local g = groups[key]
    local row = g.row
    row.n = 0
    for _, f in ipairs(fields) do
      local xs = g.values[f]
      row.n = math.max(row.n, #xs)
      row[f .. "_mean"], row[f .. "_sd"] = M.mean(xs), M.sd(xs)
      row[f] = fmt_cell(row[f .. "_mean"], row[f .. "_sd"], o.digits)
    end
    if single then
      local f = fields[1]
      row.mean, row.sd, row.text = row[f .. "_mean"], row[f .. "_sd"], row[f]
    end
    out[#out + 1] = row
  end
  return out
end

return M
