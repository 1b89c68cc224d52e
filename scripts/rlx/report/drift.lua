-- rlx.report.drift: did the machine drift over the study (issue 55 point 4)? §4.2 orders every ok run
-- and every superseded attempt (run_attempts: a rerun keeps the attempt it replaces) by the time
-- each finished, and fits, per environment, the noise floor's trend (floor_gflops on time) and the
-- configurations' common trend (images/s on time, each configuration about its own mean:
-- rlx.stats.slope_ci95 with groups). A trend whose 95 % CI excludes 0 is drift, else noise; with
-- drift, the share of the spread across repeats it explains says how much wider Table 2's CIs are
-- for it. Every number names the runs and attempts it comes from.
local md = require("rlx.report.md")
local stats = require("rlx.stats")
local lead = require("rlx.report.lead")
local M = {}

--- Seconds since the epoch of a UTC time "YYYY-MM-DDTHH:MM:SSZ" (the store's), nil for anything else.
function M.utc_seconds(text)
  local y, mo, d, h, mi, s = tostring(text or ""):match("^(%d+)-(%d+)-(%d+)T(%d+):(%d+):(%d+)")
  if not y then return nil end
  y, mo = tonumber(y), tonumber(mo)
  -- Days from the civil date (the proleptic Gregorian calendar), so no local time zone enters.
  if mo <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local doy = math.floor((153 * ((mo + 9) % 12) + 2) / 5) + tonumber(d) - 1
  local days = era * 146097 + yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy - 719468
  return days * 86400 + tonumber(h) * 3600 + tonumber(mi) * 60 + tonumber(s)
end

local function slot_key(study, env_id, config_key, run)
  return table.concat({tostring(study), tostring(env_id), tostring(config_key), tostring(run)}, "|")
end

local function num(v) return type(v) == "number" and v == v and v > -math.huge and v < math.huge and v or nil end

--- Every ok run of D and every ok superseded attempt whose slot's run is in D, as points {t (UTC
--- seconds finished), ips, floor, label, attempt, kept (the slot's run) or why (superseded), g (the
--- configuration's group), env_key}, in time order; and how many attempts had no run of theirs in D.
function M.points(D)
  local slot_run, group_of = {}, {}
  for _, r in ipairs(D.ok) do slot_run[slot_key(r.study, r.environment_id, r.config_key, r.run)] = r end
  for _, g in ipairs(D.groups or {}) do for _, r in ipairs(g.runs) do group_of[r.id] = g end end
  local pts, unplaced = {}, 0
  local function add(x, r, kept)
    local t = M.utc_seconds(x.finished_at)
    if t and group_of[r.id] then
      pts[#pts + 1] = {t = t, finished_at = x.finished_at, ips = num(x.images_per_s), floor = num(x.floor_gflops),
        label = x.label, attempt = num(x.attempt) or 1, kept = kept, why = not kept and x.why or nil,
        g = group_of[r.id], env_key = r.env_key}
    end
  end
  for _, r in ipairs(D.ok) do add(r, r, true) end
  for _, a in ipairs(D.attempts or {}) do
    local r = a.status == "ok" and slot_run[slot_key(a.study, a.environment_id, a.config_key, a.run)]
    if r then add(a, r, false) else unplaced = unplaced + 1 end
  end
  table.sort(pts, function(a, b)
    if a.t ~= b.t then return a.t < b.t end
    return tostring(a.label) .. a.attempt < tostring(b.label) .. b.attempt
  end)
  return pts, unplaced
end

--- "drift" when the fit's 95 % CI excludes 0, "noise" when it holds it, nil without a CI.
function M.verdict(fit)
  if not (fit and fit.low) then return nil end
  return (fit.low > 0 or fit.high < 0) and "drift" or "noise"
end

--- Per environment key of D: {key, points, runs, attempts, span_h, floor = {fit, first, last, n},
--- within = {fit, n, groups}, configs = {{g, points, fit}}}. Slopes are relative: a fraction of the
--- mean per hour (the floor's over all its points; images/s over each configuration's points).
function M.analyse(D)
  local pts, unplaced = M.points(D)
  local out = {unplaced = unplaced}
  for _, key in ipairs(lead.env_keys(D)) do
    local e = {key = key, points = {}, runs = 0, attempts = 0, configs = {}}
    for _, p in ipairs(pts) do
      if p.env_key == key then
        e.points[#e.points + 1] = p
        if p.kept then e.runs = e.runs + 1 else e.attempts = e.attempts + 1 end
      end
    end
    if #e.points > 0 then
      local t0 = e.points[1].t
      e.span_h = (e.points[#e.points].t - t0) / 3600
      local fx, fy = {}, {}
      for _, p in ipairs(e.points) do
        if p.floor then fx[#fx + 1], fy[#fy + 1] = (p.t - t0) / 3600, p.floor end
      end
      if #fy > 0 then
        local mean = stats.mean(fy)
        local rel = {}
        for i, y in ipairs(fy) do rel[i] = y / mean end
        local first, last
        for _, p in ipairs(e.points) do if p.floor then first = first or p; last = p end end
        e.floor = {fit = #fy >= 3 and stats.slope_ci95(fx, rel) or nil, first = first, last = last, n = #fy}
      end
      local by, order = {}, {}
      for _, p in ipairs(e.points) do
        if p.ips then
          if not by[p.g] then by[p.g] = {}; order[#order + 1] = p.g end
          table.insert(by[p.g], p)
        end
      end
      local xs, ys, gs, n_groups = {}, {}, {}, 0
      for _, g in ipairs(order) do
        local list, ips = by[g], {}
        for i, p in ipairs(list) do ips[i] = p.ips end
        local mean = stats.mean(ips)
        local cx, cy = {}, {}
        for i, p in ipairs(list) do cx[i], cy[i] = (p.t - t0) / 3600, p.ips / mean end
        if #list >= 2 and mean > 0 then
          n_groups = n_groups + 1
          for i = 1, #list do xs[#xs + 1], ys[#ys + 1], gs[#gs + 1] = cx[i], cy[i], g.key end
        end
        e.configs[#e.configs + 1] = {g = g, points = list, fit = #list >= 3 and stats.slope_ci95(cx, cy) or nil}
      end
      e.within = {fit = n_groups > 0 and stats.slope_ci95(xs, ys, gs) or nil, n = #xs, groups = n_groups}
    end
    out[#out + 1] = e
  end
  return out
end

-- "+10.0 %/h (95 % CI +9.1 to +20.1 %/h)"
local function rate_text(fit)
  local s = string.format("%+.1f %%/h", fit.slope * 100)
  if fit.low then s = s .. string.format(" (95 %% CI %+.1f to %+.1f %%/h)", fit.low * 100, fit.high * 100) end
  return s
end

local function verdict_text(fit)
  local v = M.verdict(fit)
  if v == "drift" then return "**drift** (the CI excludes 0)" end
  if v == "noise" then return "**noise** (the CI holds 0)" end
  return "too few points for a CI"
end

local function hhmm(text) return tostring(text or ""):sub(12, 16) end

local function duration(h)
  local min = h * 60
  return min < 120 and string.format("%.0f min", min) or string.format("%.1f h", h)
end

--- The floor's sentence for one environment, nil without a noise floor.
function M.floor_text(e)
  local f = e.floor
  if not f then return nil end
  local head = string.format("%s: the noise floor went %s → %s GFLOP/s from %s (%s) to %s (%s), %s", md.esc(e.key),
    md.sig(f.first.floor, 3), md.sig(f.last.floor, 3), md.code(f.first.label), hhmm(f.first.finished_at),
    md.code(f.last.label), hhmm(f.last.finished_at), duration(e.span_h))
  if not f.fit then return head .. string.format("; %d probe%s: too few for a trend.", f.n, f.n == 1 and "" or "s") end
  return head .. string.format("; its trend over %d probes is %s: %s.", f.n, rate_text(f.fit), verdict_text(f.fit))
end

--- The configurations' common trend for one environment, and what it does to the CIs.
function M.within_text(e)
  local w = e.within
  if not (w and w.fit) then
    return string.format("%s: no configuration has two ok runs or attempts at different times: no trend across " ..
      "repeats.", md.esc(e.key))
  end
  local head = string.format("%s: within each configuration, images/s moved %s over %d runs and attempts of %d " ..
    "configurations with two or more (each about its own mean, least squares on time): %s.", md.esc(e.key),
    rate_text(w.fit), w.n, w.groups, verdict_text(w.fit))
  local r2 = w.fit.r2 or 0
  if M.verdict(w.fit) == "drift" then
    return head .. string.format(" It accounts for %s of the spread of images/s about the configurations' means: " ..
      "Table 2's CIs, which take repeats as independent draws, are %.2f× as wide as with the trend taken out " ..
      "(1 / √(1 − r²), r² = %.4f). The sweep's interleaved order spreads the drift over every configuration, so ratios " ..
      "between configurations hold; each mean is that of the moments its runs ran.", md.pct(r2, 0),
      1 / math.sqrt(math.max(1e-12, 1 - r2)), r2)
  end
  return head .. string.format(" The trend explains %s of that spread: the CIs stand as computed.", md.pct(r2, 0))
end

--- The reruns: each superseded attempt's images/s against its slot's run.
function M.reruns_text(e)
  local parts, by_label = {}, {}
  for _, p in ipairs(e.points) do if p.kept then by_label[p.label] = p end end
  for _, p in ipairs(e.points) do
    local now = not p.kept and by_label[p.label]
    if now and p.ips and now.ips then
      parts[#parts + 1] = string.format("%s attempt %d %s (%s, %s) → attempt %d %s (%s, %+.1f %%)", md.code(p.label),
        p.attempt, md.sig(p.ips, 3), md.esc(p.why or "?"), hhmm(p.finished_at), now.attempt, md.sig(now.ips, 3),
        hhmm(now.finished_at), (now.ips / p.ips - 1) * 100)
    end
  end
  if #parts == 0 then return nil end
  return string.format("%s: reruns, images/s of the attempt kept in run_attempts → the slot's run: %s.",
    md.esc(e.key), table.concat(parts, "; "))
end

-- One appendix row per configuration: its points in time order and its own trend.
local function config_rows(D, envs)
  local rows = {}
  for _, e in ipairs(envs) do
    for _, c in ipairs(e.configs) do
      local cells = {}
      for _, p in ipairs(c.points) do
        cells[#cells + 1] = string.format("%s (run %s #%d%s, %s)", md.sig(p.ips, 3),
          tostring(p.label):match("_run(%d+)") or "?", p.attempt, p.kept and "" or " superseded", hhmm(p.finished_at))
      end
      rows[#rows + 1] = lead.extend(lead.lead_cells(D, c.g), {table.concat(cells, ", "),
        c.fit and rate_text(c.fit) or "-"})
    end
  end
  return rows
end

--- §4.2's drift paragraph, its verdicts and the appendix table of every configuration's points.
function M.section(ctx)
  local D, doc = ctx.D, ctx.doc
  if #D.ok == 0 then return end
  local envs = M.analyse(D)
  local lines = {}
  for _, e in ipairs(envs) do
    if #e.points > 0 then
      lines[#lines + 1] = "- " .. (M.floor_text(e) or (md.esc(e.key) .. ": no noise floor recorded with these " ..
        "runs (a GPU's, a sweep with noise_floor = false, or an rlx older than the probe): the machine's own " ..
        "trend is not measured."))
      lines[#lines + 1] = "- " .. M.within_text(e)
      local reruns = M.reruns_text(e)
      if reruns then lines[#lines + 1] = "- " .. reruns end
    end
  end
  local n_att = #(D.attempts or {})
  local h, a = lead.lead_headers(D)
  local where = ctx.to_appendix("Images/s of every run and attempt in time order", {"Each configuration's " ..
    "images/s in the order its runs and attempts finished (run N, attempt #k; superseded: kept in run_attempts, " ..
    "never averaged), and its own trend where it has three or more:",
    md.table(lead.extend(h, {"Images/s (run, attempt, finished UTC)", "Trend"}), config_rows(D, envs),
      lead.extend(a, {"l", "r"}))})
  doc:para(string.format("**Drift.** Every ok run and every superseded attempt (%d here; a rerun keeps the attempt it " ..
    "replaces in run_attempts, docs/storage.md), in the order each finished; trends are least-squares slopes on " ..
    "time relative to the mean, per hour, with their 95 %% CI (rlx.stats.slope_ci95). A mean uses the slot's last " ..
    "attempt only, and only when it is steady, uncontended and within its accepted CI. Every configuration's " ..
    "points are in %s.%s", n_att, where, envs.unplaced > 0 and string.format(" %d attempt%s of slots with no ok " ..
    "run here %s left out.", envs.unplaced, envs.unplaced == 1 and "" or "s", envs.unplaced == 1 and "is" or "are")
    or ""))
  doc:para(lines)
end

return M
