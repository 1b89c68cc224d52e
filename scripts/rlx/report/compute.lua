-- rlx.report.compute: the one owner of a row's aggregate (docs/architecture.md, "Where does my
-- change go"): from the rows rlx.studydb.data read, per group of repeats, the throughput statistics
-- (mean, SD, CI, n, the unsteady, imprecise or contended repeats left out: M.used), the peak memory, and the
-- roofline placement against the same roofs the figures draw (stored peaks of the environment, else
-- the GPU's datasheet entry). The report, `rlx runs --summary` and study:table2() read them here.
local stats = require("rlx.stats")
local configs = require("rlx.studydb.configs")
local data = require("rlx.studydb.data")
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

--- The runs a group's means use: its unflagged runs (rlx.studydb.configs.flags: unsteady or
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

--- The variability of an environment's rows across repeats, the one computation §4.2's median per
--- environment, its draft and the noise table read: {cvs = the CVs across repeats of its rows
--- (M.throughput's cv: rows of two or more runs used), sorted; median = their median (rlx.stats),
--- nil when none; singles = the rows that rest on one run}.
function M.repeat_cvs(D, env_key)
  local cvs, singles = {}, 0
  for _, g in ipairs(D.groups) do
    if g.env_key == env_key then
      local t = M.throughput(g)
      if t.cv then cvs[#cvs + 1] = t.cv elseif t.n == 1 then singles = singles + 1 end
    end
  end
  table.sort(cvs)
  return {cvs = cvs, median = #cvs > 0 and stats.median(cvs) or nil, singles = singles}
end

--- A group's peak memory, mean over every ok run (the peak allocation does not depend on the
--- timing, so runs left out of the timing means count here; §6.4 reads the same figure: issue 34
--- found one row's peak differing between §4.3 and §6.4). CUDA: the allocator's peak; else the
--- process's peak RSS. Returns bytes, what it is, and the runs counted.
function M.peak_memory(g)
  local function mean_all(f)
    local xs = {}
    for _, r in ipairs(g.runs) do
      local v = f(r)
      v = type(v) == "number" and v == v and v or nil
      if v and v > 0 then xs[#xs + 1] = v end
    end
    return stats.mean(xs), #xs
  end
  if g.kind == "cuda" then
    local m, n = mean_all(function(r) return r.device_max_bytes end)
    if m then return m, "device allocator peak", n end
  end
  local m, n = mean_all(function(r) return r.max_rss_bytes end)
  if m then return m, "process peak RSS", n end
  return nil
end

-- The mean of f(run) over runs, counting only finite values above zero (a rank's -1 "not measured"
-- and a missing field drop out); returns the mean (nil for none) and how many values it took.
local function positive_mean(runs, f)
  local xs = {}
  for _, r in ipairs(runs) do
    local v = f(r)
    if type(v) == "number" and v == v and v > 0 and v < math.huge then xs[#xs + 1] = v end
  end
  return stats.mean(xs), #xs
end

local function dp_of(r)
  local res = type(r.result) == "table" and r.result or {}
  return type(res.data_parallel) == "table" and res.data_parallel or nil
end

--- A row's data-parallel figures (issue 52; docs/report.md, "Scaling"). Rank 0 stores the run, with
--- every rank's figures in result.data_parallel. Returns {ranks, global_batch, memory_what ("device
--- allocator peak" on CUDA, else "process peak RSS"), rank_bytes (each rank's peak, mean over the
--- row's ok runs; index 1 is rank 0), total_bytes (the ranks' peaks summed, as stored:
--- total_device_max_bytes / total_max_rss_bytes, mean over the ok runs), n_memory, param_bytes (one
--- replica's parameters: data_parallel.param_bytes, else the stored complexity's param_bytes, Table
--- 1b's), param_from ("data_parallel" | "complexity"), and for ranks > 1: backend, launcher,
--- threads_per_rank, buckets, bucket_cap_bytes, grad_bytes_per_step, allreduce_s, exposed_comm_s,
--- comm_share, exposed_share (rank 0's, mean over the runs Table 2 averages: M.used), n_timing}.
--- A 1-rank row's rank_bytes and total_bytes are M.peak_memory's; it has no communication.
function M.data_parallel(D, g)
  local c = configs.of(g.runs[1])
  local out = {ranks = c.dp.ranks, global_batch = c.dp.global_batch}
  for _, r in ipairs(g.runs) do
    local info = D.complexity and D.complexity[r.id]
    local p = info and (tonumber(info.param_bytes) or (tonumber(info.params) and info.params * 4))
    if p then out.param_bytes, out.param_from = p, "complexity"; break end
  end
  if out.ranks == 1 then
    local m, what, n = M.peak_memory(g)
    out.rank_bytes, out.total_bytes, out.memory_what, out.n_memory = {m}, m, what, n
    return out
  end
  local first
  for _, r in ipairs(g.runs) do first = first or dp_of(r) end
  first = first or {}
  out.backend, out.launcher, out.threads_per_rank = first.backend, first.launcher, first.threads_per_rank
  out.buckets, out.bucket_cap_bytes = first.buckets, first.bucket_cap_bytes
  local p = positive_mean(g.runs, function(r) return (dp_of(r) or {}).param_bytes end)
  if p then out.param_bytes, out.param_from = p, "data_parallel" end
  -- Communication: over the runs the row's images/s averages, so the share and the throughput
  -- describe the same runs.
  local used = (M.used(g))
  local function timing(field)
    local xs = {}
    for _, r in ipairs(used) do
      local v = (dp_of(r) or {})[field]
      if type(v) == "number" and v == v and v >= 0 then xs[#xs + 1] = v end
    end
    return stats.mean(xs), #xs
  end
  out.allreduce_s, out.n_timing = timing("allreduce_s")
  out.exposed_comm_s = timing("exposed_comm_s")
  out.comm_share, out.exposed_share = timing("comm_share"), timing("exposed_share")
  out.grad_bytes_per_step = timing("grad_bytes_per_step")
  -- Memory: over every ok run, as M.peak_memory (the peak does not depend on the timing). On CUDA
  -- the allocator's peak where the ranks measured one, else (a CPU) each process's peak RSS.
  local function memory(rank_field, total_field)
    local bytes = {}
    for i = 1, out.ranks do
      bytes[i] = positive_mean(g.runs, function(r)
        for j, x in ipairs((dp_of(r) or {}).per_rank or {}) do
          if type(x) == "table" and (tonumber(x.rank) or (j - 1)) == i - 1 then return x[rank_field] end
        end
        return nil
      end)
    end
    local total, n = positive_mean(g.runs, function(r) return (dp_of(r) or {})[total_field] end)
    return bytes, total, n
  end
  local bytes, total, n
  if g.kind == "cuda" then
    bytes, total, n = memory("device_max_bytes", "total_device_max_bytes")
    if total then out.memory_what = "device allocator peak" end
  end
  if not out.memory_what then
    bytes, total, n = memory("max_rss_bytes", "total_max_rss_bytes")
    out.memory_what = "process peak RSS"
  end
  out.rank_bytes, out.total_bytes, out.n_memory = bytes, total, n
  return out
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
  local u = M.RIDGE_MIN_UNCERTAINTY
  return math.min(ridge * (1 - sf), ridge * (1 - u)), math.max(ridge / (1 - sb), ridge * (1 + u))
end

-- The mean kernel time of one training step of a run, from its counters: CUPTI's or an imported
-- ncu `gpu__time_duration.sum` (derived `seconds`) over the iterations it covers. CUPTI's is the
-- "step" range's GPU time, gaps between kernels included: an upper bound on the kernels' busy time,
-- so a share below M.HOST_KERNEL_SHARE proves the wait and a share near 1 does not rule it out.
-- Returns seconds or nil.
function M.kernel_seconds(D, run)
  for _, source in ipairs({"ncu", "cupti"}) do
    local c = data.derived_counters(D, run)[source]
    local s = c and tonumber(c.seconds)
    local n = c and (tonumber(c.iterations) or (source == "cupti" and 1 or tonumber(run.counter_iters)))
    if s and s > 0 and n and n > 0 then return s / n end
  end
  return nil
end

local function step_seconds(g)
  return stats.mean(values((M.used(g)), "iter_mean_s"))
end

local function flops_of(D, g)
  local xs = {}
  for _, r in ipairs(g.runs) do
    local c = D.complexity and D.complexity[r.id]
    if c and tonumber(c.train_flops) then xs[#xs + 1] = c.train_flops end
  end
  return stats.mean(xs)
end

-- The row of the next larger batch with everything else equal (environment, model, precision,
-- device and the rest of the configuration), or nil.
local function next_batch(D, g)
  local best
  for _, o in ipairs(D.groups or {}) do
    if o ~= g and o.env_key == g.env_key and o.model == g.model and o.precision == g.precision and
        o.kind == g.kind and o.device == g.device and tonumber(o.batch) and tonumber(g.batch) and
        o.batch > g.batch and (not best or o.batch < best.batch) then
      local same = true
      for k, v in pairs(g.config or {}) do
        if k ~= "batch" and type(v) ~= "table" and o.config[k] ~= v then same = false end
      end
      if same then best = o end
    end
  end
  return best
end

--- Whether a GPU row's step waits on the host (M.HOST_KERNEL_SHARE): its kernel time per step below
--- 60 % of the step's wall time, else, from the next larger batch, the share of the step that grows
--- with the work below 60 %. Returns {kernel_s, step_s} or {step_s, batch, next_step_s, next_batch,
--- work (FLOP ratio), share}, or nil.
function M.host_bound(D, g)
  if g.kind ~= "cuda" then return nil end
  local t = step_seconds(g)
  if not (t and t > 0) then return nil end
  local ks = {}
  for _, r in ipairs((M.used(g))) do ks[#ks + 1] = M.kernel_seconds(D, r) end
  local k = stats.mean(ks)
  if k and k < M.HOST_KERNEL_SHARE * t then return {kernel_s = k, step_s = t} end
  local o = next_batch(D, g)
  local t2 = o and step_seconds(o)
  if not (t2 and t2 > 0) then return nil end
  local f1, f2 = flops_of(D, g), flops_of(D, o)
  local w = (f1 and f2 and f1 > 0) and f2 / f1 or o.batch / g.batch
  if w <= 1 then return nil end
  -- t = t0 + c x FLOPs through both rows: the growing part of the smaller step is (t2 - t1) / (w - 1).
  local share = (t2 - t) / (w - 1) / t
  if share < M.HOST_KERNEL_SHARE then
    return {step_s = t, batch = g.batch, next_step_s = t2, next_batch = o.batch, work = w, share = share}
  end
  return nil
end

--- The least uncertainty of a ridge (issue 55): the peaks' spread is that of one sitting, and the
--- machine's throughput moves more than that over a study (the noise floor drifted 11 % over a
--- 43-minute study on a Zen 5), so the ridge's range is at least ridge x (1 -/+ 5 %). A point whose AI
--- range comes within it is "near the ridge", never a class, and a point "changes class" with the
--- batch only across it (docs/roofline.md, "Near the ridge").
M.RIDGE_MIN_UNCERTAINTY = 0.05

--- A GPU step is host/launch-bound (issue 55) when the kernels take less than this share of it: the
--- GPU waits on the host (Python-free here, but the launches, the optimizer's many small kernels,
--- synchronisations) for the rest, so neither roof sets its time. The same share, from two batches:
--- the part of the step that grows with the work (the linear fit through the two steps' times
--- against their FLOPs) below 60 % of the smaller batch's step.
M.HOST_KERNEL_SHARE = 0.6

--- A GPU step's class (issue 55): "host/launch-bound" (r.host), "near the ridge" (r.near_ridge),
--- "memory-bound" or "compute-bound" (r.bound); "none (emulated)" for an emulator's point, nil
--- without a bound. Every bound statement of the report (Table 2, §5's and §6.5's drafts, the
--- abstract's counts, the hypotheses) goes through it.
function M.class_of(r)
  if not r then return nil end
  if r.emulator then return "none (emulated)" end
  if not r.bound then return nil end
  if r.host then return "host/launch-bound" end
  if r.near_ridge then return "near the ridge" end
  return r.bound .. "-bound"
end

--- The BLAS a CPU environment's fp32 GEMMs ran on, in words, from its record (info.blas, written
--- by engine/env): "OpenBLAS (openmp build, Haswell kernels; OPENBLAS_CORETYPE=Haswell set in the
--- environment)". The GEMM ceiling is that library's kernel, not the CPU's: a kernel for an older
--- ISA (Haswell's AVX2 on an AVX-512 CPU) draws it low (issue 55). nil when the record names none.
function M.blas_words(info)
  local b = type(info) == "table" and type(info.blas) == "table" and info.blas or nil
  local function str(v) return type(v) == "string" and v ~= "" and v ~= "unknown" and v or nil end
  if not (b and str(b.name)) then return nil end
  local bits = {}
  if str(b.threading) then bits[#bits + 1] = b.threading .. " build" end
  if str(b.core) then bits[#bits + 1] = b.core .. " kernels" end
  if str(b.branch) then bits[#bits + 1] = b.branch end
  local words = b.name .. (str(b.version) and (" " .. b.version) or "")
  local paren = table.concat(bits, ", ")
  if str(b.core) and (b.set_by == "user" or b.set_by == "rlx") then
    paren = paren .. string.format("; OPENBLAS_CORETYPE=%s set %s", b.core,
      b.set_by == "user" and "in the environment" or "by rlx after checking it")
  end
  return paren ~= "" and (words .. " (" .. paren .. ")") or words
end

--- A CPU GEMM ceiling that measured training points exceed is a reference, not a ceiling (issue
--- 55: six Zen 5 points at 256-389 GFLOP/s above a 213 GFLOP/s GEMM run on Haswell kernels). The
--- label of the GEMM line of roof `roof` (rlx.roofline.roof's) for points reaching `top` GFLOP/s:
--- "GEMM FP32 on OpenBLAS (...) (reference: training points exceed it)", else "... (2nd ceiling)".
--- Returns label, exceeded.
function M.gemm_ceiling_label(roof, info, top, kind)
  local blas = kind ~= "cuda" and M.blas_words(info) or nil
  local exceeded = top ~= nil and roof.gemm_gflops ~= nil and top > roof.gemm_gflops
  return roof.gemm_label .. (blas and (" on " .. blas) or "") ..
    (exceeded and " (reference: training points exceed it)" or " (2nd ceiling)"), exceeded
end

--- The rule behind every class, in words (Table 2's legend, Appendix F's roofline points).
function M.class_rule()
  local u, h = math.floor(M.RIDGE_MIN_UNCERTAINTY * 100 + 0.5), math.floor(M.HOST_KERNEL_SHARE * 100 + 0.5)
  return string.format("memory when the point's whole AI range lies below the ridge's range (from its peaks' " ..
    "spread, at least ±%d %%), compute when it lies above, else near the ridge, which is no class (§5); a GPU step " ..
    "is host/launch-bound instead when its kernels take under %d %% of its wall time (the counters' " ..
    "gpu__time_duration.sum), or when under %d %% of it grows with the FLOPs up to the next batch size", u, h, h)
end

--- The evidence of a host/launch-bound step, both times stated: "kernels 11.2 ms of a 26.7 ms step"
--- or "26.7 ms a step at batch 64 against 28.0 ms at batch 128 with 2.00x the FLOPs".
function M.host_text(h)
  if h.kernel_s then
    return string.format("kernels %.1f ms of a %.1f ms step", h.kernel_s * 1e3, h.step_s * 1e3)
  end
  return string.format("%.1f ms a step at batch %d against %.1f ms at batch %d with %.2fx the FLOPs", h.step_s * 1e3,
    h.batch, h.next_step_s * 1e3, h.next_batch, h.work)
end

--- The bound in words: "memory", "compute", "host/launch-bound (kernels 11.2 ms of a 26.7 ms
--- step)", or "near the ridge" when the point's AI range meets the ridge's range (M.ridge_band):
--- "near the ridge (memory by 1.8 %)" for a point known to one AI, "near the ridge (AI 3.73-4.75,
--- ridge 4.69-5.30)" for a range.
function M.bound_text(r)
  if r and r.emulator then return "none (emulated)" end
  if not r or not r.bound then return "-" end
  if r.host then return "host/launch-bound (" .. M.host_text(r.host) .. ")" end
  if not r.near_ridge then return r.bound end
  if r.ai_lo and r.ai_hi and r.ai_hi > r.ai_lo then
    return string.format("near the ridge (AI %.3g-%.3g, ridge %.3g-%.3g)", r.ai_lo, r.ai_hi, r.ridge_lo, r.ridge_hi)
  end
  return string.format("near the ridge (%s by %.1f %%)", r.bound, math.abs(r.ai / r.ridge_ai - 1) * 100)
end

--- The AI range of a group's DRAM points (docs/roofline.md, "Estimated points"): an estimated point
--- from the upper traffic model to rlx's minimum traffic (rlx.roofline.traffic_range: the minimum
--- gives the highest AI, the upper model the lowest), a measured one from the lowest to the highest
--- AI of its repeats. Returns lo, hi (FLOP/byte), or nil when the point is known to one AI only.
function M.ai_range(g, ais, source)
  if source == "estimated" then
    local r = g.runs[1]
    local cfg = type(r.config) == "table" and r.config or {}
    local t = rlx.roofline.traffic_range{model = tostring(r.model), batch = math.floor(tonumber(r.batch) or 1),
      input = math.floor(tonumber(configs.of(r).input) or 224), classes = tonumber(cfg.classes) and
      math.floor(cfg.classes) or nil, precision = r.precision and tostring(r.precision) or nil}
    local mean = stats.mean(ais)
    if not (t and mean) then return nil end
    return mean * t.min_bytes / t.upper_bytes, mean
  end
  if #ais < 2 then return nil end
  local lo, hi = math.huge, 0
  for _, a in ipairs(ais) do lo, hi = math.min(lo, a), math.max(hi, a) end
  if hi > lo then return lo, hi end
  return nil
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

--- The roofs a run is judged against (the report's rows, Figure C, `rlx export --layout seed`):
--- its environment's stored peaks, else the GPU's datasheet entry (M.peaks_for), the compute roof
--- of `precision` (a run's or the precision its point was judged as: tf32 for an fp32 run with TF32
--- on) by rlx's roof policy (rlx.roofline.roof, the datasheet supplying the arithmetic peaks stored
--- GEMMs lack) and the DRAM roof. Returns {peaks, origin ("stored" | "datasheet"), roof (or nil),
--- compute_field, peak_bw (byte/s, or nil), memory_field}, or nil without peaks.
function M.roofs_of(D, run, precision)
  local env = env_of(D, run.environment_id)
  local peaks, origin, sheet = M.peaks_for(D, run.environment_id, run.kind, env.gpu_name)
  if not peaks then return nil end
  local roof, cfield = rlx.roofline.roof(peaks, rlx.roofline.precision_of(precision), {datasheet = sheet})
  local pb, mfield = rlx.roofline.memory_roof(peaks, "dram")
  return {peaks = peaks, origin = origin, roof = roof, compute_field = roof and roof.field or cfield, peak_bw = pb,
    memory_field = mfield}
end

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
    local p = data.point_of(D, r)
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
  r.ai_lo, r.ai_hi = M.ai_range(g, ai, r.source)
  local R = M.roofs_of(D, g.runs[1], judged_as or g.precision)
  if R then
    local peaks, origin, roof, pb, mfield = R.peaks, R.origin, R.roof, R.peak_bw, R.memory_field
    if roof and pb then
      local pf = roof.gflops * 1e9
      r.peak_gflops, r.peak_gbps, r.compute_field, r.memory_field = roof.gflops, pb / 1e9, roof.field, mfield
      r.roof_origin = roof.origin == "datasheet" and "datasheet" or origin
      r.roof_label, r.roof_kind, r.roof_note, r.roof_precision = roof.label, roof.kind, roof.note, roof.precision
      r.emulated, r.gemm_gflops, r.gemm_label = roof.emulated, roof.gemm_gflops, roof.gemm_label
      r.datasheet_field, r.datasheet_gflops, r.datasheet_label = roof.datasheet_field, roof.datasheet_gflops,
        roof.datasheet_label
      -- The arithmetic is rlx.roofline.place's (engine/peaks/roofline.cpp): one owner of the bound.
      local placed = rlx.roofline.place{ai = r.ai, flops_per_s = r.gflops * 1e9, peak_flops = pf, peak_bw = pb}
      r.ridge_ai, r.attainable_gflops, r.bound = placed.ridge_ai, placed.attainable_gflops, placed.bound
      r.ridge_lo, r.ridge_hi = M.ridge_band(peaks, r.ridge_ai, r.compute_field, mfield, r.roof_origin)
      -- A bound is stated only when the point's whole AI range lies on one side of the ridge's range.
      local lo, hi = r.ai_lo or r.ai, r.ai_hi or r.ai
      r.near_ridge = not (lo > r.ridge_hi or hi < r.ridge_lo)
      r.host = M.host_bound(D, g)
      r.eff_roof = placed.efficiency
      r.eff_peak = r.gflops / r.peak_gflops
      local s = rlx.roofline.suspect({ai = r.ai, gflops = r.gflops, peak_gflops = r.peak_gflops,
        peak_gbps = r.peak_gbps, compute_field = r.compute_field, memory_field = mfield, source = r.source,
        roof_label = r.roof_label, roof_origin = r.roof_origin}, peaks)
      r.above_roof, r.suspect = s ~= nil, s
      -- An emulated environment's numbers are the emulator's (issue 55): its point is drawn and
      -- tabled, but never a finding: no bound class, no efficiency, nothing to suspect.
      if g.emulated or g.runs[1].emulated then
        r.emulator, r.bound, r.near_ridge, r.eff_roof, r.eff_peak, r.host = true, nil, nil, nil, nil, nil
        r.above_roof, r.suspect = false, nil
      end
    else
      r.missing_roof = not roof and R.compute_field or mfield
    end
  end
  g.roof = r
  return r
end

return M
