-- rlx.report.roofline: §5 of report.md: the peaks of every environment (datasheet and measured side
-- by side), the roofline figures, and every point's AI, attained and attainable GFLOP/s, bound and
-- efficiency, each tagged measured (counters) or estimated (analytic complexity).
local md = require("rlx.report.md")
local compute = require("rlx.report.compute")
local M = {}

-- Roofs shown in the peaks table, in order; other numeric fields of a peaks table follow.
local ROOFS = {"fp64_gflops", "fp32_gflops", "fp16_gflops", "bf16_gflops", "tf32_tensor_gflops",
  "fp16_tensor_gflops", "bf16_tensor_gflops", "gemm_fp32_gflops", "gemm_bf16_gflops", "gemm_fp16_gflops",
  "dram_gbps", "l3_gbps", "l2_gbps", "l1_gbps"}
local SKIP = {memory_gb = true, repeats = true, threads = true}

local function unit_of(name)
  if name:match("_gbps$") then return "GB/s" end
  if name:match("_gflops$") then return "GFLOP/s" end
  return ""
end

local function roof_names(stored, sheet)
  local names, seen = {}, {}
  for _, n in ipairs(ROOFS) do
    if (stored and type(stored[n]) == "number") or (sheet and type(sheet[n]) == "number") then
      names[#names + 1] = n; seen[n] = true
    end
  end
  local extra = {}
  for n, v in pairs(stored or {}) do
    if type(v) == "number" and not seen[n] and not SKIP[n] and unit_of(n) ~= "" then extra[#extra + 1] = n end
  end
  table.sort(extra)
  for _, n in ipairs(extra) do names[#names + 1] = n end
  return names
end

local function peaks_table(ctx)
  local D, rows, sources = ctx.D, {}, {}
  for _, e in ipairs(D.envs) do
    for _, kind in ipairs({"cpu", "cuda"}) do
      if e.kinds[kind] then
        local stored = D.peaks[e.id] and D.peaks[e.id][kind]
        local sheet
        if kind == "cuda" and e.gpu_name then
          local ok, entry = pcall(rlx.peaks.datasheet, e.gpu_name)
          if ok then sheet = entry end
        end
        if sheet and sheet.source then sources[sheet.source] = true end
        local names = roof_names(stored, sheet)
        if #names == 0 then
          rows[#rows + 1] = {md.esc(e.label), kind, "-", "-", "-", "-", "-"}
          ctx.missing[#ctx.missing + 1] = string.format("no peaks for %s (%s): no roofs, bounds or efficiencies " ..
            "(measure them: rlx peaks --db %s)", md.esc(e.label), kind, md.esc(D.path or "DB"))
        end
        for _, n in ipairs(names) do
          local m = stored and stored[n]
          local s = sheet and sheet[n]
          local src = stored and stored[n] and stored.source or nil
          rows[#rows + 1] = {md.esc(e.label), kind, md.esc(n), s and md.sig(s, 4) or "-", m and md.sig(m, 4) or "-",
            (m and s and s > 0) and md.pct(m / s, 1) or "-", md.esc(src or (s and "datasheet") or "-")}
        end
      end
    end
  end
  return rows, sources
end

function M.section(ctx)
  local doc = ctx.doc
  doc:para("## 5. Roofline Modeling")
  local rows, sources = peaks_table(ctx)
  doc:para("**Peaks** (GFLOP/s and GB/s, decimal). Datasheet figures are rlx's built-in table " ..
    "(rlx.peaks.datasheet: boost clocks, dense tensor rates); measured ones are stored by " ..
    md.code("rlx peaks --db") .. " or the study (best of N, at the clocks of the moment):")
  doc:para(md.table({"Env", "Device", "Roof", "Datasheet", "Measured", "Measured / datasheet", "Stored as"}, rows,
    {"l", "l", "l", "r", "r", "r", "l"}))
  local src = {}
  for s in pairs(sources) do src[#src + 1] = s end
  table.sort(src)
  ctx.references = ctx.references or {}
  for _, s in ipairs(src) do ctx.references[#ctx.references + 1] = s end
  if #src > 0 then doc:para("Datasheet sources: " .. table.concat(src, ", ") .. ".") end
  for _, f in ipairs(ctx.figures) do
    if f.figure == "C" then doc:para(string.format("![Roofline — %s](%s)", md.esc(f.env), f.rel)) end
  end
  for _, f in ipairs(ctx.figures) do
    if f.figure == "D" then doc:para(string.format("![AI vs batch — %s](%s)", md.esc(f.model), f.rel)) end
  end
  M.points(ctx)
  doc:para(md.placeholder("2–3 paragraphs tying the points to the roofs: the ridge point, precision shifts, " ..
    "batch effects."))
  doc:para("---")
end

function M.points(ctx)
  local D, doc = ctx.D, ctx.doc
  local rows, estimated, measured = {}, 0, 0
  for _, g in ipairs(D.groups) do
    local r = compute.roofline(D, g)
    if r then
      if r.source == "measured" then measured = measured + 1 else estimated = estimated + 1 end
      local sections = require("rlx.report.sections")
      rows[#rows + 1] = sections.extend(sections.lead_cells(D, g), {r.source, md.sig(r.ai, 3), md.sig(r.gflops, 3),
        md.sig(r.attainable_gflops, 3), r.bound or "-",
        r.eff_roof and md.pct(r.eff_roof, 1) or "-", r.eff_peak and md.pct(r.eff_peak, 1) or "-",
        r.compute_field and md.esc(string.format("%s %s, %s %s (%s)", r.compute_field, md.sig(r.peak_gflops, 4),
          r.memory_field, md.sig(r.peak_gbps, 4), r.roof_origin)) or "-", ctx.ref(g)})
    end
  end
  if #rows == 0 then
    doc:para("No roofline points are stored (no complexity and no counters for the ok runs).")
    ctx.missing[#ctx.missing + 1] = "no roofline points: no §5 table, no bounds"
    return
  end
  doc:para("**Points** (DRAM level, mean over the repeats averaged in §4.1). AI = FLOPs / bytes; attained = " ..
    "FLOPs / time; attainable " ..
    "= min(AI × peak GB/s, peak GFLOP/s); bound = memory when AI < ridge (peak GFLOP/s ÷ peak GB/s); efficiency " ..
    "= attained / attainable (the roof at its AI) and attained / peak. Source: measured = hardware counters, " ..
    "estimated = rlx's analytic FLOPs and minimum bytes over the measured iteration time:")
  local sections = require("rlx.report.sections")
  local h, a = sections.lead_headers(D)
  doc:para(md.table(sections.extend(h, {"Source", "AI (FLOP/byte)", "Attained GFLOP/s", "Attainable GFLOP/s", "Bound",
    "% of roof", "% of peak", "Roofs (GFLOP/s, GB/s)", "Runs"}), rows,
    sections.extend(a, {"l", "r", "r", "r", "l", "r", "r", "l", "l"})))
  doc:para(string.format("%d point%s measured, %d estimated.", measured, measured == 1 and "" or "s", estimated))
end

return M
