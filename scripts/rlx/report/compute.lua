-- rlx.report.compute: the numbers behind each row of a report, from the rows rlx.results.data read:
-- throughput statistics per group of repeats (unsteady or contended repeats left out, M.used), and
-- roofline placement against the same roofs the figures draw (stored peaks of the environment,
-- else the GPU's datasheet entry).
local stats = require("rlx.stats")
local configs = require("rlx.results.configs")
local M = {}

local function values(runs, field)
  local xs = {}
  for _, r in ipairs(runs) do
    local v = r[field]
    if type(v) == "number" and v == v then xs[#xs + 1] = v end
  end
  return xs
end
M.values = values

--- The runs a group's means use: its unflagged runs (rlx.results.configs.flags: unsteady or
--- contended runs are left out), or all of them when every run is flagged (then all_flagged).
--- Returns used, flagged ({run, flags}), all_flagged.
function M.used(g)
  if not g.used then g.used, g.flagged, g.all_flagged = configs.split(g.runs) end
  return g.used, g.flagged, g.all_flagged
end

--- images/s and iteration time over a group's repeats that are not flagged (M.used): {n, mean, sd,
--- cv, ci_low, ci_high, ci_half (95 % CI of the mean images/s, n >= 2), iter_mean_s, iter_sd_s,
--- within_cv (mean over runs of iter_sd_s / iter_mean_s), n_all (runs of
--- the group), flagged, all_flagged, mark (configs.MARK when every run was flagged, else ""),
--- note (configs.note: what was left out and why)}.
function M.throughput(g)
  if g.throughput then return g.throughput end
  local used, flagged, all = M.used(g)
  local ips = values(used, "images_per_s")
  local t = {values = ips, n = #ips, mean = stats.mean(ips), sd = stats.sd(ips), cv = stats.cv(ips),
    n_all = #g.runs, flagged = flagged, all_flagged = all, mark = all and (" " .. configs.MARK) or "",
    note = configs.note(g.runs)}
  -- The 95 % CI of the mean images/s over the runs used (Student's t, n - 1 df; none for n < 2).
  if t.n >= 2 then t.ci_low, t.ci_high, t.ci_half = stats.ci95(ips) end
  local it = values(used, "iter_mean_s")
  t.iter_mean_s, t.iter_sd_s = stats.mean(it), stats.sd(it)
  local within = {}
  for _, r in ipairs(used) do
    if type(r.iter_sd_s) == "number" and type(r.iter_mean_s) == "number" and r.iter_mean_s > 0 then
      within[#within + 1] = r.iter_sd_s / r.iter_mean_s
    end
  end
  t.within_cv = stats.mean(within)
  g.throughput = t
  return t
end

--- The ridge's range from its peaks' spread (issue 34: MobileNetV2's AI sat within 2 % of the
--- ridge and was called memory-bound without a caveat). A measured peak is the best of its repeats
--- and its worst repeat was best x (1 - spread) (spread = (best - worst) / best, stored with the
--- peaks), so the ridge F / B lies between F (1 - s_F) / B and F / (B (1 - s_B)); a datasheet
--- figure has no spread. A point whose AI falls in that range is bound by whichever roof the
--- machine gave it on the day: the report says "near the ridge" instead of picking one. Returns lo,
--- hi (FLOP/byte).
function M.ridge_band(peaks, ridge, compute_field, memory_field, origin)
  local function spread(field)
    if not field then return 0 end
    local q = rlx.roofline.peak_quality(peaks, field)
    local s = q.spread_pct and q.spread_pct / 100 or 0
    return (s > 0 and s < 1) and s or 0
  end
  local sf = origin == "datasheet" and 0 or spread(compute_field)
  local sb = spread(memory_field)
  return ridge * (1 - sf), ridge / (1 - sb)
end

--- The bound in words: "memory", "compute", or "near the ridge (memory by 1.8 %)" when the AI lies
--- in the ridge's range (M.ridge_band).
function M.bound_text(r)
  if not r or not r.bound then return "-" end
  if not r.near_ridge then return r.bound end
  return string.format("near the ridge (%s by %.1f %%)", r.bound, math.abs(r.ai / r.ridge_ai - 1) * 100)
end

--- The roofs for an environment and device kind: stored peaks, else the datasheet entry of the GPU
--- (CUDA only). Returns peaks, origin ("stored" | "datasheet"), and the GPU's datasheet entry
--- beside stored peaks (it supplies the arithmetic peaks a CUDA measurement of GEMMs lacks); nil
--- when there are none.
function M.peaks_for(D, env_id, kind, gpu_name)
  local p = D.peaks[env_id] and D.peaks[env_id][kind]
  local sheet
  if kind == "cuda" and gpu_name then
    local ok, entry = pcall(rlx.peaks.datasheet, gpu_name)
    if ok and entry then sheet = entry end
  end
  if p then return p, "stored", sheet end
  if sheet then return sheet, "datasheet" end
  return nil
end

local function env_of(D, id)
  for _, e in ipairs(D.envs) do if e.id == id then return e end end
  return {}
end
M.env_of = env_of

--- Roofline placement of a group: mean AI and attained GFLOP/s over the used repeats' DRAM points
--- (measured preferred), the roof of its precision by rlx's roof policy (rlx.roofline.roof: the
--- precision the points were judged as, tf32 for an fp32 run with TF32 on), attainable = min(AI x
--- BW, peak), ridge, bound, efficiency against the roof at its AI and against the peak, the GEMM
--- second ceiling, and, for a group above its own roof, the measurement to suspect. nil when no run
--- has a point.
function M.roofline(D, g)
  if g.roof ~= nil then return g.roof or nil end
  local ai, gf = {}, {}
  local points = {}
  for _, r in ipairs((M.used(g))) do
    local p = require("rlx.results.data").point_of(D, r)
    if p and type(p.ai) == "number" and p.ai > 0 and type(p.gflops) == "number" then points[#points + 1] = p end
  end
  local measured = false
  for _, p in ipairs(points) do measured = measured or p.source == "measured" end
  local judged_as
  for _, p in ipairs(points) do
    if (p.source == "measured") == measured then
      ai[#ai + 1], gf[#gf + 1] = p.ai, p.gflops
      judged_as = judged_as or (p.precision ~= "" and p.precision) or nil
    end
  end
  if #ai == 0 then g.roof = false; return nil end
  local r = {ai = stats.mean(ai), ai_sd = stats.sd(ai), gflops = stats.mean(gf), gflops_sd = stats.sd(gf),
    n = #ai, source = measured and "measured" or "estimated"}
  local run = g.runs[1]
  local env = env_of(D, run.environment_id)
  local peaks, origin, sheet = M.peaks_for(D, run.environment_id, g.kind, env.gpu_name)
  if peaks then
    local precision = rlx.roofline.precision_of(judged_as or g.precision)
    local roof, cfield = rlx.roofline.roof(peaks, precision, {datasheet = sheet})
    local pb, mfield = rlx.roofline.memory_roof(peaks, "dram")
    if roof and pb then
      local pf = roof.gflops * 1e9
      r.peak_gflops, r.peak_gbps, r.compute_field, r.memory_field = roof.gflops, pb / 1e9, roof.field, mfield
      r.roof_origin = roof.origin == "datasheet" and "datasheet" or origin
      r.roof_label, r.roof_kind, r.roof_note, r.roof_precision = roof.label, roof.kind, roof.note, roof.precision
      r.emulated, r.gemm_gflops, r.gemm_label = roof.emulated, roof.gemm_gflops, roof.gemm_label
      r.ridge_ai = pf / pb
      r.attainable_gflops = math.min(r.ai * pb, pf) / 1e9
      r.bound = r.ai < r.ridge_ai and "memory" or "compute"
      r.ridge_lo, r.ridge_hi = M.ridge_band(peaks, r.ridge_ai, r.compute_field, mfield, r.roof_origin)
      r.near_ridge = r.ai >= r.ridge_lo and r.ai <= r.ridge_hi
      r.eff_roof = r.gflops / r.attainable_gflops
      r.eff_peak = r.gflops / r.peak_gflops
      local s = rlx.roofline.suspect({ai = r.ai, gflops = r.gflops, peak_gflops = r.peak_gflops,
        peak_gbps = r.peak_gbps, compute_field = r.compute_field, memory_field = mfield, source = r.source,
        roof_label = r.roof_label, roof_origin = r.roof_origin}, peaks)
      r.above_roof, r.suspect = s ~= nil, s
    else
      r.missing_roof = not roof and cfield or mfield
    end
  end
  g.roof = r
  return r
end

return M
