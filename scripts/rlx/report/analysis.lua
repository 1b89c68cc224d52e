-- rlx.report.analysis: §6 of report.md: Table 2 and the generated statements, each with the numbers
-- it rests on: precision speedups with 95% CIs, ratios between environments, estimated vs measured
-- FLOPs/bytes and memory, and memory- to compute-bound transitions across batch sizes.
local md = require("rlx.report.md")
local compute = require("rlx.report.compute")
local data = require("rlx.studydb.data")
local stats = require("rlx.stats")
local configs = require("rlx.studydb.configs")
local sections = require("rlx.report.sections")
local pairing = require("rlx.report.pairs")
local table2 = require("rlx.report.table2")
local lead = require("rlx.report.lead")
local experiment = require("rlx.experiment")
local H = require("rlx.report.hypotheses")
local drafts = require("rlx.report.drafts")
local knobs = require("rlx.report.knobs")
local scaling = require("rlx.report.scaling")
local lead_cells, lead_headers, extend = lead.lead_cells, lead.lead_headers, lead.extend
local M = {}

-- mark: configs.MARK when a side's every run was flagged (its mean is not trustworthy).
-- Ratios to two decimals, or three significant digits below 0.1 and from 10 up (a GPU over a CPU:
-- "202×", not "202.02×"; a CPU over a GPU read "0.04×").
local function ratio_num(x)
  if (math.abs(x) < 0.1 or math.abs(x) >= 10) and x ~= 0 then return md.sig(x, 3) end
  return string.format("%.2f", x)
end

local function ci_text(r, mark)
  if not r then return "-" end
  mark = mark or ""
  if not r.low then return ratio_num(r.ratio) .. "×" .. mark end
  return string.format("%s× (95%% CI [%s, %s])", ratio_num(r.ratio), ratio_num(r.low), ratio_num(r.high)) .. mark
end
M.ci_text = ci_text

function M.table2(ctx)
  -- The one builder of Table 2 (rlx.report.table2), which `rlx runs --summary` prints too.
  local T = table2.build(ctx.D, ctx.ref)
  local sources = T.sources
  ctx.doc:para("**Table 2 — Summary (mean ± SD over repeats, with the 95 % CI of the mean images/s)**")
  ctx.doc:para(md.table(T.headers, T.rows, T.aligns))
  ctx.doc:para("n: runs averaged, of the row's ok runs (" .. configs.left_out_words(ctx.D.ok) ..
    " runs are left out: which and " ..
    "why in " ..
    "the row's Left out cell of the throughput table, Appendix F.2; a row resting on one run of several says " ..
    "which of them it is). " ..
    "95 % CI of the mean: mean ± t₀.₉₇₅(n − 1) · SD / √n over the runs averaged. " ..
    (sources.estimated and "Estimated AI and GFLOP/s: analytic training FLOPs over DRAM bytes and the measured " ..
      "iteration time (docs/complexity.md); an estimated AI is a range, from rlx's upper traffic model (every " ..
      "pass its own kernel, nothing reused between kernels) to its minimum traffic (docs/roofline.md). " or "") ..
    "Bound: " .. compute.class_rule() .. ". Stable: runs whose timed iterations reached a " ..
    "steady state / runs with a verdict ('-': none has one: not recorded, or too few timed iterations to judge).")
  if T.marked then sections.mark_legend(ctx) end
end

-- "1 + 3", "1 (n=1) + 1 (n=1)": the runs of each side of a ratio, a single run marked (issue 45).
local function n_text(a, b)
  local function one(n) return n == 1 and "1 (n=1)" or tostring(n) end
  return one(a) .. " + " .. one(b)
end

