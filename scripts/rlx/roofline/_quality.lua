-- rlx.roofline._quality: how far a roof can be trusted, and what to suspect when a point lies above
-- its own roof (rlx.roofline.peak_quality, rlx.roofline.suspect; docs/roofline.md, "Points above
-- their roof"). A peak's quality is read from a table as rlx.peaks.measure returns it or as a study
-- database gives it back; the suspects are named with that quality, most likely first.
local labels = require("rlx.roofline._labels")
local peaks_of = labels.peaks_of
local M = {}

-- A positive finite number from a table, else nil.
local function positive(t, f)
  local v = type(t) == "table" and t[f] or nil
  if type(v) == "number" and v > 0 and v < math.huge then return v end
  return nil
end

-- Below this CPU share a wall-clock peak was time-shared with other processes: the engine's one
-- constant (engine/util/thread_cpu.h kContendedShare, the training runs' threshold too).
M.CONTENDED_SHARE = rlx._core.peaks.contended_share()

--- The quality of one peak: {best, median, spread_pct, repeats, attempts, quick, limit_pct, noisy,
--- cpu_share, contended} from a table as rlx.peaks.measure returns it (stats, details) or as the
--- store reads it back (spread fractions, <field>_median / _repeats / _attempts / _cpu_share,
--- repeats, quick_mode); unknown parts are nil. noisy: the spread is above the limit the peaks were
--- measured with (10 % unless stored); contended: its threads got less than 75 % of their cores.
function M.peak_quality(peaks, field)
  peaks = peaks_of(peaks)
  if type(peaks) ~= "table" then return {} end
  local q = {best = positive(peaks, field)}
  local st = type(peaks.stats) == "table" and peaks.stats[field] or nil
  if type(st) == "table" then
    q.median, q.spread_pct, q.repeats, q.attempts = st.median, st.spread_pct, st.repeats, st.attempts
  end
  local sp = type(peaks.spread) == "table" and peaks.spread[field] or nil
  if q.spread_pct == nil and type(sp) == "number" then q.spread_pct = sp * 100 end
  q.median = q.median or positive(peaks, field .. "_median")
  q.repeats = q.repeats or positive(peaks, field .. "_repeats") or positive(peaks, "repeats")
  q.attempts = q.attempts or positive(peaks, field .. "_attempts")
  if type(peaks.quick) == "boolean" then q.quick = peaks.quick
  elseif type(peaks.quick_mode) == "number" then q.quick = peaks.quick_mode == 1 end
  q.limit_pct = positive(peaks, "spread_limit_pct") or 10
  q.noisy = q.spread_pct ~= nil and q.spread_pct > q.limit_pct
  -- The CPU share matters where time-sharing lowers the figure: wall-clock kernels and the GEMMs.
  local d = type(peaks.details) == "table" and peaks.details[field] or nil
  if type(d) == "table" and type(d.cpu_share) == "number" and (peaks.clock ~= "cpu" or field:match("^gemm_")) then
    q.cpu_share = d.cpu_share
  end
  q.cpu_share = q.cpu_share or positive(peaks, field .. "_cpu_share")
  q.contended = q.cpu_share ~= nil and q.cpu_share < M.CONTENDED_SHARE
  return q
end

-- "fp32_gflops (FP32 FMA, measured quick, best of 5, spread 21.5 %)": a peak and its quality; and
-- the short form "fp32_gflops (quick, spread 21.5 %)".
local function peak_words(peaks, field, label, origin)
  local q = M.peak_quality(peaks, field)
  local bits, short = {label}, {}
  if origin == "datasheet" then
    bits[#bits + 1] = "datasheet"
    short[#short + 1] = "datasheet"
  else
    bits[#bits + 1] = "measured" .. (q.quick == true and " quick" or q.quick == false and " full" or "")
    if q.quick ~= nil then short[#short + 1] = q.quick and "quick" or "full" end
    if q.repeats then bits[#bits + 1] = string.format("best of %d", q.repeats) end
    if q.spread_pct then
      bits[#bits + 1] = string.format("spread %.1f %%", q.spread_pct)
      short[#short + 1] = bits[#bits]
    end
    if q.contended then
      bits[#bits + 1] = string.format("threads got %.0f %% of their cores", q.cpu_share * 100)
      short[#short + 1] = string.format("CPU share %.0f %%", q.cpu_share * 100)
    end
  end
  return string.format("%s (%s)", field, table.concat(bits, ", ")), q,
    field .. (#short > 0 and (" (" .. table.concat(short, ", ") .. ")") or "")
end

--- Which measurement to suspect for a point above its own roof, in words, or nil when it is not
--- above. point: {ai, gflops, peak_gflops, peak_gbps, compute_field, memory_field, source,
--- roof_label, roof_origin}, as rlx.roofline.for_run's rows and the report's placements carry.
--- Above the compute roof the suspects are that peak and the FLOP count; above the memory roof,
--- the bandwidth peak and the byte count (analytic bytes count every tensor's traffic at DRAM,
--- though caches serve part of it). The peak comes first when it is quick, noisy or missing its
--- quality; a datasheet peak (an upper bound) comes second. Returns {roof = "compute"|"memory",
--- first, second (the suspects, most likely first), short (both, briefly, for a figure), text}.
function M.suspect(point, peaks)
  if type(point) ~= "table" then return nil end
  local P, B, ai, g = point.peak_gflops, point.peak_gbps, point.ai, point.gflops
  if not (type(P) == "number" and type(B) == "number" and type(ai) == "number" and type(g) == "number") then
    return nil
  end
  if not (P > 0 and B > 0 and ai >= 0 and g >= 0 and P < math.huge and B < math.huge and ai < math.huge and
    g < math.huge) then
    return nil
  end
  -- Above which roof, by the one tolerance (rlx.roofline.place, engine/peaks/roofline.cpp).
  local placed = rlx._core.roofline.place{ai = ai, flops_per_s = g * 1e9, peak_flops = P * 1e9, peak_bw = B * 1e9}
  local compute, memory = placed.above_compute_roof, placed.above_memory_roof
  if not compute and not memory then return nil end
  local measured = point.source == "measured"
  local peak, q, peak_short, count, count_short
  if compute then
    local field = point.compute_field or "the compute roof"
    local label = point.roof_label or labels.roof_label(peaks, field)
    peak, q, peak_short = peak_words(peaks, field, label, point.roof_origin)
    count = measured and "the FLOP count (hardware counters)" or "the FLOP count (analytic, rlx.model.summary)"
    count_short = "the FLOP count"
  else
    local field = point.memory_field or "dram_gbps"
    peak, q, peak_short = peak_words(peaks, field, field:match("^(%w+)_gbps$") and field:match("^(%w+)"):upper() or
      field, point.roof_origin)
    count = measured and "the byte count (hardware counters)" or
      "the byte count (analytic: every tensor's traffic counted at DRAM, though caches serve part of it)"
    count_short = "the byte count"
  end
  local peak_first = point.roof_origin ~= "datasheet" and
    (q.quick ~= false or q.noisy or q.contended or q.spread_pct == nil)
  local first, second, short = peak, count, peak_short .. " or " .. count_short
  if not peak_first then first, second, short = count, peak, count_short .. " or " .. peak_short end
  local roof = compute and "compute" or "memory"
  return {roof = roof, first = first, second = second, short = short, text = string.format("above its %s roof " ..
    "(%.4g GFLOP/s against a roof of %.4g): suspect %s, else %s", roof, g, compute and P or ai * B, first, second)}
end

return M
