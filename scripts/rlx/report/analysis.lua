-- rlx.report.analysis: §6 of report.md: Table 2 and the generated statements, each with the numbers
-- it rests on: precision speedups with 95% CIs, ratios between environments, estimated vs measured
-- FLOPs/bytes and memory, and memory- to compute-bound transitions across batch sizes.
local md = require("rlx.report.md")
local compute = require("rlx.report.compute")
local data = require("rlx.results.data")
local stats = require("rlx.stats")
local configs = require("rlx.results.configs")
local sections = require("rlx.report.sections")
local lead_cells, lead_headers, extend = sections.lead_cells, sections.lead_headers, sections.extend
local M = {}

-- mark: configs.MARK when a side's every run was flagged (its mean is not trustworthy).
local function ci_text(r, mark)
  if not r then return "-" end
  mark = mark or ""
  if not r.low then return string.format("%.2f×", r.ratio) .. mark end
  return string.format("%.2f× (95%% CI [%.2f, %.2f])", r.ratio, r.low, r.high) .. mark
end
M.ci_text = ci_text

-- "k/n": runs of a group that reached a steady state, of those with a verdict.
function M.stable_cell(g)
  local k, n = 0, 0
  for _, r in ipairs(g.runs) do
    if r.stable ~= nil then
      n = n + 1
      if r.stable == 1 then k = k + 1 end
    end
  end
  return n > 0 and string.format("%d/%d", k, n) or "-"
end

function M.table2(ctx)
  local D, rows, marked = ctx.D, {}, false
  for _, g in ipairs(D.groups) do
    local t = compute.throughput(g)
    local r = compute.roofline(D, g)
    marked = marked or t.all_flagged
    rows[#rows + 1] = extend(lead_cells(D, g), {tostring(t.n), md.mean_sd_sig(t.mean, t.sd) .. t.mark,
      r and (md.mean_sd_sig(r.gflops, r.gflops_sd) .. t.mark) or "-", r and md.mean_sd_sig(r.ai, r.ai_sd) or "-",
      r and r.bound or "-", r and r.source or "-", M.stable_cell(g), md.esc(t.note), ctx.ref(g)})
  end
  ctx.doc:para("**Table 2 — Summary (mean ± SD over repeats)**")
  local h, a = lead_headers(D)
  ctx.doc:para(md.table(extend(h, {"n", "Images/s", "Attained GFLOP/s", "AI", "Bound", "Source", "Stable",
    "Left out", "Runs"}), rows, extend(a, {"r", "r", "r", "r", "l", "l", "r", "l", "l"})))
  ctx.doc:para("n: runs averaged. Stable: runs of the row whose timed iterations reached a steady state / runs " ..
    "with a verdict ('-': not recorded). Left out: unsteady or contended runs, not averaged (docs/report.md).")
  if marked then sections.mark_legend(ctx) end
end

-- Groups by their full configuration but `field` (precision or env_key), then that field's value:
-- idx[configs.key(run, {[field] = true}) .. "\0" .. value]. The partner of a group differs from it
-- in that field only.
local function index(D, field)
  local idx = {}
  for _, g in ipairs(D.groups) do idx[configs.key(g.runs[1], {[field] = true}) .. "\0" .. tostring(g[field])] = g end
  return idx
end

