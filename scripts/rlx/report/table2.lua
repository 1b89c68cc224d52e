-- rlx.report.table2: seed 001's Table 2, built once for the report's §6, `rlx runs --summary` and
-- the REPL's study:table2() (issue 32: two builders with different rules printed one row as
-- "0.9 ± 0.0" and as "0.896 ± 0.006"). Every number is a row's aggregate of rlx.report.compute.
local md = require("rlx.report.md")
local compute = require("rlx.report.compute")
local configs = require("rlx.studydb.configs")
local lead = require("rlx.report.lead")
local M = {}

-- "k/n": runs of a group that reached a steady state, of those with a verdict; "-" when none has
-- one (not recorded, or every run too short to judge: rlx.studydb.configs.verdict).
function M.stable_cell(g)
  local k, n = 0, 0
  for _, r in ipairs(g.runs) do
    local v = configs.verdict(r)
    if v == "steady" or v == "unsteady" then
      n = n + 1
      if v == "steady" then k = k + 1 end
    end
  end
  return n > 0 and string.format("%d/%d", k, n) or "-"
end

-- n: "3", "2 of 3" when runs were left out, "1 of 3 (the highest)" when the one run kept was picked
-- by the filter (issue 30: a row must say so), "3 of 3 †" when every run was flagged.
local function n_cell(t, g)
  if t.all_flagged then return string.format("%d of %d %s", t.n, t.n_all, configs.MARK) end
  if t.n == t.n_all then return tostring(t.n) end
  local text = string.format("%d of %d", t.n, t.n_all)
  if t.n == 1 then
    local kept = compute.used(g)[1]
    local rank = configs.kept_rank(g.runs)
    if kept and rank then text = text .. " (" .. rank .. ")" end
  end
  return text
end

-- The 95 % CI of the mean images/s: "3.71–4.49 (±9.5 %)"; "-" for a single run.
local function ci_cell(t)
  if not t.ci_half then return "-" end
  local digits = math.max(0, 2 - math.floor(math.log10(math.abs(t.mean))))
  local f = "%." .. digits .. "f"
  return string.format(f .. "–" .. f .. " (±%.1f %%)", t.ci_low, t.ci_high, t.ci_half / t.mean * 100)
end

