-- rlx.report.roofline: §5 of report.md: the peaks of every environment with their quality (best,
-- median, spread, repeats, quick or full; datasheet beside measured) and the role each plays (the
-- roof of which precision, second ceiling, memory roof), the roof policy in words, the roofline
-- figures, and every point's AI, attained and attainable GFLOP/s, bound and efficiency, each
-- tagged measured (counters) or estimated (analytic complexity); points above their own roof are
-- listed with the measurement to suspect, never left silent.
local md = require("rlx.report.md")
local compute = require("rlx.report.compute")
local lead = require("rlx.report.lead")
local drafts = require("rlx.report.drafts")
local data = require("rlx.studydb.data")
local kit = require("rlx.kit")
local M = {}

-- Peaks shown in the peaks table, in order; other numeric fields of a peaks table follow.
local ROOFS = {"fp64_gflops", "fp32_gflops", "fp16_gflops", "bf16_gflops", "tf32_tensor_gflops",
  "fp16_tensor_gflops", "bf16_tensor_gflops", "gemm_fp32_gflops", "gemm_tf32_gflops", "gemm_bf16_gflops",
  "gemm_fp16_gflops", "dram_gbps", "l3_gbps", "l2_gbps", "l1_gbps"}
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

-- What each peaks field of an environment and device kind is used as by the report's groups:
-- {[field] = {"fp32 roof", "2nd ceiling (bf16)", ...}}; the DRAM field is the memory roof.
-- The GEMM ceilings of an environment and device kind that its training points exceed (issue 55):
-- {[gemm field] = {gflops (the ceiling), top (the highest point), n (points above), label}}. An
-- emulator's points count for nothing.
local function exceeded_gemms(D, env_id, kind)
  local out = {}
  for _, g in ipairs(D.groups) do
    if g.runs[1].environment_id == env_id and g.kind == kind then
      local r = compute.roofline(D, g)
      if r and r.gemm_gflops and r.roof_kind ~= "gemm" and not r.emulator and r.gflops > r.gemm_gflops then
        local f = "gemm_" .. (r.roof_precision or rlx.roofline.precision_of(g.precision)) .. "_gflops"
        local e = out[f] or {gflops = r.gemm_gflops, top = 0, n = 0, label = r.gemm_label}
        e.top, e.n = math.max(e.top, r.gflops), e.n + 1
        out[f] = e
      end
    end
  end
  return out
end

local function roles_of(D, env_id, kind)
  local roles, seen = {}, {}
  local exceeded = exceeded_gemms(D, env_id, kind)
  local function add(field, text)
    if not field or seen[field .. text] then return end
    seen[field .. text] = true
    roles[field] = roles[field] or {}
    table.insert(roles[field], text)
  end
  for _, g in ipairs(D.groups) do
    if g.runs[1].environment_id == env_id and g.kind == kind then
      local r = compute.roofline(D, g)
      if r and r.compute_field then
        local p = r.roof_precision or rlx.roofline.precision_of(g.precision)
        add(r.compute_field, p .. " roof" .. (r.emulated and " (emulated)" or ""))
        if r.gemm_gflops and r.roof_kind ~= "gemm" then
          local f = "gemm_" .. p .. "_gflops"
          add(f, exceeded[f] and ("reference (" .. p .. "): training points exceed it, not a ceiling") or
            ("2nd ceiling (" .. p .. ")"))
        end
        if r.datasheet_field then add(r.datasheet_field, "datasheet reference (" .. p .. "), not a roof") end
        add(r.memory_field, "memory roof")
      end
    end
  end
  return roles
end