local function config_cells(D, g)
  local c = {}
  for _, x in ipairs(configs.cells(D.varying or {}, g.runs[1])) do c[#c + 1] = md.esc(x) end
  return c
end

local function mark_of(...)
  for _, t in ipairs({...}) do if t.all_flagged then return " " .. configs.MARK end end
  return ""
end

function M.precision(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("### 6.1 Precision: fp32 → amp / bf16")
  -- Pairs share every configuration field but the precision (rlx.report.pairs).
  local rows = {}
  for _, x in ipairs(pairing.precision(D)) do
    local g, h, a, b, r = x.base, x.other, x.ta, x.tb, x.r
    local row = extend({md.esc(g.env_key), md.esc(g.model), tostring(g.batch)}, config_cells(D, g))
    rows[#rows + 1] = extend(row, {x.precision, md.sig(b.mean, 3), md.sig(a.mean, 3), ci_text(r, mark_of(a, b)),
      r.df and md.fixed(r.df, 1) or "-", n_text(r.n_a, r.n_b), ctx.ref(g) .. " " .. ctx.ref(h)})
  end
  local has_cuda = false
  for _, g in ipairs(D.groups) do has_cuda = has_cuda or g.kind == "cuda" end
  if not has_cuda then
    doc:para("No CUDA environment: no AMP rows.")
    ctx.missing[#ctx.missing + 1] = "no CUDA environment: no AMP rows"
  end
  -- Question 2 on a CPU (issue 55): the fp32/bf16 pairs a CPU ran, with the intensity beside the
  -- throughput, or why a CPU has none (no native bf16: its bf16 would measure the emulation).
  local cpu_lines, paired_env = {}, {}
  for _, x in ipairs(pairing.precision(D)) do
    if x.base.kind == "cpu" and x.precision == "bf16" then
      paired_env[x.base.runs[1].environment_id] = true
      local ra, rb = compute.roofline(D, x.base), compute.roofline(D, x.other)
      local x_text, q = pairing.ratio_parts(x.r)
      cpu_lines[#cpu_lines + 1] = string.format("%s, %s, batch %d: bf16 trains at %s the images/s of fp32 (%s)%s %s",
        md.esc(x.base.env_key), md.esc(x.base.model), x.base.batch, x_text, q,
        (ra and rb and ra.ai and rb.ai) and string.format(", its AI %s against fp32's %s FLOP/byte (%s)",
          md.sig(rb.ai, 3), md.sig(ra.ai, 3), rb.source == "estimated" and "estimated" or "measured") or "",
        ctx.ref(x.base) .. " " .. ctx.ref(x.other))
    end
  end
  for _, e in ipairs(D.envs) do
    if e.kinds and e.kinds.cpu and not paired_env[e.id] and not e.emulated then
      local info = type(e.info) == "table" and e.info or {}
      local native = experiment.native_bf16({cpu_flags = info.cpu_flags or e.cpu_flags})
      cpu_lines[#cpu_lines + 1] = string.format("%s: no fp32/bf16 pair: %s", md.esc(e.label), native and
        "this CPU has native bf16, but no bf16 run of a configuration run in fp32 is stored (the default plan " ..
        "keeps one pair per model; --set precision=fp32,bf16 adds them)" or
        "this CPU has no native bf16 (no avx512_bf16 or AMX), so its bf16 would measure LibTorch's emulation, " ..
        "not the format")
    end
  end
  if #cpu_lines > 0 then
    doc:para("Question 2 on a CPU (how precision moves intensity and throughput): " .. table.concat(cpu_lines, "; ") .. ".")
  end
  if #rows == 0 then
    doc:para("No configuration was run in fp32 and in amp or bf16 with the same model and batch: no speedups.")
    ctx.missing[#ctx.missing + 1] = "no fp32 / amp or bf16 pairs: no precision speedups"
    return
  end
  doc:para("Speedup = mean images/s in the lower precision ÷ mean images/s in fp32, with a 95% confidence " ..
    "interval over repeats (delta method, Welch–Satterthwaite degrees of freedom, Student's t; Appendix C):")
  local h = extend({"Env", "Model", "Batch"}, configs.headers(D.varying or {}))
  local a = {"l", "l", "r"}
  for _ = 4, #h do a[#a + 1] = "l" end
  doc:para(md.table(extend(h, {"Precision", "fp32 images/s", "images/s", "Speedup", "df", "n", "Runs"}), rows,
    extend(a, {"l", "r", "r", "r", "r", "r", "l"})))
end

-- Workload columns of §6.2: model, precision, batch, then input, data and ranks where the study's
-- rows differ in them (rlx.studydb.configs.workload_key).
local WORKLOAD_VARYING = {input = true, data = true, ranks = true}
local function workload_fields(D)
  local out = {}
  for _, f in ipairs(D.varying or {}) do if WORKLOAD_VARYING[f.name] then out[#out + 1] = f end end
  return out
end
local function workload_cells(D, g)
  local cells = {md.esc(g.model), md.esc(g.precision), tostring(g.batch)}
  for _, x in ipairs(configs.cells(workload_fields(D), g.runs[1])) do cells[#cells + 1] = md.esc(x) end
  return cells
end
local function workload_headers(D)
  local h, a = {"Model", "Precision", "Batch"}, {"l", "l", "r"}
  for _, x in ipairs(configs.headers(workload_fields(D))) do h[#h + 1] = x; a[#a + 1] = "l" end
  return h, a
end

-- "4.09 (2; ±9.2 %)": a side's mean images/s, n and the median 95 % CI its runs reached.
local function side_cell(g, t)
  local p = configs.precision_reached(compute.used(g))
  return string.format("%s (%s%s)%s", md.sig(t.mean, 3), t.n == 1 and "n=1" or tostring(t.n),
    p and string.format("; ±%s %%", md.fixed(p.median * 100, p.median < 0.01 and 2 or 1)) or "", t.mark)
end

-- "resnet50 fp32 bs64: epyc-2c protocol CI ≤ 2 %, device cpu, channels_last; h100 protocol 3 / 8,
-- device cuda:0, contiguous": the configuration fields beyond the workload where the sides differ.
local function side_note(g, h)
  local a, b = configs.of(g.runs[1]), configs.of(h.runs[1])
  local pa, pb = {}, {}
  for _, f in ipairs(configs.FIELDS) do
    if not WORKLOAD_VARYING[f.name] and a[f.name] ~= b[f.name] then
      pa[#pa + 1], pb[#pb + 1] = f.text(a), f.text(b)
    end
  end
  if #pa == 0 then return "" end
  return string.format("%s %s batch %s: %s %s; %s %s", md.esc(g.model), md.esc(g.precision), tostring(g.batch),
    md.esc(g.env_key), md.esc(table.concat(pa, ", ")), md.esc(h.env_key), md.esc(table.concat(pb, ", ")))
end

function M.environments(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("### 6.2 Across environments")
  local envs = lead.env_keys(D)
  if #envs == 0 then
    doc:para("No successful runs: no ratios between environments.")
    return
  end
  if #envs < 2 then
    doc:para(string.format("One environment (%s): no ratios between environments (combine databases with " ..
      "%s).", md.esc(envs[1] or "none"), md.code("rlx merge")))
    ctx.missing[#ctx.missing + 1] = "one environment: no cross-environment ratios"
    return
  end
  -- Environments are compared on the workload (model, precision, batch, input, data: issue 34),
  -- each side under its own protocol, device, memory format and threads, stated in the row; within
  -- one environment, groups of different protocols stay apart (one row per pair). The faster
  -- environment is A, so the ratio reads as a speedup (a GPU over a CPU: 202×, not 0.00495×).
  local rows, notes = {}, {}
  for _, p in ipairs(pairing.environments(D, envs)) do
    local x, y, a, b, r = p.x, p.y, p.a, p.b, p.r
    rows[#rows + 1] = extend(workload_cells(D, x), {md.esc(x.env_key .. " / " .. y.env_key),
      side_cell(x, a), side_cell(y, b), ci_text(r, mark_of(a, b)), ctx.ref(x) .. " " .. ctx.ref(y)})
    notes[#notes + 1] = side_note(x, y)
  end
  if #rows == 0 then
    doc:para("No workload (model, precision, batch, input, data) was run in two environments: no ratios.")
    ctx.missing[#ctx.missing + 1] = "no configuration shared by two environments: no cross-environment ratios"
    return
  end
  doc:para("Ratio of mean images/s for the same workload (model, precision, batch, input, data), each environment " ..
    "under its own protocol; A is the faster one. A and B give each side's mean images/s, n, and the 95 % CI its " ..
    "runs reached on their mean iteration time (median over the runs); the ratio's 95 % CI as in §6.1:")
  local h, al = workload_headers(D)
  doc:para(md.table(extend(h, {"Envs (A / B)", "A: images/s (n; run CI)", "B: images/s (n; run CI)", "A / B", "Runs"}),
    rows, extend(al, {"l", "r", "r", "r", "l"})))
  local seen, lines = {}, {}
  for _, n in ipairs(notes) do
    if n ~= "" and not seen[n] then seen[n] = true; lines[#lines + 1] = "- " .. n end
  end
  if #lines > 0 then doc:para("How each side ran (what differs beyond the workload):"):para(lines) end
end

-- What the counters of a run measured: its measured DRAM point when it has one, else the
-- derived totals of any counter source (an imported ncu CSV attaches counters without a point).
-- Returns {source, flops, bytes, iterations} or nil.
local function measured(D, run)
  local derived = data.derived_counters(D, run)
  local source, totals
  for s, c in pairs(derived) do
    if type(c.flops) == "number" and c.flops > 0 and type(c.dram_bytes) == "number" and c.dram_bytes > 0 and
        (not source or s < source) then
      source, totals = s, c
    end
  end
  local m
  for _, q in ipairs(D.points[run.id] or {}) do
    -- A measured point already holds FLOPs and bytes per iteration (rlx.roofline.for_run).
    if q.level == "dram" and q.source == "measured" then m = {flops = q.flops, bytes = q.bytes, per_iteration = true} end
  end
  if not m and totals then m = {flops = totals.flops, bytes = totals.dram_bytes} end
  if not m then return nil end
  m.source = source or "counters"
  m.iterations = run.counter_iters or (totals and totals.iterations)
  if type(m.iterations) ~= "number" or m.iterations <= 0 then m.iterations = nil end
  return m
end

-- Measured ÷ analytic FLOPs within this range are the counting's own noise (issue 55); outside it,
-- or where the analytic FLOPs over the step's time exceed the roof, the report states a likely
-- cause or says the gap is unexplained (docs/report.md, §6.3).
M.FLOP_RATIO_LO, M.FLOP_RATIO_HI = 0.8, 1.25

-- Models built of convolutions, where cuDNN may pick an algorithm that does fewer FLOPs.
local CONV_MODELS = {"resnet", "vgg", "mobilenet", "efficientnet", "densenet", "alexnet", "inception",
  "squeezenet", "convnext", "regnet", "lenet", "shufflenet", "googlenet"}
local function convolutional(model)
  model = tostring(model or ""):lower()
  for _, m in ipairs(CONV_MODELS) do if model:find(m, 1, true) then return true end end
  return false
end

--- The likely cause of a measured ÷ analytic FLOP ratio outside [FLOP_RATIO_LO, FLOP_RATIO_HI]
--- (issue 55): ratio, kind ("cuda", "cpu"), model, tensor (the counted tensor-core ops). Returns a
--- phrase, "unexplained: ..." where the data holds no cause, or nil for a ratio within the range.
function M.flop_cause(ratio, kind, model, tensor)
  if not ratio or (ratio >= M.FLOP_RATIO_LO and ratio <= M.FLOP_RATIO_HI) then return nil end
  if ratio < M.FLOP_RATIO_LO then
    if kind == "cuda" and convolutional(model) then
      return "likely cause: cuDNN ran convolution algorithms that do fewer FLOPs than the direct convolution " ..
        "rlx counts (Winograd on 3×3 convolutions: 2.25× fewer multiplies for F(2×2, 3×3); FFT); the counters " ..
        "count the work that ran, the analytic FLOPs the layers' multiply-adds"
    end
    return "unexplained: no algorithm known to this report does fewer FLOPs here (check the counted metrics, " ..
      "docs/counters.md)"
  end
  if kind == "cuda" and (tonumber(tensor) or 0) > 0 then
    return "likely cause: tensor-core paths (sm__ops_path_tensor_*) count the operations of whole tiles, channels " ..
      "padded to the tile, more than the layers' multiply-adds"
  end
  return "unexplained: the counters saw more FLOPs than the layers do (recomputation, or a counting rule; " ..
    "docs/counters.md)"
end

-- §6.3's causes: per environment, model and precision, the measured ÷ analytic FLOP ratios outside
-- the range, and the rows whose analytic FLOPs over their step's time sit above their roof.
local function flop_causes(ctx)
  local D = ctx.D
  local by, order = {}, {}
  for _, g in ipairs(D.groups) do
    local ratios, tensor, an = {}, 0, {}
    for _, r in ipairs((compute.used(g))) do
      local c = D.complexity[r.id]
      local m = c and c.train_flops and measured(D, r)
      local f = m and (m.per_iteration and m.flops or (m.iterations and m.flops and m.flops / m.iterations))
      if f and c.train_flops > 0 then ratios[#ratios + 1] = f / c.train_flops end
      for _, t in pairs(data.derived_counters(D, r)) do tensor = tensor + (tonumber(t.flops_tensor) or 0) end
      if c and c.train_flops and type(r.iter_mean_s) == "number" and r.iter_mean_s > 0 then
        an[#an + 1] = c.train_flops / r.iter_mean_s / 1e9
      end
    end
    local ratio = stats.mean(ratios)
    local R = #an > 0 and not g.emulated and compute.roofs_of(D, g.runs[1], g.precision)
    local gf = stats.mean(an)
    local above = R and R.roof and gf and gf > R.roof.gflops and {gflops = gf, roof = R.roof} or nil
    local cause = M.flop_cause(ratio, g.kind, g.model, tensor)
    if cause or above then
      local k = g.env_key .. "\0" .. g.model .. "\0" .. g.precision
      if not by[k] then by[k] = {g = g, rows = {}}; order[#order + 1] = k end
      table.insert(by[k].rows, {g = g, ratio = ratio, cause = cause, above = above})
    end
  end
  local out = {}
  for _, k in ipairs(order) do
    local e, ratios, batches, refs, aboves, cause = by[k], {}, {}, {}, {}, nil
    for _, x in ipairs(e.rows) do
      if x.cause then
        ratios[#ratios + 1] = string.format("%.2f", x.ratio)
        batches[#batches + 1] = tostring(x.g.batch)
        cause = cause or x.cause
      end
      if x.above then
        aboves[#aboves + 1] = string.format("batch %d reaches %s GFLOP/s, above its %s roof of %s", x.g.batch,
          md.sig(x.above.gflops, 4), md.esc(x.above.roof.label or "compute"), md.sig(x.above.roof.gflops, 4))
      end
      refs[#refs + 1] = ctx.ref(x.g)
    end
    local head = string.format("%s, %s, %s: ", md.esc(e.g.env_key), md.esc(e.g.model), md.esc(e.g.precision))
    local parts = {}
    if #ratios > 0 then
      parts[#parts + 1] = string.format("measured ÷ analytic FLOPs %s at batch %s (outside %.2f-%.2f): %s",
        table.concat(ratios, ", "), table.concat(batches, ", "), M.FLOP_RATIO_LO, M.FLOP_RATIO_HI, cause)
    end
    if #aboves > 0 then
      parts[#parts + 1] = "counted with rlx's analytic FLOPs, " .. table.concat(aboves, "; ") ..
        (cause and not cause:find("^unexplained") and ": the analytic count is more work than ran (the cause above)" or
          ": unexplained by the counters (a roof measured low, or more FLOPs counted than ran; no counters to tell)")
    end
    out[#out + 1] = "- " .. head .. table.concat(parts, "; ") .. " " .. table.concat(refs, " ") .. "."
  end
  return out
end
M.flop_causes = flop_causes

function M.counters(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("### 6.3 Estimated vs measured FLOPs and bytes")
  local rows = {}
  for _, r in ipairs(D.ok) do
    local c = D.complexity[r.id]
    local m = c and measured(D, r)
    if m then
      local f = m.per_iteration and m.flops or (m.iterations and m.flops and m.flops / m.iterations)
      local b = m.per_iteration and m.bytes or (m.iterations and m.bytes and m.bytes / m.iterations)
      local est_ai = c.ai or (c.train_flops and c.bytes and c.train_flops / c.bytes)
      rows[#rows + 1] = {md.code(r.label), md.esc(m.source), md.sig(c.train_flops and c.train_flops / 1e9, 4),
        md.sig(f and f / 1e9, 4), (f and c.train_flops) and string.format("%.2f", f / c.train_flops) or "-",
        md.sig(c.bytes and c.bytes / 1e9, 4), md.sig(b and b / 1e9, 4),
        (b and c.bytes) and string.format("%.2f", b / c.bytes) or "-", md.fixed(est_ai, 2),
        md.fixed(m.flops / m.bytes, 2)}
    end
  end
  if #rows == 0 then
    doc:para("No run has measured counters with an analytic estimate beside them: every roofline point is " ..
      "estimated (collect counters with " .. md.code("counters = true") .. " in the sweep, or import Nsight Compute " ..
      "CSVs with " .. md.code("rlx import-ncu FILE.csv --run LABEL --db DB") .. ").")
    ctx.missing[#ctx.missing + 1] = "no hardware counters: no measured FLOPs or bytes, every roofline point estimated"
    return
  end
  local where = ctx.to_appendix("Estimated vs measured FLOPs and bytes per run", {"Per training iteration " ..
    "(G = 1e9). Measured = the counters' FLOPs and DRAM bytes over the counted iterations ÷ their number; '-' " ..
    "where that number is not stored (an imported Nsight CSV covers whatever the profiler captured). AI is a " ..
    "ratio and needs no count:",
    md.table({"Run", "Counters", "FLOPs est. (G)", "FLOPs meas. (G)", "meas. / est.", "Bytes est. (GB)",
      "Bytes meas. (GB)", "meas. / est.", "AI est.", "AI meas."}, rows, {"l", "l", "r", "r", "r", "r", "r", "r", "r", "r"})})
  local lo, hi = math.huge, 0
  for _, r in ipairs(rows) do
    local e, m = tonumber(r[9]), tonumber(r[10])
    if e and m and e > 0 then lo, hi = math.min(lo, m / e), math.max(hi, m / e) end
  end
  doc:para(string.format("%d run%s carr%s counters beside rlx's estimate (%s)%s.", #rows, #rows == 1 and "" or "s",
    #rows == 1 and "ies" or "y", where, hi > 0 and string.format(": measured AI ÷ estimated AI from %.2f to %.2f " ..
      "(below 1: the hardware moved more bytes per FLOP than the minimum traffic rlx counts)", lo, hi) or ""))
  local causes = flop_causes(ctx)
  if #causes > 0 then
    doc:para(string.format("FLOP counts that do not agree (measured ÷ analytic outside %.2f-%.2f), or an analytic " ..
      "point above its roof, with their likely cause:", M.FLOP_RATIO_LO, M.FLOP_RATIO_HI) .. "\n\n" ..
      table.concat(causes, "\n"))
  else
    doc:para(string.format("Measured ÷ analytic FLOPs lie within %.2f-%.2f for every configuration with counters, " ..
      "and no analytic point lies above its roof.", M.FLOP_RATIO_LO, M.FLOP_RATIO_HI))
  end
end

function M.memory(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("### 6.4 Estimated vs measured memory")
  local rows, ratio_lo, ratio_hi = {}, math.huge, 0
  for _, g in ipairs(D.groups) do
    local c
    for _, r in ipairs(g.runs) do c = c or D.complexity[r.id] end
    -- The figure §4.3 shows (one function: the two sections disagreed on a row, issue 34).
    local m, what, n = compute.peak_memory(g)
    if c and c.memory_bytes and m then
      rows[#rows + 1] = extend(lead_cells(D, g), {md.mb(c.memory_bytes), md.mb(m), what,
        string.format("%.2f×", m / c.memory_bytes), ctx.ref(g) .. (n == 1 and " (n=1)" or "")})
      ratio_lo, ratio_hi = math.min(ratio_lo, m / c.memory_bytes), math.max(ratio_hi, m / c.memory_bytes)
    end
  end
  if #rows == 0 then
    doc:para("No run stored both an estimated training memory and a measured peak: no comparison.")
    ctx.missing[#ctx.missing + 1] = "no measured memory beside an estimate: no memory comparison"
    return
  end
  local h, al = lead_headers(D)
  local where = ctx.to_appendix("Estimated vs measured memory per configuration", {"Estimated training memory " ..
    "(parameters, gradients, momentum, buffers, saved activations; docs/complexity.md) against the measured " ..
    "peak, mean over every ok run, as §4.3 (MB = 1e6 bytes). A CPU's peak RSS also holds the runtime and " ..
    "libraries, so its ratio overstates the training state:",
    md.table(extend(h, {"Estimated (MB)", "Measured (MB)", "Measured as", "meas. / est.", "Runs"}), rows,
      extend(al, {"r", "r", "l", "r", "l"}))})
  doc:para(string.format("Measured peak memory ÷ rlx's estimate ranges from %.2f× to %.2f× over %d configuration%s " ..
    "(%s).", ratio_lo, ratio_hi, #rows, #rows == 1 and "" or "s", where))
end

-- A point's class: "memory-bound", "compute-bound", or "near the ridge" when its AI lies in the
-- ridge's range (§5, Table 2's Bound column): a series is told in the classes Table 2 shows.
local function class_of(x) return compute.class_of(x.r) end

-- "memory-bound at batch 16 (AI 4.69) → near the ridge at batch 32, 64 (AI 4.73, 4.75); ridge 4.78
-- FLOP/byte, its range 4.69-5.30": the series' batches in runs of one class, in batch order.
local function transition_text(s)
  local runs = {}
  for _, x in ipairs(s) do
    local c = class_of(x)
    if #runs == 0 or runs[#runs].class ~= c then runs[#runs + 1] = {class = c, batches = {}, ais = {}} end
    table.insert(runs[#runs].batches, tostring(x.g.batch))
    table.insert(runs[#runs].ais, string.format("%.2f", x.r.ai))
  end
  local last = s[#s].r
  local range = last.ridge_lo and string.format(", its range %.2f-%.2f", last.ridge_lo, last.ridge_hi) or ""
  local ridge = string.format("ridge %.2f FLOP/byte%s", last.ridge_ai, range)
  if #runs == 1 and #s > 1 then
    return string.format("%s at every batch (%s to %s, AI %s to %s; %s).", runs[1].class, s[1].g.batch,
      s[#s].g.batch, runs[1].ais[1], runs[1].ais[#runs[1].ais], ridge)
  end
  local parts = {}
  for _, r in ipairs(runs) do
    parts[#parts + 1] = string.format("%s at batch %s (AI %s)", r.class, table.concat(r.batches, ", "),
      table.concat(r.ais, ", "))
  end
  local near = ""
  for _, r in ipairs(runs) do
    if r.class == "near the ridge" then near = " Near the ridge either roof may bind." end
  end
  return table.concat(parts, " → ") .. (#s == 1 and ", the only batch size" or "") .. "; " .. ridge .. "." .. near
end

function M.transitions(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("### 6.5 Memory- vs compute-bound across batch sizes")
  local series, order = {}, {}
  for _, g in ipairs(D.groups) do
    local r = compute.roofline(D, g)
    if r and r.bound then
      local k = configs.key(g.runs[1], {batch = true})
      if not series[k] then series[k] = {}; order[#order + 1] = k end
      table.insert(series[k], {g = g, r = r})
    end
  end
  if #order == 0 then
    doc:para("No point has a bound (no roofs or no points): nothing to say about transitions.")
    return
  end
  local lines = {}
  for _, k in ipairs(order) do
    local g0 = series[k][1].g
    local extra = configs.describe(D.varying or {}, g0.runs[1])
    local head = string.format("- %s, %s, %s%s: ", md.esc(g0.env_key), md.esc(g0.model), md.esc(g0.precision),
      extra ~= "" and (", " .. md.esc(extra)) or "")
    lines[#lines + 1] = head .. transition_text(series[k])
  end
  doc:para(lines)
end

--- §6.6: each hypothesis the study declared, judged against the CIs of the rows it names
--- (rlx.report.hypotheses), with the numbers of every pair or point it rests on.
function M.hypotheses(ctx)
  local hs = ctx.hypotheses or {}
  if #hs == 0 then return end
  ctx.doc:para("### 6.6 Hypotheses")
  ctx.doc:para("Each hypothesis of §2, judged against the rows it names: a ratio " ..
    "is **supported** when every pair's 95 % CI lies on the claimed side of its threshold, **rejected** when a " ..
    "pair's CI lies wholly on the other side, **undecided** otherwise (a CI across the threshold, or a side " ..
    "with one run and so no CI); a bound is supported when every point has it, rejected when one has the " ..
    "other, undecided near the ridge; **untested** when the study has no rows it names.")
  local lines = {}
  for i, x in ipairs(hs) do
    local parts = {}
    for _, p in ipairs(x.result.parts) do
      if p.ratio then
        local what = x.h.kind == "speedup" and string.format("%s, batch %d", p.a.env_key, p.a.batch) or
          x.h.kind == "batch" and string.format("%s, %s %s", p.a.env_key, p.a.model, p.a.precision) or
          x.h.kind == "ranks" and string.format("%s, %s, %d ranks × batch %d against %d × batch %d", p.a.env_key,
            p.a.precision, x.h.test.ranks, p.a.batch, x.h.test.over, p.b.batch) or
          string.format("%s %s batch %d", p.a.model, p.a.precision, p.a.batch)
        if x.h.kind ~= "batch" and not x.h.test.model then what = p.a.model .. ", " .. what end
        parts[#parts + 1] = string.format("%s: %s, %s %s", md.esc(what), pairing.ratio_words(p.ratio), p.verdict,
          ctx.ref(p.a) .. " " .. ctx.ref(p.b))
      else
        parts[#parts + 1] = string.format("%s: %s, %s %s", md.esc(ctx.describe(p.g)),
          md.esc(compute.bound_text(p.placed)), p.verdict, ctx.ref(p.g))
      end
    end
    local missing = x.result.missing_envs or {}
    local subset = #missing > 0 and string.format(" Judged without %s: %s no row it names, so the verdict holds " ..
      "for the environments above only.", md.esc(table.concat(missing, ", ")), #missing == 1 and "it has" or "they have")
      or ""
    lines[#lines + 1] = string.format("- **H%d. %s** — **%s** (%s). %s%s", i, md.esc(x.h.text), x.result.verdict,
      md.esc(H.test_text(x.h)), #parts > 0 and (table.concat(parts, "; ") .. ".") or
      (x.result.why and (md.esc(x.result.why) .. ": train with ranks > 1 (`rlx train --ranks 2`, or " ..
        "`ranks = {1, 2}` in study:sweep{}; docs/training.md, \"Data-parallel\").") or
      "No rows of this study match it: run the configurations it names."), subset)
  end
  ctx.doc:para(lines)
end

function M.section(ctx)
  local doc = ctx.doc
  doc:para("## 6. Analysis & Discussion")
  -- One drafted paragraph per model (its speedups, batch trends, ratios across environments and
  -- roofline classes, each cited), then what only the author can add.
  for _, p in ipairs(drafts.models(ctx)) do doc:para(p.text) end
  doc:para(md.placeholder("What surprised you, and your judgement of the causes (framework knobs such as " ..
    "channels-last or AMP, virtualization, data loading, the hardware's ceilings; optional: cost per image)."))
  M.table2(ctx)
  M.precision(ctx)
  M.environments(ctx)
  M.counters(ctx)
  M.memory(ctx)
  M.transitions(ctx)
  M.hypotheses(ctx)
  knobs.section(ctx)
  scaling.section(ctx)
  doc:para("### Takeaways")
  local t = drafts.takeaways(ctx)
  doc:para(t or "No ratio between two measured configurations: no takeaway rests on a number here.")
  doc:para("---")
end

return M
