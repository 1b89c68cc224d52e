-- rlx.report.backmatter: report.md after the analysis: §7 reproducibility (seed 001's environment
-- table, versions, commands, container), §8 limitations, §9 conclusion, references, the figures
-- checklist and the appendices (runs behind each row, failed runs, formulas, counters).
local md = require("rlx.report.md")
local compute = require("rlx.report.compute")
local configs = require("rlx.studydb.configs")
local lead = require("rlx.report.lead")
local train_options = require("rlx._train_options")
local studydb_data = require("rlx.studydb.data")
local seed_layout = require("rlx.seed_layout")
local sections = require("rlx.report.sections")
local drafts = require("rlx.report.drafts")
local layers = require("rlx.report.layers")
local M = {}

local function join(parts, sep)
  local out = {}
  -- table.maxn, not ipairs: a missing first part (no GPU driver beside a cuDNN) hid the rest.
  for i = 1, table.maxn(parts) do
    local p = parts[i]
    if p ~= nil and p ~= "" then out[#out + 1] = tostring(p) end
  end
  return #out > 0 and table.concat(out, sep or " / ") or "-"
end

local function gib(bytes) return type(bytes) == "number" and string.format("%.0f GB", bytes / 1e9) or nil end

local function storage(info)
  -- An imported environment's storage is the student's words (env_info.md).
  if type(info.storage) == "string" then return info.storage end
  local s = type(info.storage) == "table" and info.storage or {}
  return join({s.root_fs, s.root_device, s.type, gib(s.root_bytes or s.size_bytes)}, ", ")
end

-- The CPU's architecture and the vector ISA rlx's kernels used (issue 44, owned with engine/platform):
-- "arm64 SVE (512-bit) + NEON, bf16 (BFDOT, BFMMLA), emulated by qemu-user". An environment
-- captured before rlx recorded the ISA gives its architecture alone ("x86-64"); an imported one,
-- nothing it did not say.
local ARCH_NAMES = {x86_64 = "x86-64", amd64 = "x86-64", aarch64 = "arm64", arm64 = "arm64"}
local function isa_text(e)
  local info = e.info or {}
  local isa = info.isa or ARCH_NAMES[tostring(e.arch or info.arch)]
  if not isa then return nil end
  if type(info.emulation) == "table" then isa = isa .. ", emulated by " .. tostring(info.emulation.kind) end
  return isa
end

local function device(e)
  local isa = isa_text(e)
  if (e.kinds.cuda or e.kinds.mps) and e.gpu_name then
    return join({e.gpu_name, gib(e.gpu_memory_bytes)}, ", ") .. (e.kinds.cpu and ("; " .. tostring(e.cpu_model)) or "") ..
      (isa and ("; " .. isa) or "")
  end
  return join({e.cpu_model, e.cpu_cores and (e.cpu_cores .. " cores"), e.cpu_threads and (e.cpu_threads .. " threads"),
    gib(e.memory_bytes), isa}, ", ")
end

-- The Driver/CUDA/cuDNN cell: the versions a GPU ran with; on a machine without a GPU the toolkit
-- rlx found installed is named as unused (a grader read "13.0 / 9.19.0" on a CPU-only VM as the
-- CUDA its runs used).
local function cuda_cell(e)
  local versions = join({e.gpu_driver, e.cuda, e.cudnn})
  if e.gpu_name or (e.kinds or {}).cuda or (e.kinds or {}).mps then return versions end
  if versions == "-" then return "n/a (no GPU)" end
  -- Since issue 51 LibTorch brings its own CUDA and cuDNN (the environment's cudnn is LibTorch's, the
  -- machine's is cudnn_installed): both unused without a GPU, and told apart.
  local fw = type(e.info) == "table" and type(e.info.framework) == "table" and e.info.framework or {}
  if fw.cudnn and fw.cudnn == e.cudnn then
    local installed = e.info.cudnn_installed and (", cuDNN " .. tostring(e.info.cudnn_installed)) or ""
    return "n/a (no GPU; installed, unused: CUDA " .. tostring(e.cuda or "-") .. installed .. "; LibTorch's CUDA " ..
      tostring(fw.cuda_runtime or fw.cuda_build or "-") .. " and cuDNN " .. tostring(fw.cudnn) .. ", unused)"
  end
  return "n/a (no GPU; installed, unused: CUDA " .. tostring(e.cuda or "-") ..
    (e.cudnn and (", cuDNN " .. tostring(e.cudnn)) or "") .. ")"
end

function M.environment_table(ctx)
  local rows, versions = {}, {}
  for _, e in ipairs(ctx.D.envs) do
    -- A machine imported from the seed's kit ran Python and PyTorch (rlx import-kit).
    local imported = type(e.info.imported) == "table"
    -- rlx records its framework as data (issue 51); older databases name LibTorch's version alone.
    local framework = rlx.env.framework_text(e.info.framework)
    local software = imported and ("Python " .. tostring(e.info.python or "?") .. " / PyTorch " ..
      tostring(e.torch or "?")) or ("no Python; " .. (framework or ("LibTorch " .. tostring(e.torch or "?"))))
    -- The keys the tables use when the environment ran several device kinds (mac_cpu, mac_mps).
    local keys = {}
    for kind in pairs(e.kinds or {}) do keys[#keys + 1] = e.label .. "_" .. kind end
    table.sort(keys)
    local label = md.esc(e.label) .. (#keys > 1 and (" (" .. md.esc(table.concat(keys, ", ")) .. ")") or "")
    rows[#rows + 1] = {label .. (imported and " (imported: seed kit)" or ""), md.esc(e.host or "-"),
      md.esc(join({e.os, e.kernel})), md.esc(device(e)), md.esc(cuda_cell(e)), md.esc(software),
      md.esc(storage(e.info)), md.esc(join({e.cloud_zone, e.instance_type}, ", ") ~= "-" and
        join({e.cloud_zone, e.instance_type}, ", ") or "n/a")}
    versions[#versions + 1] = {md.esc(e.label), md.esc(e.rlx or "-"), md.esc(e.luajit or "-"), md.esc(e.compiler or "-"),
      md.esc(e.torch or "-"), md.esc(join({e.virtualization, e.container}, ", ")), md.esc(e.first_seen or "-")}
  end
  return rows, versions
end

-- rlx train flags for a stored configuration (the sweep passes the same options to rlx.train).
local FLAGS = {{"model", "--model"}, {"batch", "--batch-size"}, {"warmup", "--warmup-iters"},
  {"max_warmup", "--max-warmup"}, {"iters", "--iters"}, {"target_ci", "--target-ci"}, {"min_iters", "--min-iters"},
  {"max_iters", "--max-iters"}, {"max_seconds", "--max-seconds"}, {"min_stable", "--min-stable"},
  {"precision", "--precision"}, {"device", "--device"}, {"input", "--input"}, {"classes", "--classes"},
  {"data", "--data"}, {"workers", "--workers"}, {"threads", "--threads"}, {"memory_format", "--memory-format"},
  {"grad_accum", "--grad-accum-steps"}, {"deterministic", "--deterministic"}, {"cudnn_benchmark", "--cudnn-benchmark"},
  {"nvtx", "--nvtx"}, {"lr", "--lr"}, {"momentum", "--momentum"}, {"weight_decay", "--weight-decay"},
  {"seed", "--seed"}, {"tf32", "--tf32"}, {"pin_memory", "--pin-memory"}, {"counters", "--counters"},
  {"counter_iters", "--counter-iters"}, {"ranks", "--ranks"}}

-- Every value shell-quoted (md.shell): a --data path with a space broke the line, a backtick ran.
-- caps: the per-run caps a time budget gave a precision-targeted run ({max_iters=, max_seconds=}),
-- which replace the configuration's (issue 34: the commands dropped the protocol and, pasted,
-- measured 20 fixed iterations).
function M.command(config, caps)
  local words = {"rlx", "train"}
  local c = {}
  for k, v in pairs(config) do c[k] = v end
  for k, v in pairs(caps or {}) do c[k] = v end
  for _, f in ipairs(FLAGS) do
    local v = c[f[1]]
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
    " (its image tag or digest: below).") or "none detected (rlx ran on the host)."))
  M.kit_files(ctx)
  -- One report over every database; the kit's files per database (rlx export reads one).
  local sources = studydb_data.sources(D)
  local report, exports, studies = {"rlx", "report"}, {}, {}
  for _, s in ipairs(sources) do
    report[#report + 1] = s.path or "DB"
    if s.study then studies[s.study] = true end
  end
  local n_studies = 0
  for _ in pairs(studies) do n_studies = n_studies + 1 end
  if #sources == 1 and D.study then report[#report + 1] = {"--study", D.study}
  elseif n_studies > 1 and #sources == 1 then report[#report + 1] = "--all-studies" end
  report[#report + 1] = {"--out", ctx.dir or "report"}
  for i, s in ipairs(sources) do
    local export = {"rlx", "export", s.path or "DB", {"--layout", "seed"}, {"--out", #sources > 1 and ("kit-" .. i) or "kit"}}
    if s.study then export[#export + 1] = {"--study", s.study} end
    exports[#exports + 1] = md.shell(export)
  end
  doc:para("**Commands.** The report and the kit's files again (" .. md.code("rlx export --layout seed") ..
    " writes logs/metrics.csv, logs/env_info.md, logs/requirements.txt, analysis/peaks.json, " ..
    "analysis/roofline_points.csv, logs/model_summaries/summary.json and code/metric_names_ncu.txt; " ..
    "docs/export-seed.md); each configuration as one `rlx train` command, with the protocol and the caps its " ..
    "runs had, is in " .. M.commands_appendix(ctx) .. ":")
  local lines = {md.shell(report)}
  for _, e in ipairs(exports) do lines[#lines + 1] = e end
  doc:para(md.block(lines, "bash"))
  doc:para(md.placeholder((#containers > 0 and "The container image's tag or digest, the" or "The") ..
    " dataset's location, and the exact study script and --set parameters you ran."))
  doc:para("---")
end

-- The caps the runs of a group were given beyond their configuration (a time budget's, stored in the
-- result: timed iterations, seconds, warm-up iterations): {max_iters=, max_seconds=, max_warmup=}
-- with the largest of each over the runs, and a note naming those that differed between runs.
local function caps_of(g)
  local c = type(g.runs[1].config) == "table" and g.runs[1].config or {}
  if not c.target_ci then return nil, nil end
  local lists = {max_iters = {}, max_seconds = {}, max_warmup = {}}
  for _, r in ipairs(g.runs) do
    local res = type(r.result) == "table" and r.result or {}
    for k, xs in pairs(lists) do
      if type(res[k]) == "number" and not (k == "max_warmup" and type(c.warmup) == "number") then xs[#xs + 1] = res[k] end
    end
  end
  local caps, differ = {}, {}
  for _, k in ipairs({"max_iters", "max_seconds", "max_warmup"}) do
    local xs = lists[k]
    table.sort(xs)
    if #xs > 0 then
      caps[k] = k == "max_seconds" and math.ceil(xs[#xs] * 10) / 10 or xs[#xs]
      if xs[#xs] - xs[1] > (k == "max_seconds" and 0.05 or 0) then
        differ[#differ + 1] = string.format(k == "max_seconds" and "%s %.1f-%.1f" or "%s %g-%g", k, xs[1], xs[#xs])
      end
    end
  end
  if next(caps) == nil then return nil, nil end
  return caps, #differ > 0 and ("# its runs' budget caps differed (" .. table.concat(differ, ", ") ..
    "): the largest of each is used") or nil
end

--- Appendix G's commands: one `rlx train` per configuration (its stored configuration, with the
--- budget's caps its runs had). Returns where they are.
function M.commands_appendix(ctx)
  local seen, lines = {}, {}
  for _, g in ipairs(ctx.D.groups) do
    local c = type(g.runs[1].config) == "table" and g.runs[1].config or nil
    if c then
      local caps, note = caps_of(g)
      -- The layout the runs used (runs.memory_format), where the configuration left it to rlx
      -- (auto, or an older rlx's default): today's auto may choose the other one on this machine.
      local used = g.runs[1].memory_format
      if type(used) == "string" and used ~= "" and (c.memory_format == nil or c.memory_format == "auto") then
        caps = caps or {}
        caps.memory_format = used
      end
      local cmd = M.command(c, caps)
      if not seen[cmd] then
        seen[cmd] = true
        lines[#lines + 1] = "# " .. ctx.describe(g):gsub("\\", "")
        if note then lines[#lines + 1] = note end
        lines[#lines + 1] = cmd
      end
    end
  end
  ctx.commands = lines
  return "Appendix G"
end

--- The seed kit's analysis/peaks.json and code/metric_names_ncu.txt in §7 (what `rlx export --layout
--- seed` writes; the requirements in Appendix H): the template asks for them here.
function M.kit_files(ctx)
  local layout = seed_layout
  local peaks = layout.peaks(ctx.D)
  local rows, keys = {}, {}
  for k in pairs(peaks) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local e = peaks[k]
    local precs = {}
    for p in pairs(e.peak_gflops) do precs[#precs + 1] = p end
    table.sort(precs)
    for _, p in ipairs(precs) do
      local function v(x) return type(x) == "number" and md.sig(x, 4) or "null" end
      rows[#rows + 1] = {md.esc(k), md.esc(p), v(e.peak_gflops[p]), v(e.peak_gbps[p]), v(e.ridge_ai[p]),
        md.esc(e.compute_field[p] or "-") .. " / " .. md.esc(e.memory_field[p] or "-"), md.esc(e.source or "-")}
    end
  end
  if #rows > 0 then
    ctx.doc:para("**analysis/peaks.json** (per environment and precision, as `rlx export --layout seed` writes it " ..
      "for the kit's analysis/roofline.py; null: no roof known, fill it in from the datasheet):")
    ctx.doc:para(md.table({"Env key", "Precision", "peak_gflops", "peak_gbps", "ridge_ai", "From peaks", "Source"},
      rows, {"l", "l", "r", "r", "r", "l", "l"}))
  end
  -- One code span per metric, so a browser can wrap the line between them.
  local metrics = {}
  for m in rlx.counters.seed_metric_line():gmatch("[^,]+") do metrics[#metrics + 1] = md.code(m) end
  ctx.doc:para("**code/metric_names_ncu.txt** (the Nsight Compute metrics rlx reads, one comma-separated line; the " ..
    "seed's nvprof-era names are rejected by current ncu): " .. table.concat(metrics, ", ") ..
    ". **logs/requirements.txt**: Appendix H.")
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
    local emulated = {}
    for _, r in ipairs(these) do
      if r.emulated and not emulated[r.env_key] then emulated[r.env_key] = true; emulated[#emulated + 1] = r.env_key end
    end
    local head = string.format("- Scale: %dx%d %s (%d run%s%s).", input, input, table.concat(what, " and "), #these,
      #these == 1 and "" or "s", #emulated > 0 and (", on " .. md.esc(table.concat(emulated, ", ")) .. ": emulated, " ..
      "the emulator's figures, not comparable") or "")
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
  for _, l in ipairs(M.budget_lines(D)) do lines[#lines + 1] = l end
  for _, n in ipairs(sections.plan_notes(D)) do lines[#lines + 1] = "- " .. md.esc(n) .. "." end
  local plans = sections.plan_texts(D)
  for _, plan in ipairs(plans) do
    local of = #plans > 1 and plan.name and (plan.name .. ": ") or ""
    if plan.left_out then
      lines[#lines + 1] = "- " .. md.esc(of .. plan.left_out) .. ": " .. md.code(tostring(plan.add)) .. "."
    end
    if plan.text ~= "" then lines[#lines + 1] = "- Plan" .. (of ~= "" and (" of " .. md.esc(plan.name)) or "") .. ": " ..
      md.esc(plan.text) .. "." end
  end
  local flagged = M.flag_text(D.ok)
  if flagged then lines[#lines + 1] = "- " .. flagged .. "." end
  return lines
end

--- The runs the means leave out, by kind (rlx.studydb.configs.flags: unsteady, unjudged,
--- imprecise, contended), counting a run once in the total and once under each of its flags: "5 of 15 ok
--- runs flagged, left out of every mean: 4 unsteady, 1 contended (rows whose every run was flagged
--- keep them, marked †; §4.1)"; nil when no run is flagged.
function M.flag_text(ok_runs)
  local by_kind, flagged = {}, 0
  for _, kind in ipairs(configs.FLAG_KINDS) do by_kind[kind] = 0 end
  for _, r in ipairs(ok_runs) do
    local flags = configs.flags(r)
    if #flags > 0 then flagged = flagged + 1 end
    for _, f in ipairs(flags) do by_kind[f.kind] = (by_kind[f.kind] or 0) + 1 end
  end
  if flagged == 0 then return nil end
  local parts, counted = {}, 0
  local words = {unsteady = "unsteady", unjudged = "too short to judge (fewer than four timed iterations)",
    imprecise = "imprecise (95 % CI wider than their protocol accepts)", contended = "contended"}
  for _, kind in ipairs(configs.FLAG_KINDS) do
    if by_kind[kind] > 0 then parts[#parts + 1] = by_kind[kind] .. " " .. words[kind] end
    counted = counted + by_kind[kind]
  end
  return string.format("%d of %d ok runs flagged, left out of every mean: %s%s (rows whose every run was flagged " ..
    "keep them, marked %s; §4.1)", flagged, #ok_runs, table.concat(parts, ", "),
    counted > flagged and "; a run can be more than one" or "", configs.MARK)
end

local function iso_seconds(t) return seed_layout.unix_seconds(t) end

--- §8's lines on the time and precision the study had (issue 34: §8 never said the budget was
--- overrun or the CI target missed), per environment, all read from the runs: how many missed
--- their CI target and what stopped them (stop_reason), how many a time budget capped below the
--- protocol's own cap (the result's max_iters / max_seconds against the configuration's), how many
--- of those ran at the minimum (over budget: rlx.study runs what is left at min_iters), and the
--- span from the first run's start to the last one's end.
function M.budget_lines(D)
  local lines = {}
  for _, key in ipairs(lead.env_keys(D)) do
    local n, missed, stops, capped, at_min, protocol_cap, cap_iters = 0, 0, {}, 0, 0, nil, {}
    local first, last
    for _, r in ipairs(D.runs) do
      if r.env_key == key then
        local c = type(r.config) == "table" and r.config or {}
        local res = type(r.result) == "table" and r.result or {}
        local s, e = iso_seconds(r.started_at), iso_seconds(r.finished_at)
        if s then first = math.min(first or s, s) end
        if e then last = math.max(last or e, e) end
        if r.status == "ok" and type(c.target_ci) == "number" then
          n = n + 1
          local ci = configs.field(r, "ci_rel")
          if type(ci) == "number" and ci > c.target_ci then
            missed = missed + 1
            local why = tostring(configs.field(r, "stop_reason") or "unknown")
            stops[why] = (stops[why] or 0) + 1
          end
          local asked, got = c.max_iters or train_options.default("max_iters"), res.max_iters
          if type(got) == "number" and got < asked then
            capped = capped + 1
            protocol_cap = asked
            cap_iters[#cap_iters + 1] = got
            if type(res.min_iters) == "number" and got <= res.min_iters then at_min = at_min + 1 end
          end
        end
      end
    end
    local parts = {}
    if missed > 0 then
      local why = {}
      for k, v in pairs(stops) do why[#why + 1] = string.format("%s %d", k, v) end
      table.sort(why)
      parts[#parts + 1] = string.format("%d of %d precision-targeted runs ended above their CI target (stopped by: %s)",
        missed, n, table.concat(why, ", "))
    end
    if capped > 0 then
      table.sort(cap_iters)
      parts[#parts + 1] = string.format("a time budget capped %d of them below the protocol's %d timed iterations " ..
        "(at %s)%s", capped, protocol_cap, cap_iters[1] == cap_iters[#cap_iters] and tostring(cap_iters[1]) or
        (cap_iters[1] .. "-" .. cap_iters[#cap_iters]), at_min > 0 and string.format(", %d at the minimum: the " ..
        "study was over its budget when they ran (it runs what is left at min_iters)", at_min) or "")
    end
    if first and last and last > first then
      parts[#parts + 1] = string.format("its runs spanned %.1f min from the first start to the last end",
        (last - first) / 60)
    end
    if #parts > 0 then
      lines[#lines + 1] = "- Time and precision, " .. md.esc(key) .. ": " .. table.concat(parts, "; ") .. "."
    end
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
    lines[#lines + 1] = string.format("- %d roofline point%s estimated: analytic FLOPs and DRAM bytes " ..
      "(docs/complexity.md), not counted by hardware; their AI is a range from rlx's upper traffic model to its " ..
      "minimum traffic, and the bound is stated only where the whole range is on one side of the ridge " ..
      "(docs/roofline.md).", est, est == 1 and " is" or "s are")
  end
  for _, m in ipairs(sections.missing_lines(ctx)) do lines[#lines + 1] = "- " .. m .. "." end
  if #lines > 0 then doc:para(lines) end
  doc:para(md.placeholder("Future work, and any limit not listed above (a data subset, the seed's " ..
    "TRAIN_FACTOR, what you could not measure)."))
  doc:para("---")
  doc:para("## 9. Conclusion")
  local draft = drafts.conclusion(ctx, ctx.verdicts)
  if draft then doc:para(draft) end
  doc:para(md.placeholder("Your conclusion: what the findings mean for someone choosing a machine, a batch " ..
    "size or a precision, in your own words."))
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

local FIGURE_NAMES = {A = "Throughput vs batch", B = "Variability", C = "Roofline", D = "AI vs batch",
  E = "Data-parallel scaling vs ranks"}

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
  doc:para("Each row's footnote lists the runs averaged into it, then the runs of its configuration left out " ..
    "of its means with why, and the command that shows them all.")
  for _, r in ipairs(ctx.ref_list) do doc:para(r) end
  -- report.html: cmark-gfm gathers footnotes at the page's end; this line brings them back here
  -- (engine/report/markdown.h, kFootnotesHere; invisible in the Markdown as rendered).
  doc:para('<div class="rlx-footnotes-here"></div>')
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
    local src = studydb_data.source_of(D, D.failed[1] or D.running[1])
    doc:para("List them with " .. md.code(md.shell({"rlx", "runs", src.path or "DB", {"--status", "failed"}})) .. " (or " ..
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
    string.format("- Seed kit (analysis/roofline.py): training FLOPs per iteration = flops_per_batch_forward × " ..
      "TRAIN_FACTOR (= %d) = 2 × forward MACs × batch × %d (docs/export-seed.md, \"TRAIN_FACTOR\").",
      ctx.TRAIN_FACTOR, ctx.TRAIN_FACTOR),
    "- Estimated AI range: training FLOPs ÷ bytes, bytes from rlx's minimum traffic (the highest AI) to its " ..
      "upper traffic model (every pass its own kernel, nothing reused between kernels: the lowest AI); the " ..
      "bound is stated when the whole range is on one side of the ridge's range (docs/roofline.md)."})
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
  layers.appendix(ctx)
  M.long_tables(ctx)
  M.commands_and_requirements(ctx)
end

--- Appendix F: the long per-configuration tables the sections point to (ctx.to_appendix).
function M.long_tables(ctx)
  if #ctx.long_tables == 0 then return end
  ctx.doc:para("### F. Tables per configuration")
  for _, t in ipairs(ctx.long_tables) do
    ctx.doc:para("#### " .. t.id .. " " .. t.title)
    for _, p in ipairs(t.paragraphs) do ctx.doc:para(p) end
  end
end

--- Appendix G (one rlx train command per configuration) and H (logs/requirements.txt).
function M.commands_and_requirements(ctx)
  ctx.doc:para("### G. Commands per configuration")
  if ctx.commands and #ctx.commands > 0 then
    ctx.doc:para("Each configuration as one run (" .. md.code("rlx train --help") .. "), with its stored protocol " ..
      "and the caps a time budget gave its runs; a study reruns the whole matrix and skips what is stored:")
    ctx.doc:para(md.block(ctx.commands, "bash"))
  else
    ctx.doc:para("No stored configuration.")
  end
  ctx.doc:para("### H. logs/requirements.txt")
  ctx.doc:para("The software each environment ran with, as " .. md.code("rlx export --layout seed") .. " writes it:")
  local lines = {}
  for l in (seed_layout.requirements(ctx.D) .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = l end
  while #lines > 0 and lines[#lines] == "" do lines[#lines] = nil end
  ctx.doc:para(md.block(lines, "text"))
end

return M
