-- rlx.report.backmatter: report.md after the analysis: §7 reproducibility (seed 001's environment
-- table, versions, commands, container), §8 limitations, §9 conclusion, references, the figures
-- checklist and the appendices (runs behind each row, failed runs, formulas, counters).
local md = require("rlx.report.md")
local compute = require("rlx.report.compute")
local configs = require("rlx.results.configs")
local M = {}

local function join(parts, sep)
  local out = {}
  for _, p in ipairs(parts) do if p ~= nil and p ~= "" then out[#out + 1] = tostring(p) end end
  return #out > 0 and table.concat(out, sep or " / ") or "-"
end

local function gib(bytes) return type(bytes) == "number" and string.format("%.0f GB", bytes / 1e9) or nil end

local function storage(info)
  local s = type(info.storage) == "table" and info.storage or {}
  return join({s.root_fs, s.root_device, s.type, gib(s.root_bytes or s.size_bytes)}, ", ")
end

local function device(e)
  if e.kinds.cuda and e.gpu_name then
    return join({e.gpu_name, gib(e.gpu_memory_bytes)}, ", ") .. (e.kinds.cpu and ("; " .. tostring(e.cpu_model)) or "")
  end
  return join({e.cpu_model, e.cpu_cores and (e.cpu_cores .. " cores"), e.cpu_threads and (e.cpu_threads .. " threads"),
    gib(e.memory_bytes)}, ", ")
end

function M.environment_table(ctx)
  local rows, versions = {}, {}
  for _, e in ipairs(ctx.D.envs) do
    rows[#rows + 1] = {md.esc(e.label), md.esc(e.host or "-"), md.esc(join({e.os, e.kernel})), md.esc(device(e)),
      md.esc(join({e.gpu_driver, e.cuda, e.cudnn})), md.esc("no Python; LibTorch " .. tostring(e.torch or "?")),
      md.esc(storage(e.info)), md.esc(join({e.cloud_zone, e.instance_type}, ", ") ~= "-" and
        join({e.cloud_zone, e.instance_type}, ", ") or "n/a")}
    versions[#versions + 1] = {md.esc(e.label), md.esc(e.rlx or "-"), md.esc(e.luajit or "-"), md.esc(e.compiler or "-"),
      md.esc(e.torch or "-"), md.esc(join({e.virtualization, e.container}, ", ")), md.esc(e.first_seen or "-")}
  end
  return rows, versions
end

-- rlx train flags for a stored configuration (the sweep passes the same options to rlx.train).
local FLAGS = {{"model", "--model"}, {"batch", "--batch-size"}, {"warmup", "--warmup-iters"}, {"iters", "--iters"},
  {"precision", "--precision"}, {"device", "--device"}, {"input", "--input"}, {"classes", "--classes"},
  {"data", "--data"}, {"workers", "--workers"}, {"threads", "--threads"}, {"memory_format", "--memory-format"},
  {"grad_accum", "--grad-accum-steps"}, {"deterministic", "--deterministic"}, {"cudnn_benchmark", "--cudnn-benchmark"},
  {"nvtx", "--nvtx"}, {"lr", "--lr"}, {"momentum", "--momentum"}, {"weight_decay", "--weight-decay"},
  {"seed", "--seed"}, {"counters", "--counters"}}

-- Every value shell-quoted (md.shell): a --data path with a space broke the line, a backtick ran.
function M.command(config)
  local words = {"rlx", "train"}
  for _, f in ipairs(FLAGS) do
    local v = config[f[1]]
    if v == true then words[#words + 1] = f[2]
    elseif type(v) == "number" or type(v) == "string" then words[#words + 1] = {f[2], v} end
  end
  return md.shell(words)
end

function M.reproducibility(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("## 7. Reproducibility & Environment")
  local rows, versions = M.environment_table(ctx)
  doc:para("**Environment table** (as captured by rlx when each environment first ran):")
  doc:para(md.table({"Env key", "Host", "OS/Kernel", "Device", "Driver/CUDA/cuDNN", "Python/Torch", "Storage",
    "Region/Zone"}, rows))
  doc:para("**Software versions**:")
  doc:para(md.table({"Env key", "rlx", "LuaJIT", "Compiler", "LibTorch", "Virtualization, container", "First seen"},
    versions))
  local containers = {}
  for _, e in ipairs(D.envs) do
    if e.container and e.container ~= "" and e.container ~= "none" then
      containers[#containers + 1] = md.esc(e.label .. ": " .. e.container)
    end
  end
  doc:para("**Container.** " .. (#containers > 0 and (table.concat(containers, "; ") ..
    ". " .. md.PLACEHOLDER .. " the image tag or digest.") or "none detected (rlx ran on the host)."))
  local seen, cmds = {}, {}
  for _, g in ipairs(D.groups) do
    local c = type(g.runs[1].config) == "table" and g.runs[1].config or nil
    if c then
      local cmd = M.command(c)
      if not seen[cmd] then seen[cmd] = true; cmds[#cmds + 1] = cmd end
    end
  end
  doc:para("**Commands.** Each configuration again, as one run (" .. md.code("rlx train --help") ..
    "); a study reruns the whole matrix and skips what is stored:")
  local report = {"rlx", "report", D.path or "DB"}
  if D.study then report[#report + 1] = {"--study", D.study} end
  report[#report + 1] = {"--out", ctx.dir or "report"}
  cmds[#cmds + 1] = md.shell(report)
  doc:para(md.block(cmds, "bash"))
  doc:para(md.placeholder("Dataset location and the exact study script and --set parameters you ran."))
  doc:para("---")
end

-- The seed's image side (seed 001: ImageNet-style 224x224).
M.SEED_INPUT = 224

--- Lines of §8 on the scale and protocol the ok runs were measured at, read from the runs: what the
--- image size means (below the seed's 224x224 the arithmetic intensities collapse, so the bound
--- verdicts are artefacts of the scale), the protocol, and the runs left out of the means.
function M.scale_lines(D)
  local runs = #D.ok > 0 and D.ok or D.runs
  local lines, synthetic = {}, false
  if #runs == 0 then return lines end
  for _, input in ipairs(configs.inputs(runs)) do
    local these = {}
    for _, r in ipairs(runs) do if tonumber(configs.of(r).input) == input then these[#these + 1] = r end end
    local data = {}
    for _, r in ipairs(these) do data[configs.of(r).data] = true end
    local what = {}
    for d in pairs(data) do what[#what + 1] = d == "synthetic" and "synthetic images" or ("images from " .. md.code(d)) end
    table.sort(what)
    local head = string.format("- Scale: %dx%d %s (%d run%s).", input, input, table.concat(what, " and "), #these,
      #these == 1 and "" or "s")
    if input < M.SEED_INPUT then
      local ratio = (M.SEED_INPUT / input) ^ 2
      local frac = math.abs(ratio - math.floor(ratio + 0.5)) < 1e-9 and string.format("1/%d", math.floor(ratio + 0.5))
        or string.format("1/%.1f", ratio)
      head = head .. string.format(" That is %s of the seed's %dx%d pixels: the FLOPs per image shrink with the " ..
        "pixels while the weights do not, so the arithmetic intensities collapse and the memory- or compute-bound " ..
        "verdicts of §5 and §6.5 are artefacts of this scale, not findings about the models at %dx%d.", frac,
        M.SEED_INPUT, M.SEED_INPUT, M.SEED_INPUT, M.SEED_INPUT)
    elseif input == M.SEED_INPUT then
      head = head .. " The seed's image size."
    end
    lines[#lines + 1] = head
    synthetic = synthetic or data.synthetic
  end
  if synthetic then
    lines[#lines + 1] = "- Data: synthetic images leave out reading and decoding images, so the throughput is the " ..
      "training step's alone."
  end
  lines[#lines + 1] = "- Protocol: " .. md.esc(configs.protocol_text(runs)) .. "."
  local sections = require("rlx.report.sections")
  for _, n in ipairs(sections.plan_notes(D)) do lines[#lines + 1] = "- " .. md.esc(n) .. "." end
  local plan = sections.plan_text(D)
  if plan and plan.left_out then
    lines[#lines + 1] = "- " .. md.esc(plan.left_out) .. ": " .. md.code(tostring(plan.add)) .. "."
  end
  if plan and plan.text ~= "" then lines[#lines + 1] = "- Plan: " .. md.esc(plan.text) .. "." end
  local unsteady, contended = 0, 0
  for _, r in ipairs(D.ok) do
    for _, f in ipairs(configs.flags(r)) do
      if f.kind == "unsteady" then unsteady = unsteady + 1 else contended = contended + 1 end
    end
  end
  if unsteady + contended > 0 then
    lines[#lines + 1] = string.format("- %d of %d ok runs unsteady and %d contended: left out of every mean " ..
      "(rows whose every run was flagged keep them, marked %s; §4.1).", unsteady, #D.ok, contended, configs.MARK)
  end
  return lines
end

function M.limitations(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("## 8. Limitations & Future Work")
  local lines, est = M.scale_lines(D), 0
  for _, g in ipairs(D.groups) do
    local r = compute.roofline(D, g)
    if r and r.source == "estimated" then est = est + 1 end
  end
  if est > 0 then
    lines[#lines + 1] = string.format("- %d roofline point%s estimated: analytic FLOPs and minimum DRAM bytes " ..
      "(docs/complexity.md), not counted by hardware.", est, est == 1 and " is" or "s are")
  end
  for _, m in ipairs(ctx.missing) do lines[#lines + 1] = "- " .. m .. "." end
  if #lines > 0 then doc:para(lines) end
  doc:para(md.placeholder("Other limits (data subset, TRAIN_FACTOR, missing DRAM counters on CPU) and future work."))
  doc:para("---")
  doc:para("## 9. Conclusion")
  doc:para(md.placeholder("3–5 sentences tying back to the questions of §1 and the main findings."))
  doc:para("---")
  doc:para("## References")
  local refs = {}
  for _, r in ipairs(ctx.references or {}) do refs[#refs + 1] = "- " .. r end
  refs[#refs + 1] = "- rlx documentation: docs/roofline.md (formulas), docs/complexity.md (FLOP and byte counts), " ..
    "docs/report.md (this report)."
  doc:para(refs)
  doc:para(md.placeholder("Vendor documents, Nsight metric references, other citations."))
  doc:para("---")
end

local FIGURE_NAMES = {A = "Throughput vs batch", B = "Variability", C = "Roofline", D = "AI vs batch"}

function M.figures(ctx)
  local doc = ctx.doc
  doc:para("## Figures Checklist")
  local lines = {}
  for _, f in ipairs(ctx.figures) do
    lines[#lines + 1] = string.format("- %s: %s — %s", f.figure, FIGURE_NAMES[f.figure] or "", md.code(f.rel))
  end
  for _, w in ipairs(ctx.figure_warnings) do lines[#lines + 1] = "- not drawn: " .. md.esc(w) end
  if #lines == 0 then lines[1] = "- no figures (no successful runs)" end
  doc:para(lines)
  doc:para("---")
end

function M.appendix(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("## Appendix")
  doc:para("### A. Runs behind each row")
  doc:para("Each row's footnote lists the run labels averaged into it and the command that shows them.")
  for _, r in ipairs(ctx.ref_list) do doc:para(r) end
  doc:para("### B. Failed runs (listed, not averaged)")
  if #D.failed == 0 and #D.running == 0 then
    doc:para("None.")
  else
    local rows = {}
    for _, r in ipairs(D.failed) do
      rows[#rows + 1] = {md.code(r.label), md.esc(r.env_key), md.esc(r.model), md.esc(r.precision), tostring(r.batch),
        "failed", md.esc(tostring(r.error or ""):sub(1, 160))}
    end
    for _, r in ipairs(D.running) do
      rows[#rows + 1] = {md.code(r.label), md.esc(r.env_key), md.esc(r.model), md.esc(r.precision), tostring(r.batch),
        md.esc(r.status == "running" and "running (unfinished)" or r.status), md.esc(tostring(r.error or "-"):sub(1, 160))}
    end
    doc:para(md.table({"Run", "Env", "Model", "Precision", "Batch", "Status", "Error"}, rows))
    doc:para("List them with " .. md.code(md.shell({"rlx", "runs", D.path or "DB", {"--status", "failed"}})) .. " (or " ..
      md.code("--status crashed") .. ", " .. md.code("--status running") .. ").")
  end
  doc:para("### C. Formulas")
  doc:para({
    "- Mean ± SD: sample standard deviation (divides by n − 1); CV = SD / mean.",
    "- Speedup and environment ratio R = mean(a) / mean(b). 95% CI: u_a = SD_a² / (n_a · mean_a²), " ..
      "u_b = SD_b² / (n_b · mean_b²); SE = R · √(u_a + u_b) (first-order delta method); " ..
      "df = (u_a + u_b)² / (u_a² / (n_a − 1) + u_b² / (n_b − 1)) (Welch–Satterthwaite); " ..
      "CI = R ± t₀.₉₇₅(df) · SE, t from Student's table, interpolated in 1/df.",
    "- Roofline: AI = FLOPs / bytes; attained = FLOPs / seconds; attainable = min(AI × peak bandwidth, peak " ..
      "compute); ridge = peak compute / peak bandwidth (docs/roofline.md).",
    string.format("- Seed convention: training FLOPs per sample = forward MACs × TRAIN_FACTOR (= %d, seed 000).",
      ctx.TRAIN_FACTOR)})
  doc:para("### D. Counters")
  local seen, names = {}, {}
  for _, rows in pairs(D.counters) do
    for _, c in ipairs(rows) do
      local k = c.source .. ": " .. c.name
      if not seen[k] then seen[k] = true; names[#names + 1] = k end
    end
  end
  table.sort(names)
  if #names == 0 then doc:para("No counters stored.")
  else
    local lines = {}
    for _, n in ipairs(names) do lines[#lines + 1] = "- " .. md.code(n) end
    doc:para(lines)
  end
  require("rlx.report.layers").appendix(ctx)
end

return M