-- Quality cells of one measured peak: median, spread (with a mark above the limit), repeats
-- (and attempts when it was measured again), mode, CPU share (with a mark when contended).
local function quality_cells(stored, n)
  if not (stored and type(stored[n]) == "number") then return {"-", "-", "-", "-", "-"} end
  local q = rlx.roofline.peak_quality(stored, n)
  local spread = q.spread_pct and (string.format("%.1f %%", q.spread_pct) .. (q.noisy and " ⚠" or "")) or "-"
  local reps = q.repeats and tostring(math.floor(q.repeats)) or "-"
  if q.attempts and q.attempts > 1 then reps = reps .. string.format(" (%d attempts)", q.attempts) end
  local mode = q.quick == true and "quick" or q.quick == false and "full" or "-"
  local share = q.cpu_share and (string.format("%.0f %%", q.cpu_share * 100) .. (q.contended and " ⚠" or "")) or "-"
  return {q.median and md.sig(q.median, 4) or "-", spread, reps, mode, share}, q
end

local function peaks_table(ctx)
  local D, rows, sources, noisy, emulated, used = ctx.D, {}, {}, {}, {}, {}
  for _, e in ipairs(D.envs) do
    for _, kind in ipairs(kit.DEVICE_KINDS) do  -- rlx's device kinds and the kit's mps
      if e.kinds[kind] then
        local stored = D.peaks[e.id] and D.peaks[e.id][kind]
        local sheet
        if kind == "cuda" and e.gpu_name then
          local ok, entry = pcall(rlx.peaks.datasheet, e.gpu_name)
          if ok then sheet = entry end
        end
        if sheet and sheet.source then sources[sheet.source] = true end
        if rlx.roofline.bf16_emulated(stored) then emulated[#emulated + 1] = md.esc(e.label) end
        local names = roof_names(stored, sheet)
        if #names == 0 then
          rows[#rows + 1] = {md.esc(e.label), kind, "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"}
          ctx.missing[#ctx.missing + 1] = type(e.info.imported) == "table" and string.format("no peaks for %s " ..
            "(%s): imported from the seed's kit, on a machine rlx did not run on, so no roofs, bounds or " ..
            "efficiencies (its datasheet figures go in the kit's analysis/peaks.json)", md.esc(e.label), kind) or
            string.format("no peaks for %s (%s): no roofs, bounds or efficiencies (measure them: rlx peaks --db %s)",
              md.esc(e.label), kind, md.esc(data.env_source(D, e.id).path or "DB"))
        end
        local roles = roles_of(D, e.id, kind)
        for _, n in ipairs(names) do
          local m = stored and stored[n]
          local s = sheet and sheet[n]
          local cells, q = quality_cells(stored, n)
          if q and (q.noisy or q.contended) then
            local what = {}
            if q.noisy then what[#what + 1] = string.format("spread %.1f %% over %d repeats", q.spread_pct, q.repeats or 0) end
            if q.contended then
              what[#what + 1] = string.format("its threads got %.0f %% of their cores", q.cpu_share * 100)
            end
            if q.attempts and q.attempts > 1 then what[#what + 1] = string.format("%d attempts", q.attempts) end
            if q.quick then what[#what + 1] = "quick" end
            noisy[#noisy + 1] = string.format("%s (%s) `%s`: %s", md.esc(e.label), kind, n, table.concat(what, ", "))
            noisy.dbs = noisy.dbs or {}
            noisy.dbs[data.env_source(D, e.id).path or "DB.db"] = true
          end
          -- Without bf16 arithmetic the stored bf16 peak is the FP32 FMA figure itself, not a run of
          -- its own (engine/peaks/measure.cpp), and the bf16 GEMM converts to fp32: say so in the row.
          local shown = n
          if e.emulated then shown = n .. " (emulator's figure, not comparable)" end
          if kind == "cpu" and rlx.roofline.bf16_emulated(stored) then
            if n == "bf16_gflops" then shown = n .. " (emulated: the fp32_gflops figure, not measured apart)"
            elseif n == "gemm_bf16_gflops" then shown = n .. " (emulated: bf16 converted to fp32)" end
          end
          rows[#rows + 1] = {md.esc(e.label), kind, md.esc(shown), md.esc(roles[n] and table.concat(roles[n], ", ") or "-"),
            s and md.sig(s, 4) or "-", m and md.sig(m, 4) or "-", cells[1], cells[2], cells[3], cells[4], cells[5],
            (m and s and s > 0) and md.pct(m / s, 1) or "-"}
          -- The body's table: the roofs this study's points are judged against, with their spread.
          if roles[n] then
            used[#used + 1] = {md.esc(e.label), kind, md.esc(shown), md.esc(table.concat(roles[n], ", ")),
              md.sig(m or s, 4) .. " " .. unit_of(n), m and "measured (best)" or "datasheet", cells[2]}
          end
        end
      end
    end
  end
  return rows, sources, noisy, emulated, used
end

--- The BLAS kernel each CPU environment's fp32 GEMMs ran on, and why (the environment record's
--- blas.reason: OpenBLAS's own core, the user's OPENBLAS_CORETYPE, or rlx's choice): it decides the
--- GEMM fp32 ceiling and the speed of fully connected layers.
function M.blas_kernels(ctx)
  local lines, refs = {}, {}
  for _, e in ipairs(ctx.D.envs) do
    local b = type(e.info) == "table" and type(e.info.blas) == "table" and e.info.blas or nil
    if e.kinds.cpu and b and type(b.reason) == "string" and b.reason ~= "" then
      lines[#lines + 1] = string.format("%s: %s", md.esc(e.label), md.esc(b.reason))
    end
    -- A GEMM ceiling the training points exceed measured the BLAS's kernel, not the CPU (issue 55).
    if e.kinds.cpu and not e.emulated then
      local ex = exceeded_gemms(ctx.D, e.id, "cpu")
      local fields = {}
      for f in pairs(ex) do fields[#fields + 1] = f end
      table.sort(fields)
      for _, f in ipairs(fields) do
        local x, blas = ex[f], compute.blas_words(e.info)
        refs[#refs + 1] = string.format("%s: %d point%s reach%s up to %s GFLOP/s, above the %s of %s GFLOP/s " ..
          "(`%s`)%s", md.esc(e.label), x.n, x.n == 1 and "" or "s", x.n == 1 and "es" or "", md.sig(x.top, 4),
          md.esc(x.label or f), md.sig(x.gflops, 4), f, blas and (" measured on " .. md.esc(blas)) or "")
      end
    end
  end
  if #lines > 0 then
    ctx.doc:para("**BLAS kernel** (LibTorch's fp32 matrix products: the GEMM fp32 ceiling, fully connected " ..
      "layers): " .. table.concat(lines, "; ") .. ".")
  end
  if #refs > 0 then
    ctx.doc:para("⚠ **A GEMM line the training points exceed is a reference, not a ceiling**: " ..
      table.concat(refs, "; ") .. ". The GEMM figure is one library's kernel at one size (a kernel for an older " ..
      "ISA, chosen by OPENBLAS_CORETYPE or the library, draws it low); the training step's convolutions run on " ..
      "other kernels (oneDNN), so no bound is judged against it and Figure C draws it dash-dotted as a reference.")
  end
end

-- Figure D's AIs of one source ("measured" | "estimated") per environment, model and precision, as
-- "epyc-2c: resnet50 fp32 32.2–33.9" (the range over its batches), in the figures' order.
local function d_ranges(figures, source)
  local order, range = {}, {}
  for _, f in ipairs(figures) do
    if f.figure == "D" then
      for _, p in ipairs(f.plot.points) do
        if (p.source == "measured") == (source == "measured") then
          local k = p.env .. "\0" .. p.model .. " " .. p.precision
          if not range[k] then range[k] = {env = p.env, what = p.model .. " " .. p.precision}; order[#order + 1] = k end
          local r = range[k]
          r.lo, r.hi = math.min(r.lo or p.ai, p.ai), math.max(r.hi or p.ai, p.ai)
        end
      end
    end
  end
  local out = {}
  for _, k in ipairs(order) do
    local r = range[k]
    out[#out + 1] = string.format("%s on %s %s", r.what, md.esc(r.env), r.lo == r.hi and md.sig(r.lo, 3) or
      (md.sig(r.lo, 3) .. "–" .. md.sig(r.hi, 3)))
  end
  return out
end

--- What Figure D marks (issue 55: estimated CPU AIs of 33 and 144 beside measured GPU ones of 16
--- and 24, and every ridge one grey dash): which AIs were measured and which estimated, that the two
--- methods differ, and each environment's ridges, drawn in its colour.
function M.figure_d_note(ctx)
  local measured, estimated = d_ranges(ctx.figures, "measured"), d_ranges(ctx.figures, "estimated")
  local ridges, envs, seen = {}, {}, {}
  for _, f in ipairs(ctx.figures) do
    for _, r in ipairs(f.figure == "D" and f.plot.ridges or {}) do
      local k = r.env .. " " .. r.precision
      if not seen[k] then
        seen[k] = true
        if not ridges[r.env] then ridges[r.env] = {}; envs[#envs + 1] = r.env end
        table.insert(ridges[r.env], r.precision .. " " .. md.sig(r.ai, 3))
      end
    end
  end
  if #measured + #estimated == 0 then return end
  local parts = {}
  if #measured > 0 and #estimated > 0 then
    parts[#parts + 1] = "**Figure D** marks how each AI was obtained: filled, measured by counters (" ..
      table.concat(measured, "; ") .. "); hollow, estimated from rlx's analytic FLOPs over its minimum traffic (" ..
      table.concat(estimated, "; ") .. "), the top of the AI's range and the same on every machine. The two " ..
      "methods differ (an estimate counts no traffic beyond the minimum), so an estimated AI above a measured " ..
      "one is not an environment's effect; compare AIs of one method, or the measured and estimated FLOPs and " ..
      "bytes of §6.3."
  else
    parts[#parts + 1] = string.format("**Figure D**'s AIs are all %s (%s markers).",
      #measured > 0 and "measured by counters" or "estimated, rlx's analytic FLOPs over its minimum traffic",
      #measured > 0 and "filled" or "hollow")
  end
  if #envs > 1 then
    local words = {}
    for _, e in ipairs(envs) do words[#words + 1] = md.esc(e) .. " " .. table.concat(ridges[e], ", ") end
    parts[#parts + 1] = "Each environment's ridges (FLOP/byte) are dashed in its lines' colour and tagged with " ..
      "their precision: " .. table.concat(words, "; ") .. "."
  end
  ctx.doc:para(table.concat(parts, " "))
end

-- The roof policy in words, with what this study's groups use that departs from it.
local function policy(ctx, emulated)
  local D, doc = ctx.D, ctx.doc
  doc:para("**Roofs.** One policy decides every bound in this report, in the figures, in `rlx runs --summary` " ..
    "and in the study's stored roofline points (docs/roofline.md): a peak measured on the machine comes " ..
    "before a datasheet figure. On a CPU rlx measures the arithmetic itself: fp32 is judged against the " ..
    "FP32 FMA peak (FMA chains on all cores), bf16 against AMX tiles where the CPU has AMX, else VDPBF16PS " ..
    "chains where it has avx512_bf16, else the FP32 FMA peak labelled *emulated*, and the GEMM peak " ..
    "(LibTorch `mm`) is a second, labelled ceiling. On a GPU rlx measures GEMMs (`mm` per precision) and a " ..
    "copy bandwidth: the measured GEMM of a precision is its roof, and the datasheet's arithmetic peak is " ..
    "drawn as a dashed reference (the hardware's limit at boost clocks, which no training step reaches), " ..
    "never used for a bound; a precision with no measured figure is judged against the datasheet. An fp32 run " ..
    "with `tf32 = true` is judged against the TF32 roof.")
  if #emulated > 0 then
    doc:para(string.format("%s: no bf16 arithmetic on this CPU (no avx512_bf16, no AMX): bf16 is emulated, its " ..
      "roof is the FP32 FMA peak, and the bf16 GEMM ceiling is labelled emulated.", table.concat(emulated, ", ")))
  end
  local fallback, tf32 = {}, {}
  for _, g in ipairs(D.groups) do
    local r = compute.roofline(D, g)
    local what = string.format("%s %s %s", md.esc(g.env_key), md.esc(g.model), md.esc(g.precision))
    if r and r.roof_kind == "gemm" and g.kind == "cpu" and not fallback[what] then
      fallback[what] = true
      fallback[#fallback + 1] = what .. " (" .. md.code(r.compute_field) .. ")"
    end
    if r and r.roof_precision == "tf32" and not tf32[what] then tf32[what] = true; tf32[#tf32 + 1] = what end
  end
  if #tf32 > 0 then
    doc:para("Judged against the TF32 tensor roof (fp32 runs with `tf32 = true`): " .. table.concat(tf32, ", ") .. ".")
  end
  if #fallback > 0 then
    doc:para("⚠ Judged against a GEMM peak because the CPU's stored peaks have no peak of the precision's " ..
      "arithmetic (peaks measured by an older rlx): " .. table.concat(fallback, ", ") ..
      ". Their bounds and efficiencies are not comparable with the other precisions'; re-measure with " ..
      md.code("rlx peaks --db " .. (D.sources and #D.sources > 1 and "DB.db" or D.path or "DB.db")) ..
      " on each machine (DB.db: the database that machine's study wrote).")
  end
end

function M.section(ctx)
  local doc = ctx.doc
  doc:para("## 5. Roofline Modeling")
  local rows, sources, noisy, emulated, used = peaks_table(ctx)
  local where = ctx.to_appendix("Every stored peak and its quality", {"GFLOP/s and GB/s, decimal. Datasheet " ..
    "figures are rlx's built-in table (rlx.peaks.datasheet: boost clocks, dense tensor rates); measured ones are " ..
    "stored by " .. md.code("rlx peaks --db") .. " or the study, at the clocks of the moment: the best of the " ..
    "repeats (the figure used), their median, spread = (best - worst) / best, the repeats (a figure whose spread " ..
    "was above the limit, 10 %, or whose threads got less than 75 % of their cores is measured again, at most " ..
    "twice more), quick (short runs) or full, and the CPU share (the threads' CPU time over the wall time; " ..
    "below 75 % other processes ran and the peak reads low):",
    md.table({"Env", "Device", "Peak", "Used as", "Datasheet", "Best", "Median", "Spread", "Repeats", "Mode",
      "CPU share", "Best / datasheet"}, rows, {"l", "l", "l", "l", "r", "r", "r", "r", "r", "l", "r", "r"})})
  doc:para("**Peaks used as roofs** (decimal GFLOP/s and GB/s; a measured figure is the best of its repeats, its " ..
    "spread = (best - worst) / best; every stored peak with its median, repeats and CPU share: " .. where .. "):")
  if #used > 0 then
    doc:para(md.table({"Env", "Device", "Peak", "Used as", "Value", "Origin", "Spread"}, used,
      {"l", "l", "l", "l", "r", "l", "r"}))
  else
    doc:para("No roof is used: no point has peaks to be judged against.")
  end
  for _, e in ipairs(ctx.D.envs) do
    if e.emulated then
      doc:para(string.format("**%s: the emulator's figures, not comparable.** Its peaks and every rate measured " ..
        "there are those of %s running on %s, not of the CPU it emulates: its points are drawn and tabled, but " ..
        "get no bound class, no efficiency and no recommendation, and no comparison with another environment " ..
        "is a finding.", md.esc(e.label), md.esc(tostring(e.info.emulation.kind or "an emulator")),
        md.esc(tostring(e.info.emulation.host_cpu or "its host's CPU"))))
    end
  end
  if #noisy > 0 then
    local cmds = {}
    for path in pairs(noisy.dbs or {}) do cmds[#cmds + 1] = md.code("rlx peaks --db " .. path) end
    table.sort(cmds)
    doc:para("⚠ **Noisy or contended peaks**: " .. table.concat(noisy, "; ") .. ". The machine was busy or its " ..
      "clocks moved while these peaks were measured: points judged against them may sit above their roof or far " ..
      "below it. Re-measure on an idle machine with " .. table.concat(cmds, " or ") ..
      " (without --quick), on the machine that measured them.")
  end
  M.blas_kernels(ctx)
  local src = {}
  for s in pairs(sources) do src[#src + 1] = s end
  table.sort(src)
  ctx.references = ctx.references or {}
  for _, s in ipairs(src) do ctx.references[#ctx.references + 1] = s end
  if #src > 0 then doc:para("Datasheet sources: " .. table.concat(src, ", ") .. ".") end
  policy(ctx, emulated)
  for _, f in ipairs(ctx.figures) do
    if f.figure == "C" then doc:para(string.format("![Roofline — %s](%s)", md.esc(f.env), f.rel)) end
  end
  for _, f in ipairs(ctx.figures) do
    if f.figure == "D" then doc:para(string.format("![AI vs batch — %s](%s)", md.esc(f.model), f.rel)) end
  end
  M.figure_d_note(ctx)
  M.points(ctx)
  -- One drafted paragraph per environment and model: its bound, share of the roof, what would move it.
  for _, p in ipairs(drafts.roofline(ctx)) do doc:para(p) end
  doc:para("---")
end

--- The points whose AI lies within the ridge's range (compute.ridge_band), named with how far from the
--- ridge they are and the range: their bound is the peaks' day, not a finding.
function M.near_ridge(ctx)
  local lines = {}
  for _, g in ipairs(ctx.D.groups) do
    local r = compute.roofline(ctx.D, g)
    if r and r.near_ridge then
      local ai = r.ai_lo and r.ai_hi and (md.sig(r.ai_lo, 3) .. "-" .. md.sig(r.ai_hi, 3) ..
        (r.source == "estimated" and " (estimated: upper traffic model to minimum traffic)" or " (over repeats)"))
        or (md.sig(r.ai, 3) .. (r.source == "estimated" and " (estimated)" or ""))
      lines[#lines + 1] = string.format("- %s: AI %s, ridge %s (range %s-%s from the peaks' spread, at " ..
        "least ±5 %%)%s.",
        ctx.describe(g), ai, md.sig(r.ridge_ai, 3), md.sig(r.ridge_lo, 3), md.sig(r.ridge_hi, 3),
        r.ai_lo and "" or string.format(": %s by %.1f %%", r.ai < r.ridge_ai and "below" or "above",
          math.abs(r.ai / r.ridge_ai - 1) * 100))
    end
  end
  if #lines == 0 then return end
  ctx.doc:para("**Near the ridge.** The AI of these points (an estimate's range, or the point's) meets the range " ..
    "the ridge takes over the repeats of the peaks it is made of (peak GFLOP/s × (1 − spread) ÷ peak GB/s to peak " ..
    "GFLOP/s ÷ (peak GB/s × (1 − spread))): either roof may bind them, and the report calls them neither memory- " ..
    "nor compute-bound:"):para(lines)
end

-- The roof a row is judged against, by name ("GEMM FP32"): its value, origin and second ceiling are in
-- the peaks table once (issue 45: a 40-word cell repeated on every row ran the table off the page).
local function roof_cell(r)
  if not r.compute_field then return "-" end
  return md.esc(r.roof_label or r.compute_field)
end

-- An AI cell: an estimated point's range (upper traffic model to minimum traffic), else its mean.
local function ai_cell(r)
  if r.source == "estimated" and r.ai_lo and r.ai_hi then return md.sig(r.ai_lo, 3) .. "–" .. md.sig(r.ai_hi, 3) end
  return md.sig(r.ai, 3)
end

function M.points(ctx)
  local D, doc = ctx.D, ctx.doc
  local rows, estimated, measured, above = {}, 0, 0, {}
  for _, g in ipairs(D.groups) do
    local r = compute.roofline(D, g)
    if r then
      if r.source == "measured" then measured = measured + 1 else estimated = estimated + 1 end
      if r.above_roof then
        above[#above + 1] = string.format("- %s, %s, %s, batch %s: %s %s", md.esc(g.env_key), md.esc(g.model),
          md.esc(g.precision), tostring(g.batch), md.esc(r.suspect.text), ctx.ref(g))
      end
      local n = compute.throughput(g).n
      rows[#rows + 1] = lead.extend(lead.lead_cells(D, g), {n == 1 and "1 (n=1)" or tostring(n), r.source,
        ai_cell(r), md.sig(r.gflops, 3), md.sig(r.attainable_gflops, 3), md.esc(compute.bound_text(r)),
        r.eff_roof and (md.pct(r.eff_roof, 1) .. (r.above_roof and " ⚠" or "")) or "-",
        r.eff_peak and md.pct(r.eff_peak, 1) or "-", roof_cell(r), r.ridge_ai and md.sig(r.ridge_ai, 3) or "-",
        ctx.ref(g)})
    end
  end
  if #rows == 0 then
    doc:para("No roofline points are stored (no complexity and no counters for the ok runs).")
    ctx.missing[#ctx.missing + 1] = "no roofline points: no §5 table, no bounds"
    return
  end
  local h, a = lead.lead_headers(D)
  local where = ctx.to_appendix("Roofline points", {"DRAM level, mean over the repeats averaged in §4.1 (n: " ..
    "runs averaged). AI = FLOPs / bytes (an estimated point's: from rlx's upper traffic model to its minimum " ..
    "traffic, docs/roofline.md); attained = FLOPs / time; attainable = min(AI × peak GB/s, peak GFLOP/s) with " ..
    "the roof of the point's precision (its value and origin: the peaks table above); ridge = peak GFLOP/s ÷ " ..
    "peak GB/s; bound = " .. compute.class_rule() .. " (Appendix C); efficiency = attained / attainable " ..
    "(the roof at its AI) and attained / peak. Source: measured = hardware counters, estimated = rlx's analytic " ..
    "FLOPs and bytes over the measured iteration time:",
    md.table(lead.extend(h, {"n", "Source", "AI (FLOP/byte)", "Attained GFLOP/s", "Attainable GFLOP/s", "Bound",
      "% of roof", "% of peak", "Roof", "Ridge", "Runs"}), rows,
      lead.extend(a, {"r", "l", "r", "r", "r", "l", "r", "r", "l", "r", "l"}))})
  ctx.points_where = where
  doc:para(string.format("**Points.** %d point%s (one per configuration; %d measured by counters, %d estimated from " ..
    "analytic FLOPs and minimum DRAM bytes): AI, attained and attainable GFLOP/s, bound and efficiency of each in " ..
    "%s. Table 2 (§6) gives each row's AI and bound.", measured + estimated, measured + estimated == 1 and "" or "s",
    measured, estimated, where))
  M.near_ridge(ctx)
  if #above > 0 then
    doc:para(string.format("⚠ **%d point%s above %s own roof** (drawn hollow and marked ! in the figures; never " ..
      "clipped): a roof or a count is wrong, and the first suspect is named:", #above, #above == 1 and "" or "s",
      #above == 1 and "its" or "their"))
    doc:para(table.concat(above, "\n"))
  else
    doc:para("No point lies above its own roof.")
  end
end

return M