local function append(t, more)
  for _, x in ipairs(more) do t[#t + 1] = x end
  return t
end

--- Table 2 of loaded data D (rlx.studydb.data.load; D.groups its rows): {headers, aligns, rows
--- (formatted cells), sources ({measured = true, estimated = true}: the roofline points' kinds),
--- marked (a row whose every run was flagged)}. ref(g), when given, fills a last "Runs" column
--- (the report's links to Appendix E).
-- The AI: an estimated one is analytic FLOPs over analytic bytes, the same for every repeat of a
-- configuration, so it has no SD to show; it is a range, from the upper traffic model to rlx's
-- minimum traffic (rlx.report.compute.ai_range: "25.4–32.1"); a measured one varies over repeats.
local function ai_cell(r)
  if not r then return "-" end
  if r.source == "estimated" then
    if r.ai_lo and r.ai_hi then return md.sig(r.ai_lo, 3) .. "–" .. md.sig(r.ai_hi, 3) end
    return md.mean_sd_sig(r.ai, nil)
  end
  return md.mean_sd_sig(r.ai, r.ai_sd)
end

function M.build(D, ref)
  local sources = {}
  for _, g in ipairs(D.groups) do
    local r = compute.roofline(D, g)
    if r then sources[r.source] = true end
  end
  local mixed = sources.measured and sources.estimated
  local rows, marked = {}, false
  for _, g in ipairs(D.groups) do
    local t = compute.throughput(g)
    local r = compute.roofline(D, g)
    marked = marked or t.all_flagged
    local cells = {n_cell(t, g), md.mean_sd_sig(t.mean, t.sd) .. t.mark, ci_cell(t),
      r and (md.mean_sd_sig(r.gflops, r.gflops_sd) .. t.mark) or "-", ai_cell(r),
      md.esc(compute.bound_text(r))}
    if mixed then cells[#cells + 1] = r and r.source or "-" end
    cells[#cells + 1] = M.stable_cell(g)
    if ref then cells[#cells + 1] = ref(g) end
    rows[#rows + 1] = append(lead.lead_cells(D, g), cells)
  end
  local ai_head = (sources.estimated and not sources.measured) and "AI, estimated range (FLOP/byte)" or
    (sources.measured and not sources.estimated) and "AI, measured (FLOP/byte)" or "AI (FLOP/byte)"
  local gf_head = (sources.estimated and not sources.measured) and "Attained GFLOP/s, estimated" or "Attained GFLOP/s"
  local headers, aligns = lead.lead_headers(D)
  append(headers, {"n", "Images/s", "95 % CI of the mean", gf_head, ai_head, "Bound"})
  append(aligns, {"r", "r", "r", "r", "r", "l"})
  if mixed then headers[#headers + 1], aligns[#aligns + 1] = "Source", "l" end
  headers[#headers + 1], aligns[#aligns + 1] = "Stable", "r"
  if ref then headers[#headers + 1], aligns[#aligns + 1] = "Runs", "l" end
  return {headers = headers, aligns = aligns, rows = rows, sources = sources, marked = marked}
end

--- Table 2 as Markdown lines (M.build without the Runs column): what `rlx runs --summary` prints.
function M.lines(D)
  local T = M.build(D)
  return md.table(T.headers, T.rows, T.aligns)
end

--- The numbers behind each row of Table 2, one record per configuration (D.groups' order): env,
--- model, precision, batch, config (the rest of the configuration, rlx.studydb.configs' key), n
--- (runs averaged), n_all (ok runs), left_out (unsteady, imprecise or contended runs left out), all_flagged,
--- images_per_s_mean, images_per_s_sd, images_per_s_ci_low, images_per_s_ci_high, gflops_mean,
--- gflops_sd, ai_mean, ai_sd, ai_lo and ai_hi (the AI's range: rlx.report.compute.ai_range), source,
--- ridge_ai, attainable_gflops, bound (the roofline's side of the ridge), near_ridge, class (what the
--- report says: rlx.report.compute.class_of, "host/launch-bound" included), kernel_s and step_s (a
--- host/launch-bound GPU row's kernel and wall time per step, when the counters give the kernel time),
--- peak_memory_bytes (and peak_memory_as) and labels (the runs).
function M.records(D)
  local out = {}
  for _, g in ipairs(D.groups) do
    local t = compute.throughput(g)
    local r = compute.roofline(D, g) or {}
    local mem, mem_as = compute.peak_memory(g)
    out[#out + 1] = {env = g.env_key, model = g.model, precision = g.precision, batch = g.batch,
      config = g.config.key, n = t.n, n_all = t.n_all, left_out = t.all_flagged and 0 or #t.flagged,
      all_flagged = t.all_flagged,
      images_per_s_mean = t.mean, images_per_s_sd = t.sd, images_per_s_ci_low = t.ci_low,
      images_per_s_ci_high = t.ci_high, gflops_mean = r.gflops, gflops_sd = r.gflops_sd, ai_mean = r.ai,
      ai_sd = r.ai_sd, ai_lo = r.ai_lo, ai_hi = r.ai_hi, source = r.source, ridge_ai = r.ridge_ai,
      attainable_gflops = r.attainable_gflops,
      bound = r.bound, near_ridge = r.near_ridge, class = compute.class_of(r),
      kernel_s = r.host and r.host.kernel_s, step_s = r.host and r.host.step_s, peak_memory_bytes = mem, peak_memory_as = mem_as,
      labels = table.concat(g.labels, " ")}
  end
  return out
end

-- The order study:table2()'s frame shows its columns in.
M.COLUMNS = {"env", "model", "precision", "batch", "n", "n_all", "left_out", "images_per_s_mean", "images_per_s_sd",
  "images_per_s_ci_low", "images_per_s_ci_high", "gflops_mean", "gflops_sd", "ai_mean", "ai_sd", "ai_lo", "ai_hi",
  "bound", "source",
  "ridge_ai", "attainable_gflops", "near_ridge", "class", "kernel_s", "step_s", "peak_memory_bytes", "peak_memory_as",
  "all_flagged", "config", "labels"}

return M