local function partner(idx, g, field, value)
  return idx[configs.key(g.runs[1], {[field] = true}) .. "\0" .. tostring(value)]
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
  -- Pairs share every configuration field but the precision.
  local idx = index(D, "precision")
  local rows = {}
  for _, g in ipairs(D.groups) do
    if g.precision == "fp32" then
      for _, p in ipairs({"amp", "bf16"}) do
        local h = partner(idx, g, "precision", p)
        if h then
          local a, b = compute.throughput(h), compute.throughput(g)
          local r = stats.ratio_ci95(a.values, b.values)
          if r then
            local row = extend({md.esc(g.env_key), md.esc(g.model), tostring(g.batch)}, config_cells(D, g))
            rows[#rows + 1] = extend(row, {p, md.sig(b.mean, 3), md.sig(a.mean, 3), ci_text(r, mark_of(a, b)),
              r.df and md.fixed(r.df, 1) or "-", string.format("%d + %d", r.n_a, r.n_b), ctx.ref(g) .. " " .. ctx.ref(h)})
          end
        end
      end
    end
  end
  local has_cuda = false
  for _, g in ipairs(D.groups) do has_cuda = has_cuda or g.kind == "cuda" end
  if not has_cuda then
    doc:para("No CUDA environment: no AMP rows.")
    ctx.missing[#ctx.missing + 1] = "no CUDA environment: no AMP rows"
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

function M.environments(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("### 6.2 Across environments")
  local envs = require("rlx.report.sections").env_keys(D)
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
  -- Pairs share every configuration field but the environment (input, protocol, data, ...).
  local idx = index(D, "env_key")
  local rows = {}
  for i = 1, #envs do
    for j = i + 1, #envs do
      for _, g in ipairs(D.groups) do
        if g.env_key == envs[i] then
          local h = partner(idx, g, "env_key", envs[j])
          if h then
            local a, b = compute.throughput(g), compute.throughput(h)
            local r = stats.ratio_ci95(a.values, b.values)
            if r then
              local row = extend({md.esc(g.model), md.esc(g.precision), tostring(g.batch)}, config_cells(D, g))
              rows[#rows + 1] = extend(row, {md.esc(envs[i] .. " / " .. envs[j]), md.sig(a.mean, 3),
                md.sig(b.mean, 3), ci_text(r, mark_of(a, b)), ctx.ref(g) .. " " .. ctx.ref(h)})
            end
          end
        end
      end
    end
  end
  if #rows == 0 then
    doc:para("No configuration (model, precision, batch) was run in two environments: no ratios.")
    ctx.missing[#ctx.missing + 1] = "no configuration shared by two environments: no cross-environment ratios"
    return
  end
  doc:para("Ratio of mean images/s for the same configuration (model, precision, batch, input, protocol, data, " ..
    "memory format, threads; 95% CI as in §6.1):")
  local h = extend({"Model", "Precision", "Batch"}, configs.headers(D.varying or {}))
  local al = {"l", "l", "r"}
  for _ = 4, #h do al[#al + 1] = "l" end
  doc:para(md.table(extend(h, {"Envs (A / B)", "A images/s", "B images/s", "A / B", "Runs"}), rows,
    extend(al, {"l", "r", "r", "r", "l"})))
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
  doc:para("Per training iteration (G = 1e9). Measured = the counters' FLOPs and DRAM bytes over the counted " ..
    "iterations ÷ their number; '-' where that number is not stored (an imported Nsight CSV covers whatever " ..
    "the profiler captured). AI is a ratio and needs no count:")
  doc:para(md.table({"Run", "Counters", "FLOPs est. (G)", "FLOPs meas. (G)", "meas. / est.", "Bytes est. (GB)",
    "Bytes meas. (GB)", "meas. / est.", "AI est.", "AI meas."}, rows,
    {"l", "l", "r", "r", "r", "r", "r", "r", "r", "r"}))
end

function M.memory(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("### 6.4 Estimated vs measured memory")
  local rows = {}
  for _, g in ipairs(D.groups) do
    local c
    local meas, what = {}, nil
    for _, r in ipairs(g.runs) do
      c = c or D.complexity[r.id]
      local v = r.device_max_bytes
      if type(v) == "number" and v > 0 then meas[#meas + 1], what = v, "device peak allocated"
      elseif type(r.max_rss_bytes) == "number" and r.max_rss_bytes > 0 and g.kind == "cpu" then
        meas[#meas + 1], what = r.max_rss_bytes, "process peak RSS"
      end
    end
    if c and c.memory_bytes and #meas > 0 then
      local m = stats.mean(meas)
      rows[#rows + 1] = extend(lead_cells(D, g), {md.mb(c.memory_bytes), md.mb(m), what,
        string.format("%.2f×", m / c.memory_bytes), ctx.ref(g)})
    end
  end
  if #rows == 0 then
    doc:para("No run stored both an estimated training memory and a measured peak: no comparison.")
    ctx.missing[#ctx.missing + 1] = "no measured memory beside an estimate: no memory comparison"
    return
  end
  doc:para("Estimated training memory (parameters, gradients, momentum, buffers, saved activations; " ..
    "docs/complexity.md) against the measured peak, mean over repeats (MB = 1e6 bytes). A CPU's peak RSS " ..
    "also holds the runtime and libraries, so its ratio overstates the training state:")
  local h, al = lead_headers(D)
  doc:para(md.table(extend(h, {"Estimated (MB)", "Measured (MB)", "Measured as", "meas. / est.", "Runs"}), rows,
    extend(al, {"r", "r", "l", "r", "l"})))
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
    local s = series[k]
    local g0, first, last = s[1].g, s[1], s[#s]
    local change
    for i = 2, #s do
      if s[i].r.bound ~= s[i - 1].r.bound then change = change or i end
    end
    local extra = configs.describe(D.varying or {}, g0.runs[1])
    local head = string.format("- %s, %s, %s%s: ", md.esc(g0.env_key), md.esc(g0.model), md.esc(g0.precision),
      extra ~= "" and (", " .. md.esc(extra)) or "")
    if change then
      local a, b = s[change - 1], s[change]
      lines[#lines + 1] = head .. string.format("%s-bound at batch %d (AI %.2f) → %s-bound at batch %d (AI %.2f); " ..
        "ridge %.2f FLOP/byte.", a.r.bound, a.g.batch, a.r.ai, b.r.bound, b.g.batch, b.r.ai, b.r.ridge_ai)
    elseif #s == 1 then
      lines[#lines + 1] = head .. string.format("%s-bound at batch %d, the only batch size (AI %.2f; ridge %.2f " ..
        "FLOP/byte).", first.r.bound, first.g.batch, first.r.ai, first.r.ridge_ai)
    else
      lines[#lines + 1] = head .. string.format("%s-bound at every batch (%d to %d, AI %.2f to %.2f; ridge %.2f " ..
        "FLOP/byte).", first.r.bound, first.g.batch, last.g.batch, first.r.ai, last.r.ai, first.r.ridge_ai)
    end
  end
  doc:para(lines)
end

function M.section(ctx)
  local doc = ctx.doc
  doc:para("## 6. Analysis & Discussion")
  doc:para(md.placeholder("Discuss the factors: model, framework knobs (channels-last, AMP, data loading), " ..
    "virtualization, hardware ceilings, optional cost per image."))
  M.table2(ctx)
  M.precision(ctx)
  M.environments(ctx)
  M.counters(ctx)
  M.memory(ctx)
  M.transitions(ctx)
  doc:para("### Takeaways")
  doc:para(md.placeholder("Main takeaways (2–3), each resting on a number above."))
  doc:para("---")
end

return M
