-- rlx.report.sections: report.md's front half in seed 001's order: title, abstract, §1 questions,
-- §2 experiment design, §3 model complexity (Table 1), §4 measurement (throughput, variability),
-- §5 roofline. Each function appends to ctx.doc; numbers come from ctx.D (rlx.studydb.data) through
-- rlx.report.compute; what the data cannot support is a marked placeholder (md.placeholder).
local md = require("rlx.report.md")
local compute = require("rlx.report.compute")
local stats = require("rlx.stats")
local configs = require("rlx.studydb.configs")
local lead = require("rlx.report.lead")
local measured = require("rlx.report.measured")
local noise = require("rlx.report.noise")
local drift = require("rlx.report.drift")
local calibrate = require("rlx.calibrate")
local drafts = require("rlx.report.drafts")
local startup_text = require("rlx._startup_text")
local hypotheses = require("rlx.report.hypotheses")
local M = {}

local function list_join(t) return table.concat(t, ", ") end

local sorted_keys = require("rlx._pretty").sorted_keys

local function num_sort(a, b) return a < b end
local studydata = require("rlx.studydb.data")
local PRECISION_ORDER = studydata.PRECISION_ORDER
local function precision_first(a, b)
  local x, y = PRECISION_ORDER[a] or 99, PRECISION_ORDER[b] or 99
  if x ~= y then return x < y end
  return a < b
end

local env_keys, lead_cells, lead_headers, extend = lead.env_keys, lead.lead_cells, lead.lead_headers, lead.extend

-- Whether the ok runs differ in configuration field `name` (rlx.studydb.configs.varying).
local function varies(D, name)
  for _, f in ipairs(D.varying or {}) do if f.name == name then return true end end
  return false
end

local function figure(ctx, letter, env_or_model)
  for _, f in ipairs(ctx.figures) do
    if f.figure == letter and (env_or_model == nil or f.env == env_or_model or f.model == env_or_model) then return f end
  end
  return nil
end

local function embed(ctx, f, caption)
  ctx.doc:para(string.format("![%s](%s)", md.esc(caption), f.rel))
end

--- "`a.db` (study p1-roofline, 27 runs) and `b.db` (study gpu-default, 9 runs)": the databases a
--- report was read from.
function M.sources_text(D)
  local parts = {}
  for _, s in ipairs(studydata.sources(D)) do
    parts[#parts + 1] = string.format("%s (%s%s)", md.code(s.path or "?"), s.study and ("study " .. md.esc(s.study))
      or "every study", #studydata.sources(D) > 1 and string.format(", %d runs", s.runs or 0) or "")
  end
  if #parts <= 2 then return table.concat(parts, " and ") end
  return table.concat(parts, ", ", 1, #parts - 1) .. " and " .. parts[#parts]
end

function M.title(ctx)
  local D, doc = ctx.D, ctx.doc
  local envs = env_keys(D)
  doc:para("# " .. md.esc(ctx.title or lead.default_title(D)))
  doc:para(md.placeholder("Author (your name), course / semester, repository (link or commit hash)."))
  doc:para("Environments: " .. (#envs > 0 and md.esc(list_join(envs)) or "none"))
  -- A machine imported from the seed's kit was measured by its code/run_train.py, not by rlx.
  for _, e in ipairs(D.envs) do
    local imp = type(e.info) == "table" and e.info.imported
    if type(imp) == "table" then
      doc:para(string.format("**Environment %s is imported** from the seed's kit (%s%s, `rlx import-kit`): %s.",
        md.esc(e.label), md.code(tostring(imp.dir or "?") .. "/logs/metrics.csv"),
        imp.env_info and (" and " .. md.code(imp.env_info)) or "", md.esc(imp.note or "measured by the kit")))
    end
  end
  -- An environment whose GPU this rlx could not use ran the CPU sweep only: said before anything.
  for _, e in ipairs(D.envs) do
    if type(e.info) == "table" and type(e.info.gpu_unusable) == "string" then
      doc:para("**Warning: the GPU of environment " .. md.esc(e.label) .. " was not used.** " ..
        md.esc(e.info.gpu_unusable) .. ".")
    end
  end
  local several = #studydata.sources(D) > 1
  local counts = string.format("%d runs: %d ok, %d failed", #D.runs, #D.ok, #D.failed)
  local from = M.sources_text(D)
  from = several and (from .. "; " .. counts) or (from:gsub("%)$", "; " .. counts .. ")"))
  doc:para(string.format("_Written by rlx %s from %s. Every number below is " ..
    "computed from %s; the runs behind each table row are listed in Appendix A. Paragraphs marked %s are " ..
    "drafted from the numbers they cite, for you to check and rewrite in your words; those marked %s are yours " ..
    "to write: the data cannot support them._",
    md.esc(ctx.rlx_version or "?"), from, several and "those databases, read as if merged" or "that database",
    md.DRAFT, md.PLACEHOLDER))
  if several then doc:para(M.merge_rule_text(D)) end
  doc:para("---")
end

--- The rule a report over several databases joins them by (issue 56): rlx merge's, so the report
--- equals that of the merged file. Names the runs it skipped or replaced, and those left out as
--- still running.
function M.merge_rule_text(D)
  local skipped, replaced = {}, {}
  for _, c in ipairs(D.conflicts or {}) do
    local text = string.format("%s from %s (its slot held by %s from %s)", md.code(c.run.label),
      md.code(c.source.path or "?"), md.code(c.held.label), md.code(c.held_source and c.held_source.path or "?"))
    if c.action == "skipped" then skipped[#skipped + 1] = text else replaced[#replaced + 1] = text end
  end
  local out = "**How the databases are joined.** As `rlx merge` joins them, in the order given: environments by " ..
    "identity (two machines that share a label stay two, told apart by a suffix), a run once by its id, and a " ..
    "run whose slot (study, environment, configuration, repeat) an earlier database holds with another run is " ..
    "skipped, unless it is ok and the held one failed (then it replaces it); `rlx merge --as-repeats` would keep " ..
    "both as repeats."
  out = out .. (#skipped > 0 and string.format(" Skipped (%d): %s.", #skipped, table.concat(skipped, ", ")) or
    " No run was skipped.")
  if #replaced > 0 then out = out .. string.format(" Replaced (%d): %s.", #replaced, table.concat(replaced, ", ")) end
  if #(D.running_skipped or {}) > 0 then
    local names = {}
    for _, x in ipairs(D.running_skipped) do names[#names + 1] = md.code(x.run.label) end
    out = out .. string.format(" Still marked running, left out (%d): %s.", #names, table.concat(names, ", "))
  end
  return out
end

-- Lines of ctx.missing that say the same thing twice merged into one (issue 34: "no CPU hardware
-- counters" and "no hardware counters" both listed): §4.5's and §6.3's counter lines become one.
local COUNTER_LINES = {
  ["no CPU hardware counters: no IPC, CPI or cache misses"] = "no IPC, CPI or cache misses",
  ["no CPU hardware events (no PMU exposed): no IPC, CPI or cache misses"] =
    "no IPC, CPI or cache misses (no PMU exposed)",
  ["no hardware counters: no measured FLOPs or bytes, every roofline point estimated"] =
    "no measured FLOPs or bytes, every roofline point estimated",
}
function M.missing_lines(ctx)
  local out, counters, at = {}, {}, nil
  for _, m in ipairs(ctx.missing) do
    if COUNTER_LINES[m] then
      counters[#counters + 1] = m
      if not at then at = #out + 1; out[at] = false end
    else
      out[#out + 1] = m
    end
  end
  if at and #counters == 1 then
    out[at] = counters[1]
  elseif at then
    local parts = {}
    for i, m in ipairs(counters) do parts[i] = COUNTER_LINES[m] end
    out[at] = "no hardware counters: " .. table.concat(parts, "; ")
  end
  return out
end

function M.missing(ctx)
  ctx.doc:para("**What this database cannot show.**")
  local missing = M.missing_lines(ctx)
  if #missing == 0 then
    ctx.doc:para("Nothing missing: every section below is filled from measurements.")
  else
    local lines = {}
    for _, m in ipairs(missing) do lines[#lines + 1] = "- " .. m end
    ctx.doc:para(lines)
  end
end

-- The abstract's roofline fact: how many points are bound by which roof, said as estimated or
-- measured, with those near the ridge (compute.ridge_band) counted apart.
local function bound_fact(ctx)
  local n, mem, comp, near, host, est, meas = 0, 0, 0, 0, 0, 0, 0
  for _, g in ipairs(ctx.D.groups) do
    local r = compute.roofline(ctx.D, g)
    if r and r.bound then
      n = n + 1
      local c = compute.class_of(r)
      if c == "host/launch-bound" then host = host + 1 elseif c == "near the ridge" then near = near + 1
      elseif c == "memory-bound" then mem = mem + 1 else comp = comp + 1 end
      if r.source == "measured" then meas = meas + 1 else est = est + 1 end
    end
  end
  if n == 0 then return nil end
  local how = meas == 0 and "all estimated from analytic FLOPs over minimum DRAM bytes, none counted" or
    est == 0 and "all measured by hardware counters" or string.format("%d measured by counters, %d estimated", meas, est)
  local text = string.format("Of %d roofline points judged against a roof (%s), %d %s %smemory-bound and %d " ..
    "compute-bound", n, how, mem, mem == 1 and "is" or "are", meas == 0 and "estimated " or "", comp)
  if host > 0 then
    text = text .. string.format("; %d %s host/launch-bound (the GPU's kernels take under %d %% of the step, or " ..
      "the step hardly grows with the work), where neither roof sets the time", host, host == 1 and "is" or "are",
      math.floor(compute.HOST_KERNEL_SHARE * 100 + 0.5))
  end
  if near > 0 then
    text = text .. string.format("; %d lie%s within the ridge's uncertainty (the spread of the peaks it is made " ..
      "of, at least ±%d %%), where either roof may bind", near, near == 1 and "s" or "",
      math.floor(compute.RIDGE_MIN_UNCERTAINTY * 100 + 0.5))
  end
  return text .. " (§5)."
end

function M.abstract(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("## Abstract (≤150 words)")
  -- Drafted from the numbers (rlx.report.drafts), with the precision each machine's runs reached.
  local keys, per_env = env_keys(D), {}
  for _, key in ipairs(keys) do
    local runs = {}
    for _, r in ipairs(D.ok) do if r.env_key == key then runs[#runs + 1] = r end end
    local text = configs.precision_text(runs)
    if text then per_env[#per_env + 1] = (#keys > 1 and (md.esc(key) .. ": ") or "") .. md.esc(text) end
  end
  local draft = drafts.abstract(ctx, {bound_fact(ctx), #per_env > 0 and
    ("Precision of the runs: " .. table.concat(per_env, "; ") .. " (§2, §8).") or nil})
  if draft then doc:para(draft) end
  -- Mixed precision is a keyword only when a run measured it.
  local mixed = false
  for _, g in ipairs(D.groups) do mixed = mixed or g.precision == "amp" or g.precision == "bf16" end
  doc:para("**Keywords:** roofline, throughput, arithmetic intensity, profiling" ..
    (mixed and ", mixed precision" or "") .. (#env_keys(D) > 1 and ", cross-environment comparison" or ""))
  doc:para("---")
end

function M.introduction(ctx)
  local doc = ctx.doc
  doc:para("## 1. Introduction & Research Questions")
  doc:para(md.placeholder("Objective: what was compared, on which environments, and why."))
  doc:para({"**Questions.**",
    "1. Where is each model compute-bound vs. bandwidth-bound across environments? (§5, §6.5)",
    "2. How do batch size and precision (FP32 vs. AMP/BF16) shift arithmetic intensity and throughput? (§4.1, §6.1)",
    "3. What is the effect of the environment (virtualization, GPU type) vs. bare metal? (§4.2, §6.2)"})
  doc:para("---")
end

-- The scales of an environment's runs (input, data and protocol: one run matrix row each), in order.
local function scales(D, key)
  local out, idx = {}, {}
  for _, r in ipairs(D.runs) do
    if r.env_key == key then
      local c = configs.of(r)
      local k = table.concat({c.input, c.data, c.protocol}, "|")
      if not idx[k] then idx[k] = #out + 1; out[#out + 1] = {input = tonumber(c.input) or 0, key = k, runs = {}} end
      table.insert(out[idx[k]].runs, r)
    end
  end
  table.sort(out, function(a, b) if a.input ~= b.input then return a.input < b.input end return a.key < b.key end)
  return out
end

--- §2's hypotheses: those the study declared (study:hypothesis, rlx.report.hypotheses), each with
--- what it tests, judged in §6.6; the author's to write when none was declared.
function M.hypotheses(ctx)
  local hs = ctx.hypotheses or {}
  if #hs == 0 then
    ctx.doc:para(md.placeholder("Hypothesis: what you expected and why (or declare it in the study script, " ..
      "study:hypothesis{...}, and the report judges it: docs/report.md)."))
    return
  end
  local lines = {}
  for i, x in ipairs(hs) do
    lines[#lines + 1] = string.format("%d. **H%d.** %s (tested: %s; verdict in §6.6: %s).", i, i, md.esc(x.h.text),
      md.esc(hypotheses.test_text(x.h)), x.result.verdict)
  end
  -- Only a study's own hypotheses (study:hypothesis) were declared before its runs; those given to
  -- the report (--hypotheses, opts.hypotheses) came after them (issue 55).
  local before, after = 0, 0
  for i, x in ipairs(hs) do
    if x.h.given_after_runs then
      after = after + 1
      lines[i] = lines[i]:gsub("%)%.$", "; given to the report after the runs).")
    else before = before + 1 end
  end
  local when = after == 0 and "declared in the study script before the runs" or before == 0 and
    "given to the report after the runs (rlx report --hypotheses), not declared before them" or
    string.format("%d declared in the study script before the runs, %d given to the report after them", before, after)
  ctx.doc:para("**Hypotheses** (" .. when .. "; each is judged against the 95 % " ..
    "CIs of the rows it names, §6.6):"):para(lines)
end

-- §2: the run matrix actually stored, per environment and scale; the protocol and image size are
-- read from the runs (rlx.studydb.configs), so an old database still states what it measured.
--- What the study's plan left out of the matrix and why (rlx.experiment: bf16 on a CPU without
--- native bf16, or to fit the time budget), as stored with the runs (result.plan_notes).
function M.plan_notes(D)
  local seen, out = {}, {}
  for _, r in ipairs(D.runs) do
    local notes = type(r.result) == "table" and r.result.plan_notes
    for _, n in ipairs(type(notes) == "table" and notes or {}) do
      if type(n) == "string" and not seen[n] then seen[n] = true; out[#out + 1] = n end
    end
  end
  return out
end

--- The layouts this study chose on each machine (rlx.calibrate), one text per calibration of a
--- model, precision and input the study ran there (the environment may hold calibrations of other
--- studies' models, and of other thread counts: a CPU calibration counts where runs used its
--- threads, one from before threads were recorded wherever the model ran): "epyc-2c: resnet50 fp32
--- at 224x224, channels_last (1.20x faster than contiguous at batch 16 (95 % CI 1.08-1.32))"
--- (rlx.calibrate.margin_text), with ", 1 thread" where the model ran with several thread counts
--- there; a probe from before issue 55 says it had no CI; when its runs used another layout (a
--- memory_format the study gave), it says so. Also returns how many were such older probes.
function M.calibration_texts(D)
  local function key_of(env, kind, model, precision, input)
    return table.concat({tostring(env), tostring(kind), tostring(model), tostring(precision), tostring(input)}, "|")
  end
  -- used[key][threads][layout]: the layouts the key's runs used with each thread count.
  local used, counts = {}, {}
  for _, r in ipairs(D.runs) do
    local kind = calibrate.kind(r.device)
    local key, threads = key_of(r.env, kind, r.model, r.precision, r.input), kind == "cpu" and tonumber(r.threads) or 0
    used[key] = used[key] or {}
    if not used[key][threads] then used[key][threads] = {}; counts[key] = (counts[key] or 0) + 1 end
    if r.memory_format then used[key][threads][r.memory_format] = true end
  end
  local out, n_older = {}, 0
  for _, c in ipairs(D.calibrations or {}) do
    local key, t = key_of(c.env, c.device, c.model, c.precision, c.input), tonumber(c.threads) or 0
    local layouts
    for threads, set in pairs(used[key] or {}) do
      if t == 0 or threads == t then
        layouts = layouts or {}
        for l in pairs(set) do layouts[l] = true end
      end
    end
    if layouts then
      local other = {}
      for l in pairs(layouts) do if l ~= c.memory_format then other[#other + 1] = l end end
      table.sort(other)
      local threads = t > 0 and counts[key] > 1 and string.format(", %d thread%s", t, t == 1 and "" or "s") or ""
      -- A probe from before issue 55 (no verdict) said which best step was faster, at batch 2, with
      -- no CI: its line says so, since its words cannot state a CI.
      local probe = type(c.probe) == "table" and c.probe or {}
      local older = not probe.verdict and string.format("; an older probe: best steps at batch %s, no CI",
        tostring(probe.batch or "?")) or ""
      if older ~= "" then n_older = n_older + 1 end
      out[#out + 1] = string.format("%s: %s %s at %dx%d%s, %s (%s%s)%s", tostring(c.env), c.model, c.precision,
        c.input, c.input, threads, c.memory_format, calibrate.margin_text(c), older, #other > 0 and
        (", but its runs used " .. table.concat(other, " and ") .. ", as the study gave") or "")
    end
  end
  return out, n_older
end

-- The kinds of a run's OpenMP waiting and huge pages, from its result's `startup` fields
-- (rlx._startup_text), for counting.
local function wait_kind(startup) return startup_text.openmp_kind(startup.openmp_wait) end
local function thp_kind(startup) return startup_text.huge_pages_kind(startup.huge_pages) end

-- "libgomp's default in 20 runs, a short spin (...) in 1".
local function counted(counts)
  local keys = {}
  for k in pairs(counts) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return counts[a] > counts[b] or (counts[a] == counts[b] and a < b) end)
  local parts = {}
  for i, k in ipairs(keys) do
    parts[i] = string.format("%s in %d run%s", k, counts[k], counts[k] == 1 and "" or "s")
  end
  return table.concat(parts, ", ")
end

--- What each run's process chose when it started (rlx records both in every result): how its
--- OpenMP threads waited (docs/training.md, "OpenMP waiting") and whether its heap was in huge
--- pages; nil when no run recorded them (a database from before they were recorded).
function M.process_settings_text(D)
  local parts = {}
  for _, s in ipairs({{wait_kind, "OpenMP waiting: "}, {thp_kind, "huge pages: "}}) do
    local counts = {}
    for _, r in ipairs(D.runs) do
      local startup = type(r.result) == "table" and type(r.result.startup) == "table" and r.result.startup
      local kind = startup and s[1](startup)
      if kind then counts[kind] = (counts[kind] or 0) + 1 end
    end
    if next(counts) then parts[#parts + 1] = s[2] .. counted(counts) end
  end
  return #parts > 0 and table.concat(parts, "; ") or nil
end

-- "45 runs: 9 configurations never run (h200 vgg16 amp bs64, ...), 36 further repeats": the runs a
-- plan left out, by configuration, named up to 6 (issue 45: the H200 plan listed 45 labels).
local function left_out_words(labels)
  local configs_seen, order, repeats = {}, {}, 0
  for _, l in ipairs(labels) do
    local base, n = tostring(l):match("^(.-)_run(%d+)")
    base = base or tostring(l)
    if tonumber(n) == 1 or not n then
      if not configs_seen[base] then configs_seen[base] = true; order[#order + 1] = base end
    else
      repeats = repeats + 1
    end
  end
  local parts = {}
  if #order > 0 then
    local names = {}
    for i = 1, math.min(6, #order) do names[i] = order[i] end
    parts[#parts + 1] = string.format("%d configuration%s never run (%s%s)", #order, #order == 1 and "" or "s",
      table.concat(names, ", "), #order > 6 and string.format(" and %d more", #order - 6) or "")
  end
  if repeats > 0 then parts[#parts + 1] = string.format("%d further repeat%s", repeats, repeats == 1 and "" or "s") end
  return table.concat(parts, ", ")
end

--- The last plan of each study (rlx.experiment: conn:plans) in words: its budget, its one estimate
--- against the wall time, what the budget left out and the command that adds it ({study, text,
--- left_out, add}, study order); empty without one.
function M.plan_texts(D)
  local last, order = {}, {}
  -- One plan per study and environment (two machines' plans of one study name used to overwrite
  -- each other, and a plan was named by its study alone: "Plan of p1-roofline").
  for _, p in ipairs(D.plans or {}) do
    local k = tostring(p.study or "") .. "|" .. tostring(p.environment_id or "")
    if not last[k] then order[#order + 1] = k end
    last[k] = p
  end
  local names = {}
  for _, e in ipairs(D.envs or {}) do names[e.id] = e.label end
  local out = {}
  for _, k in ipairs(order) do
    local p = last[k]
    local t = M.plan_text(D, p)
    t.study = p.study
    local env = names[p.environment_id]
    t.name = env and (env .. (p.study and (" (study " .. p.study .. ")") or "")) or p.study
    out[#out + 1] = t
  end
  return out
end

-- The runs of a plan's study on its environment that were stored (any status but running).
local function runs_of_plan(D, p)
  local n = 0
  for _, r in ipairs(D.runs or {}) do
    if (not p.study or r.study == p.study) and (not p.environment_id or r.environment_id == p.environment_id) and
      r.status ~= "running" then n = n + 1 end
  end
  return n
end

--- One plan in words (M.plan_texts); without `p`, the last plan of D. nil without one.
function M.plan_text(D, p)
  p = p or (D.plans or {})[#(D.plans or {})]
  if not p then return nil end
  local dur = rlx.budget.duration_text
  local detail = type(p.detail) == "table" and p.detail or {}
  local parts = {}
  if type(p.budget_s) == "number" then parts[#parts + 1] = "budget " .. dur(p.budget_s) end
  if detail.budget_note then parts[#parts + 1] = detail.budget_note end
  if type(p.estimate_s) == "number" then
    -- The estimate and the wall time are compared only over the same runs (issue 55: an estimate for
    -- 19 runs against the 9 that ran read as "-10 %").
    local planned, ran = tonumber(p.planned), runs_of_plan(D, p)
    local same = not planned or planned == ran
    parts[#parts + 1] = "estimated " .. dur(p.estimate_s) .. " before the first run" ..
      (planned and string.format(" for %d run%s", planned, planned == 1 and "" or "s") or "") ..
      (type(p.wall_s) == "number" and (same and string.format(", took %s (%+.0f %%) until the report",
        dur(p.wall_s), (p.wall_s / p.estimate_s - 1) * 100) or string.format(", took %s until the report for the " ..
        "%d run%s stored: not comparable with the estimate, which counted %d", dur(p.wall_s), ran,
        ran == 1 and "" or "s", planned)) or "")
  end
  local out = {text = table.concat(parts, "; ")}
  local left = type(detail.left_out) == "table" and detail.left_out or {}
  if #left > 0 then
    out.left_out = string.format("%d run%s left out whole for the budget (%s), which this command adds to the " ..
      "same database, keeping every run already made", #left, #left == 1 and "" or "s", left_out_words(left))
    out.add = detail.add
  end
  return out
end

function M.design(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("## 2. Experiment Design")
  M.hypotheses(ctx)
  -- Data-parallel runs (issue 52) add the ranks run, and the batch sizes are per rank.
  local dp = false
  for _, r in ipairs(D.runs) do dp = dp or configs.ranks_of(r) > 1 end
  local rows = {}
  for _, key in ipairs(env_keys(D)) do
    for _, sc in ipairs(scales(D, key)) do
      local models, precs, batches, repeats, orders, ranks = {}, {}, {}, {}, {}, {}
      local ok, failed, backend = 0, 0, nil
      for _, r in ipairs(sc.runs) do
        models[r.model] = true
        precs[r.precision or "?"] = true
        if r.batch then batches[r.batch] = true end
        ranks[configs.ranks_of(r)] = true
        repeats[r.run] = true
        if r.sweep_order then orders[r.sweep_order] = true end
        backend = backend or r.kind
        if r.status == "ok" then ok = ok + 1 elseif r.status == "failed" then failed = failed + 1 end
      end
      local nrep = 0
      for _ in pairs(repeats) do nrep = nrep + 1 end
      local c = configs.of(sc.runs[1])
      local p = configs.precision_reached(sc.runs)
      rows[#rows + 1] = {md.esc(key), backend, md.esc(c.input .. "x" .. c.input .. " " .. c.data),
        md.esc(list_join(sorted_keys(models))), md.esc(list_join(sorted_keys(precs, precision_first))),
        list_join(sorted_keys(batches, num_sort)), md.esc(configs.protocol_cell(sc.runs)),
        p and md.esc(M.reached_cell(p)) or "not recorded", tostring(nrep),
        next(orders) and md.esc(list_join(sorted_keys(orders))) or "-", string.format("%d / %d", ok, failed)}
      if dp then table.insert(rows[#rows], 7, list_join(sorted_keys(ranks, num_sort))) end
    end
  end
  doc:para("**Run matrix** (as stored):")
  local headers = {"Env", "Backend", "Input", "Models", "Precision", dp and "Batch sizes (per rank)" or "Batch sizes",
    "Iters (warm-up / timed)", "95 % CI reached", "Repeats", "Order", "Runs ok / failed"}
  local aligns = {"l", "l", "l", "l", "l", "l", "l", "l", "r", "l", "r"}
  if dp then
    table.insert(headers, 7, "Ranks")
    table.insert(aligns, 7, "l")
  end
  doc:para(md.table(headers, rows, aligns))
  doc:para("Iters: fixed counts as warm-up / timed iterations; \"until 95 % CI ≤ x %\" = timed until the 95 % " ..
    "confidence interval of the mean iteration time was within ±x % or a cap stopped it, with the warm-up and " ..
    "timed counts the runs used in brackets (docs/training.md). 95 % CI reached: the half-width of each ok run's " ..
    "95 % CI of its mean iteration time, as a share of that mean: lowest-highest (median), what the runs " ..
    "achieved whatever their target.")
  doc:para("Order: interleaved = repeat 1 of every configuration, then repeat 2, ...; grouped = the repeats of " ..
    "a configuration back to back; random = shuffled with a stored seed (docs/study.md).")
  M.precision_paragraph(ctx)
  -- Per environment (issue 55: one list mixed the environments' settings).
  local settings = {}
  for _, key in ipairs(env_keys(D)) do
    local knobs, layouts = {}, {}
    for _, r in ipairs(D.runs) do
      if r.env_key == key then
        if r.memory_format then
          layouts[r.memory_format] = layouts[r.memory_format] or {}
          layouts[r.memory_format][tostring(r.model)] = true
        end
        if r.pin_memory == 1 then knobs["pinned host memory"] = true end
      end
    end
    for layout, models in pairs(layouts) do
      knobs[string.format("memory format %s (%s)", layout, list_join(sorted_keys(models)))] = true
    end
    if next(knobs) then
      settings[#settings + 1] = (#env_keys(D) > 1 and (key .. ": ") or "") .. list_join(sorted_keys(knobs))
    end
  end
  if #settings > 0 then doc:para("**Framework settings recorded:** " .. md.esc(table.concat(settings, "; ")) .. ".") end
  local chosen_at_start = M.process_settings_text(D)
  if chosen_at_start then
    doc:para("**Chosen by each run's process when it started** (recorded with every run): " ..
      md.esc(chosen_at_start) .. ".")
  end
  local cals, n_older = M.calibration_texts(D)
  if #cals > 0 then
    doc:para("**Settings chosen on the machine that trained** (rlx.calibrate: each model timed in both memory " ..
      string.format("layouts, taking turns, at the smallest batch it trains at, before the first run; the faster " ..
      "kept when the 95 %% CI of the other's mean step over its own (a run one value) clears 1 by %.1f %% and " ..
      "the margin is beyond %.0f %%; else a tie, settled by more rounds at that batch, that keeps the default and " ..
      "states how far apart the layouts may be%s): ", calibrate.CLEAR * 100, calibrate.NEAR * 100, n_older > 0 and
      "; a probe from before issue 55 timed batch 2 and kept the faster best step, without a CI" or "") ..
      md.esc(table.concat(cals, "; ")) .. ".")
  end
  local notes = M.plan_notes(D)
  local plans = M.plan_texts(D)
  local function of(plan) return #plans > 1 and plan.name and (plan.name .. ": ") or "" end
  for _, plan in ipairs(plans) do if plan.left_out then notes[#notes + 1] = of(plan) .. plan.left_out end end
  if #notes > 0 then doc:para("**Left out by the plan:** " .. md.esc(table.concat(notes, "; ")) .. ".") end
  for _, plan in ipairs(plans) do if plan.add then doc:para(md.code(plan.add)) end end
  for _, plan in ipairs(plans) do
    if plan.text ~= "" then doc:para("**Plan" .. (of(plan) ~= "" and (" of " .. md.esc(plan.name)) or "") .. ":** " ..
      md.esc(plan.text) .. ".") end
  end
  -- One entry per dataset, its inputs listed once (issue 55: "synthetic images ..., input 224x224,
  -- 1000 classes, synthetic images ..., input 32x32, 1000 classes"), each input naming its
  -- environments when the report has several.
  local data, inputs, envs_at = {}, {}, {}
  for _, r in ipairs(#D.ok > 0 and D.ok or D.runs) do
    local c = type(r.config) == "table" and r.config or {}
    local rc = configs.of(r)
    local res = type(r.result) == "table" and r.result or {}
    local what = rc.data ~= "synthetic" and ("images from " .. md.code(rc.data) .. (res.dataset_size and
      string.format(" (%s, %d images in %d classes)", tostring(res.data_kind), res.dataset_size,
        res.dataset_classes or 0) or "")) or "synthetic images (rlx's generator, no dataset)"
    local k = string.format("%s, %s classes", what, tostring(c.classes or "default"))
    local input = string.format("%sx%s", rc.input, rc.input)
    if not data[k] then data[k] = true; inputs[k] = {} end
    inputs[k][input] = true
    envs_at[k .. input] = envs_at[k .. input] or {}
    envs_at[k .. input][r.env_key] = true
  end
  local several_envs = #env_keys(D) > 1
  local entries = {}
  for _, k in ipairs(sorted_keys(data)) do
    local list = sorted_keys(inputs[k], function(a, b) return (tonumber(a:match("^%d+")) or 0) >
      (tonumber(b:match("^%d+")) or 0) end)
    for i, input in ipairs(list) do
      list[i] = input .. ((several_envs and #list > 1) and (" (" .. md.esc(list_join(sorted_keys(envs_at[k .. input]))) .. ")")
        or "")
    end
    entries[#entries + 1] = string.format("%s, input %s", k, list_join(list))
  end
  doc:para("**Dataset.** " .. (#entries > 0 and table.concat(entries, "; ") or "no runs") .. ".")
  -- A data-parallel run's images/s is over all its ranks (issue 52): said where a row has them (§6.8).
  local dp_rows = false
  for _, r in ipairs(D.ok) do dp_rows = dp_rows or configs.ranks_of(r) > 1 end
  doc:para("**Timing & profiling.** rlx times every measured iteration on a monotonic clock (CUDA: synchronized " ..
    "events), after the warm-up iterations; images/s = batch / mean iteration time (docs/training.md)" ..
    (dp_rows and "; a data-parallel run's (ranks > 1) is global: ranks × batch per rank × timed iterations ÷ the " ..
      "slowest rank's summed step seconds, and its iteration time is rank 0's (§6.8)" or "") .. ". " ..
    "Protocol: " .. md.esc(#D.runs > 0 and configs.protocol_text(D.runs) or "no runs") .. ". " ..
    "Counters: " .. ctx.counter_summary .. "." .. M.seed_protocol_text(ctx))
  doc:para("---")
end

--- How the runs' iterations compare with seed 000's fixed protocol (10 warm-up + 100 timed): "" when
--- every ok run timed at least as many; else the range they timed and why rlx stops earlier.
function M.seed_protocol_text(ctx)
  local lo, hi, wlo, whi, targeted
  for _, r in ipairs(ctx.D.ok) do
    local res = type(r.result) == "table" and r.result or {}
    targeted = targeted or (type(r.config) == "table" and type(r.config.target_ci) == "number")
    local n, w = tonumber(res.iters), tonumber(res.warmup_used)
    if n then lo, hi = math.min(lo or n, n), math.max(hi or n, n) end
    if w then wlo, whi = math.min(wlo or w, w), math.max(whi or w, w) end
  end
  if not lo or (lo >= (ctx.SEED_ITERS or 100) and (wlo or 0) >= (ctx.SEED_WARMUP or 10)) then return "" end
  local function range(a, b) return a == b and tostring(a) or (a .. "-" .. b) end
  return string.format(" **Against seed 000's protocol** (%d warm-up + %d timed iterations per run): these runs " ..
    "timed %s iterations%s. %s", ctx.SEED_WARMUP or 10, ctx.SEED_ITERS or 100, range(lo, hi),
    wlo and string.format(" after %s warm-up", range(wlo, whi)) or "", targeted and ("rlx stops a run when its " ..
      "95 % CI reaches the target or its time budget ends, and states the precision each run reached (above), " ..
      "rather than spending a fixed count.") or "The study set these counts; the precision they reached is stated above.")
end

--- A run matrix cell of the precision reached: "±1.6-49.2 % (median ±13.9 %)".
function M.reached_cell(p)
  local function pc(x) return string.format(x < 0.01 and "%.2f" or "%.1f", x * 100) end
  return string.format("±%s%s %% (median ±%s %%)", pc(p.lo), p.hi > p.lo and ("-" .. pc(p.hi)) or "", pc(p.median))
end

--- §2's statement of the precision each environment's runs reached, and of every target they missed
--- (issue 30: the report said "timed to 95 % CI <= 2 %" while the runs reached ±3-49 %).
function M.precision_paragraph(ctx)
  local lines = {}
  for _, key in ipairs(env_keys(ctx.D)) do
    local runs = {}
    for _, r in ipairs(ctx.D.ok) do if r.env_key == key then runs[#runs + 1] = r end end
    local text = configs.precision_text(runs)
    if text then lines[#lines + 1] = string.format("- %s: %s.", md.esc(key), md.esc(text)) end
  end
  if #lines > 0 then
    ctx.doc:para("**Precision reached** (each run's 95 % CI of its mean iteration time, half-width over the " ..
      "mean; Table 2 gives each row's 95 % CI of the mean images/s over its repeats):"):para(lines)
  end
end

-- Complexity rows: one per model (and input), one per model x precision x batch.
local function complexity_rows(ctx)
  local D = ctx.D
  local per_model, per_batch, order_m, order_b = {}, {}, {}, {}
  for _, r in ipairs(D.ok) do
    local c = D.complexity[r.id]
    if c then
      local input = (type(r.config) == "table" and r.config.input) or c.input or 224
      local mk = r.model .. "|" .. tostring(input)
      if not per_model[mk] then per_model[mk] = {r = r, c = c, input = input}; order_m[#order_m + 1] = mk end
      local bk = table.concat({r.model, tostring(input), tostring(r.precision), tostring(r.batch)}, "|")
      if not per_batch[bk] then per_batch[bk] = {r = r, c = c, input = input}; order_b[#order_b + 1] = bk end
    end
  end
  return per_model, order_m, per_batch, order_b
end

local function train_flops_per_sample(c, batch)
  local per_image = (c.forward_flops or 0) + (c.elementwise_flops or 0) + (c.backward_flops or 0)
  if c.backward_flops then return per_image end
  if type(c.train_flops) == "number" and batch and batch > 0 then return c.train_flops / batch end
  return nil
end

-- §3: Table 1 with the seed's convention alongside.
function M.complexity(ctx)
  local doc = ctx.doc
  doc:para("## 3. Model Complexity")
  local per_model, order_m, per_batch, order_b = complexity_rows(ctx)
  if #order_m == 0 then
    doc:para("No complexity is stored with the runs (runs from a custom trainer, or no ok runs): no Table 1.")
    ctx.missing[#ctx.missing + 1] = "no stored complexity: no Table 1"
    doc:para("---")
    return
  end
  local rows, ratios = {}, {}
  for _, k in ipairs(order_m) do
    local e = per_model[k]
    local c = e.c
    local macs = c.forward_macs or (c.forward_flops and c.forward_flops / 2)
    local train = train_flops_per_sample(c, e.r.batch)
    -- The seed kit's count (docs/export-seed.md, "TRAIN_FACTOR"): flops_per_batch_forward (2 x MACs
    -- per image, as rlx's export writes it) x TRAIN_FACTOR.
    local seed = macs and 2 * macs * ctx.TRAIN_FACTOR
    local ratio = (train and seed and seed > 0) and train / seed or nil
    if ratio then ratios[#ratios + 1] = ratio end
    rows[#rows + 1] = {md.esc(e.r.model), tostring(e.input), md.fixed((c.params or 0) / 1e6, 2),
      md.mb(c.params and c.params * 4), md.mib(c.params and c.params * 4), md.sig(macs and macs / 1e9, 4),
      md.sig(c.forward_flops and c.forward_flops / 1e9, 4), md.sig(train and train / 1e9, 4),
      md.sig(seed and seed / 1e9, 4), ratio and string.format("%.2f×", ratio) or "-"}
  end
  doc:para("**Table 1 — parameters and FLOPs per sample** (rlx.model.summary, stored with each run; " ..
    "G = 1e9, M = 1e6; params size = parameters × 4 bytes (fp32), torchsummary's \"Params size (MB)\", which " ..
    "is in MiB; " .. md.MEMORY_UNITS .. "):")
  doc:para(md.table({"Model", "Input", "Params (M)", "Params size (MB)", "Params size (MiB)",
    "Forward MACs / sample (G)", "Forward FLOPs / sample (G)", "Training FLOPs / sample (G), rlx",
    "Seed kit: forward FLOPs × TRAIN_FACTOR (G)", "rlx / seed kit"}, rows, {"l", "r", "r", "r", "r", "r", "r", "r", "r", "r"}))
  local lo, hi = math.huge, 0
  for _, x in ipairs(ratios) do lo, hi = math.min(lo, x), math.max(hi, x) end
  if #ratios > 0 then
    doc:para(string.format("The seed kit's analysis/roofline.py counts a training iteration as " ..
      "`flops_per_batch_forward` × TRAIN_FACTOR (= %d), and `rlx export --layout seed` writes " ..
      "`flops_per_batch_forward` = 2 × forward MACs × batch, so on rlx's files the kit counts forward FLOPs × %d " ..
      "per image: the forward pass and one pass more (docs/export-seed.md, \"TRAIN_FACTOR\"). A training step " ..
      "runs the forward pass, the backward pass (weight and input gradients, about twice the forward) and " ..
      "elementwise layers, which rlx counts (docs/complexity.md); so rlx's figure is %s the kit's here, and the " ..
      "kit's GFLOP/s on the same run are that much lower. The optimizer update is counted per iteration, not per " ..
      "sample (it does not grow with the batch): Table 1b's training FLOPs per iteration include it.",
      ctx.TRAIN_FACTOR, ctx.TRAIN_FACTOR,
      lo == hi and string.format("%.2f×", lo) or string.format("%.2f× to %.2f×", lo, hi)))
  end
  local brows = {}
  for _, k in ipairs(order_b) do
    local e = per_batch[k]
    local c, b = e.c, e.r.batch or 0
    local opt = (c.grad_bytes or 0) + (c.momentum_bytes or 0)
    brows[#brows + 1] = {md.esc(e.r.model), md.esc(e.r.precision), tostring(b)}
    if varies(ctx.D, "input") then brows[#brows][4] = tostring(e.input) end
    extend(brows[#brows], {md.sig(c.forward_flops and c.forward_flops * b / 1e9, 4),
      md.sig(c.train_flops and c.train_flops / 1e9, 4),
      md.mb(c.activation_bytes), md.mb(c.param_bytes or (c.params and c.params * 4)), md.mb(opt > 0 and opt or nil),
      md.mb(c.memory_bytes), md.mib(c.memory_bytes), md.sig(c.bytes and c.bytes / 1e9, 4), md.fixed(c.ai, 2)})
  end
  local bh = {"Model", "Precision", "Batch", "Forward FLOPs / batch (G)", "Training FLOPs / iteration (G)",
    "Activations (MB)", "Parameters (MB)", "Optimizer (MB)", "Training memory (MB)", "Training memory (MiB)",
    "Bytes / iteration (GB)", "AI (FLOP/byte)"}
  local ba = {"l", "l", "r", "r", "r", "r", "r", "r", "r", "r", "r", "r"}
  -- Two input sizes of one model, precision and batch: an Input column tells the rows apart.
  if varies(ctx.D, "input") then bh, ba = configs.splice(bh, 3, {"Input"}), configs.splice(ba, 3, {"r"}) end
  local where = ctx.to_appendix("Table 1b — per batch size", {"Memory in MB, as `rlx models` prints it, and the " ..
    "training memory in MiB too: " .. md.MEMORY_UNITS .. "; optimizer = gradients + SGD momentum; bytes = minimum " ..
    "DRAM traffic per iteration, GB = 1e9.", md.table(bh, brows, ba)})
  local mem_lo, mem_hi = math.huge, 0
  for _, k in ipairs(order_b) do
    local m = per_batch[k].c.memory_bytes
    if type(m) == "number" then mem_lo, mem_hi = math.min(mem_lo, m), math.max(mem_hi, m) end
  end
  doc:para(string.format("Table 1b (%s) gives each model, precision and batch size its FLOPs per iteration, " ..
    "training memory (activations, parameters, gradients and momentum%s) and minimum DRAM bytes per iteration.",
    where, mem_hi > 0 and string.format(": %s to %s MB here", md.mb(mem_lo), md.mb(mem_hi)) or ""))
  local cmds, seen = {}, {}
  for _, k in ipairs(order_b) do
    local e = per_batch[k]
    local key = table.concat({e.r.model, tostring(e.input), tostring(e.r.precision)}, "|")
    if not seen[key] then
      seen[key] = {model = e.r.model, input = e.input, precision = e.r.precision, batches = {},
        classes = type(e.r.config) == "table" and e.r.config.classes or nil}
      cmds[#cmds + 1] = seen[key]
    end
    table.insert(seen[key].batches, tostring(e.r.batch))
  end
  local lines = {}
  for _, c in ipairs(cmds) do
    local words = {"rlx", "models", c.model, {"--batch", table.concat(c.batches, ",")}, {"--input", tostring(c.input)}}
    if c.classes then words[#words + 1] = {"--classes", tostring(c.classes)} end
    words[#words + 1] = {"--precision", tostring(c.precision)}
    lines[#lines + 1] = "- " .. md.code(md.shell(words))
  end
  doc:para("The same numbers, layer by layer (add " .. md.code("--layers") .. "):"):para(lines)
  local draft = drafts.complexity(ctx)
  if draft then doc:para(draft) end
  doc:para("---")
end

-- §4.1 and §4.2.
function M.measurement(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("## 4. Measurement Results")
  local exports = {}
  for _, s in ipairs(studydata.sources(D)) do
    local words = {"rlx", "export", s.path or "DB", {"--status", "ok"}, {"--csv", "logs/metrics.csv"}}
    if s.study then words[#words + 1] = {"--study", s.study} end
    exports[#exports + 1] = md.code(md.shell(words))
  end
  doc:para("**Data sources.** " .. M.sources_text(D) .. " (tables runs, samples, counters); the seed's " ..
    "metrics.csv columns: " .. table.concat(exports, "; ") .. ".")
  doc:para("### 4.1 Throughput vs Batch Size")
  for _, key in ipairs(env_keys(D)) do
    local f = figure(ctx, "A", key)
    if f then embed(ctx, f, "Throughput vs batch — " .. key) end
  end
  local its = {}
  for _, g in ipairs(D.groups) do its[#its + 1] = compute.throughput(g).iter_mean_s end
  local unit, factor = md.time_unit(its)
  local rows, marked, single = {}, false, 0
  for _, g in ipairs(D.groups) do
    local t = compute.throughput(g)
    marked = marked or t.all_flagged
    if t.n == 1 and t.n_all > 1 then single = single + 1 end
    rows[#rows + 1] = extend(lead_cells(D, g), {tostring(t.n), md.mean_sd_sig(t.mean, t.sd) .. t.mark,
      md.mean_sd_sig(t.iter_mean_s and t.iter_mean_s * factor, t.iter_sd_s and t.iter_sd_s * factor) .. t.mark,
      md.esc(t.note), ctx.ref(g)})
  end
  if #rows == 0 then
    doc:para("No successful runs: nothing to tabulate.")
  else
    local h, a = lead_headers(D)
    local where = ctx.to_appendix("Throughput and iteration time per configuration", {"Images/s, mean ± SD over " ..
      "repeats (sample SD, n − 1). Runs that are " .. configs.left_out_words(D.ok) .. " are left out of the mean " ..
      "and named in Left out (a row whose every run is, keeps them, marked " .. configs.MARK .. "); n counts the " ..
      "runs averaged:",
      md.table(extend(h, {"n", "Images/s", "Iteration (" .. unit .. ")", "Left out", "Runs"}), rows,
        extend(a, {"r", "r", "r", "l", "l"}))})
    doc:para(string.format("Each configuration's images/s and iteration time, with the runs left out of its mean " ..
      "and why, are in %s; Table 2 (§6) has the means with their 95 %% CI.%s", where, single > 0 and
      string.format(" %d row%s rest%s on one run of several (the rest left out): %s Left out cell says which of " ..
      "the repeats it was and the mean of all of them.", single, single == 1 and "" or "s", single == 1 and "s" or "",
      single == 1 and "its" or "each row's") or ""))
    if marked then M.mark_legend(ctx) end
    M.trends(ctx)
  end
  if #D.failed > 0 then
    doc:para(string.format("%d failed run%s %s listed in Appendix B and not averaged into any row.", #D.failed,
      #D.failed == 1 and "" or "s", #D.failed == 1 and "is" or "are"))
  end
  M.variability(ctx)
  measured.section(ctx)
  doc:para("---")
end

--- The legend of the mark on the values of a row whose every run was flagged.
function M.mark_legend(ctx)
  ctx.doc:para(configs.MARK .. " Every run of the row was " .. configs.left_out_words(ctx.D.ok) ..
    ": the values are the mean of " ..
    "those runs, shown so the row is not lost, not a trustworthy measurement.")
end

-- One sentence per series (one configuration but for the batch): how images/s changes from the
-- smallest to the largest batch.
function M.trends(ctx)
  local series, order = {}, {}
  for _, g in ipairs(ctx.D.groups) do
    local k = configs.key(g.runs[1], {batch = true})
    if not series[k] then series[k] = {}; order[#order + 1] = k end
    table.insert(series[k], g)
  end
  local lines = {}
  for _, k in ipairs(order) do
    local s = series[k]
    if #s >= 2 then
      local a, b = s[1], s[#s]
      local ta, tb = compute.throughput(a), compute.throughput(b)
      if ta.mean and tb.mean and ta.mean > 0 then
        local extra = configs.describe(ctx.D.varying or {}, a.runs[1])
        -- Runs left out at either end can move the trend (issue 30: -11 % over the kept runs where all
        -- runs said -5 %): the trend over every ok run is said beside it.
        local all = ""
        if ta.n < ta.n_all or tb.n < tb.n_all then
          local ma, mb = stats.mean(compute.values(a.runs, "images_per_s")), stats.mean(compute.values(b.runs, "images_per_s"))
          if ma and mb and ma > 0 then all = string.format("; over all ok runs %+.1f %%", (mb / ma - 1) * 100) end
        end
        lines[#lines + 1] = string.format("- %s, %s, %s%s: %s images/s at batch %d → %s at batch %d (%+.1f %%%s).",
          md.esc(a.env_key), md.esc(a.model), md.esc(a.precision), extra ~= "" and (", " .. md.esc(extra)) or "",
          md.sig(ta.mean, 3), a.batch, md.sig(tb.mean, 3), b.batch, (tb.mean / ta.mean - 1) * 100, all)
      end
    end
  end
  if #lines > 0 then ctx.doc:para("Trend with batch size (smallest to largest batch):"):para(lines) end
  local draft = drafts.trends(ctx)
  if draft then ctx.doc:para(draft) end
end

function M.variability(ctx)
  local D, doc = ctx.D, ctx.doc
  doc:para("### 4.2 Variability")
  local f = figure(ctx, "B")
  if f then
    embed(ctx, f, "Run-to-run variability")
    M.figure_b_config(ctx, f.config, f.spread)
  else
    local why = ctx.figures_not_drawn.B
    if why then doc:para("Figure B is not drawn: " .. md.esc(why) .. ".") end
  end
  local rows, ranked = {}, {}
  for _, g in ipairs(D.groups) do
    local t = compute.throughput(g)
    rows[#rows + 1] = extend(lead_cells(D, g), {tostring(t.n), t.cv and (md.pct(t.cv, 2) .. t.mark) or "-",
      t.within_cv and md.pct(t.within_cv, 2) or "-", md.esc(noise.cv_reason(g) or "-"), ctx.ref(g)})
    if t.cv then ranked[#ranked + 1] = {g = g, cv = t.cv} end
  end
  if #rows == 0 then return end
  local h, a = lead_headers(D)
  local paragraphs = {string.format("Coefficient of variation (SD / mean) of images/s across the repeats averaged " ..
    "in §4.1, and of the iteration time within a run (mean over those repeats). A row above %s across repeats " ..
    "states why (docs/report.md):", md.pct(noise.CV_LIMIT, 0)),
    md.table(extend(h, {"n", "CV across repeats", "CV within runs", "Why CV > " .. md.pct(noise.CV_LIMIT, 0), "Runs"}),
      rows, extend(a, {"r", "r", "r", "l", "l"}))}
  local unstable = M.unstable_text(ctx)
  if unstable then paragraphs[#paragraphs + 1] = unstable end
  local where = ctx.to_appendix("Variability per configuration", paragraphs)
  ctx.variability_appendix = where  -- the draft's citation of the table (drafts.variability)
  doc:para(string.format("Every configuration's CV across repeats and within runs, with the reason of each above " ..
    "%s, is in %s.%s", md.pct(noise.CV_LIMIT, 0), where, M.unstable_count(ctx, where)))
  if #ranked == 0 then
    doc:para("Every configuration has a single repeat: no CV across repeats (sweep with repeats = 3).")
    ctx.missing[#ctx.missing + 1] = "a single repeat per configuration: no variability across repeats, no confidence intervals"
  else
    M.noisiest(ctx, ranked)
  end
  noise.section(ctx)
  drift.section(ctx)
  local draft = drafts.variability(ctx)
  if draft then doc:para(draft) end
end

-- The three noisiest rows and the median CV of each environment.
function M.noisiest(ctx, ranked)
  local D, doc = ctx.D, ctx.doc
  table.sort(ranked, function(a, b) return a.cv > b.cv end)
  local names = {}
  for i = 1, math.min(3, #ranked) do
    names[#names + 1] = string.format("%s (CV %s)", ctx.describe(ranked[i].g), md.pct(ranked[i].cv, 2))
  end
  doc:para("Noisiest: " .. table.concat(names, "; ") .. ".")
  local env_lines = {}
  for _, k in ipairs(env_keys(D)) do
    local repeats = compute.repeat_cvs(D, k)
    if repeats.median then
      env_lines[#env_lines + 1] = string.format("- %s: median CV %s over %d configurations.", md.esc(k),
        md.pct(repeats.median, 2), #repeats.cvs)
    end
  end
  doc:para(env_lines)
end

-- What Figure B draws for each environment (rlx.figures.spread; issue 55: a CPU's 8-11 % spread hid
-- on a 1-10k log axis, and a box was promised that no environment had the repeats for): its median,
-- the repeats' range as % from it and the CV, or one run and no spread; and whether a box is drawn.
local function figure_b_spread(spread)
  local parts, boxes = {}, 0
  for _, x in ipairs(spread) do
    if x.box then boxes = boxes + 1 end
    if x.n == 1 then
      parts[#parts + 1] = string.format("%s one run, %s images/s, no spread", md.esc(x.env), md.sig(x.median, 3))
    else
      parts[#parts + 1] = string.format("%s %d repeats around a median of %s images/s, from %+.1f %% to %+.1f %% " ..
        "(CV %s)", md.esc(x.env), x.n, md.sig(x.median, 3), x.lo_pct, x.hi_pct, md.pct(x.cv, 1))
    end
  end
  return string.format("It draws each environment's images/s as the %% difference from its own median, so spreads " ..
    "compare across machines of any speed: %s; %s.", table.concat(parts, "; "), boxes == #spread and
    "each as a box (quartiles, whiskers to 1.5 IQR)" or (boxes == 0 and
    "no box (it needs 5 repeats): mean ± 1 SD as a bar, every repeat as a dot" or
    "a box where there are 5 repeats or more, else mean ± 1 SD as a bar; every repeat as a dot"))
end

-- Which configuration Figure B shows: seed 000's fixed one, or the nearest the study ran; and what
-- it draws (spread: rlx.figures.spread's).
function M.figure_b_config(ctx, c, spread)
  local text
  if type(c) == "table" then
    local what = string.format("%s, %s, batch %s", md.esc(c.model), md.esc(c.precision), tostring(c.batch))
    local envs = c.envs and (" (" .. md.esc(table.concat(c.envs, ", ")) .. ")") or ""
    if c.seed then
      text = "Figure B shows seed 000's fixed configuration (" .. what .. ") in every environment that ran it" ..
        envs .. "."
    elseif c.nearest_to then
      local s = c.nearest_to
      text = string.format("Figure B shows %s in %s%s, the workload nearest to seed 000's fixed configuration " ..
        "(%s, %s, batch %d) among those run in the most environments (then: same model, precision, the batch " ..
        "closest by ratio); each environment under its own protocol.", what, c.envs and #c.envs > 1 and
        (#c.envs .. " environments") or "one environment", envs, s.model, s.precision, s.batch)
    end
  end
  local drawn = type(spread) == "table" and #spread > 0 and figure_b_spread(spread) or nil
  if text and drawn then text = text .. " " .. drawn end
  if text or drawn then ctx.doc:para(text or drawn) end
end

-- Runs whose timed iterations never reached a steady state (issue 15: stable = 0), with their drift;
-- how many had a verdict; how many were too short for one (unjudged); how many an older rlx judged
-- by its own rule (rlx.studydb.data judged them again), with how many that rule called unsteady.
local function verdicts(ctx)
  local v = {names = {}, known = 0, unjudged = 0, old = 0, old_unsteady = 0}
  for _, r in ipairs(ctx.D.ok) do
    local verdict = configs.verdict(r)
    if verdict == "unjudged" then v.unjudged = v.unjudged + 1 elseif verdict then v.known = v.known + 1 end
    if verdict == "unsteady" then
      v.names[#v.names + 1] = md.code(r.label) ..
        (type(r.drift) == "number" and (" (drift " .. md.pct(r.drift, 1) .. ")") or "")
    end
    if r.old_verdict then
      v.old = v.old + 1
      if r.old_verdict.stable == 0 then v.old_unsteady = v.old_unsteady + 1 end
    end
  end
  return v
end

-- "3 runs had too few timed iterations for a verdict (...)" and the older rule's note; "" for none.
local function unjudged_text(v)
  local out = ""
  if v.unjudged > 0 then
    out = string.format(" %d %s too few timed iterations for a steady-state verdict (the drift test needs two " ..
      "in each half, four in all: docs/training.md); like unsteady runs they are left out of the means, except " ..
      "in a row whose every run is flagged (kept, marked %s).", v.unjudged, v.unjudged == 1 and "run had" or "runs had",
      configs.MARK)
  end
  if v.old > 0 then
    out = out .. string.format(" The rlx that stored %s judged steadiness by an older rule (a drift between " ..
      "single samples beyond 5 %%, %d of them called unsteady); these verdicts are today's rule applied to the " ..
      "stored iteration times.", v.old == 1 and "one run" or ("these " .. v.old .. " runs"), v.old_unsteady)
  end
  return out
end

--- The unstable runs named (Appendix F's variability table), nil without verdicts.
function M.unstable_text(ctx)
  local v = verdicts(ctx)
  if v.known == 0 and v.unjudged == 0 then return nil end
  local first
  if v.known == 0 then
    first = "No run has a steady-state verdict."
  elseif #v.names == 0 then
    first = string.format("%s with a steady-state verdict reached one (drift between the halves of " ..
      "their timed iterations within the limit).", v.known == 1 and "The one run" or ("All " .. v.known .. " runs"))
  else
    first = string.format("Unstable runs (%d of %d with a verdict; drift = change of the mean iteration time " ..
      "from the first to the second half): %s. They are left out of every mean (a row whose every run is " ..
      "unstable keeps them, marked %s); Table 2's Stable column counts them.", #v.names, v.known,
      table.concat(v.names, ", "), configs.MARK)
  end
  return first .. unjudged_text(v)
end

--- " 19 of 27 runs with a verdict were unsteady (named in Appendix F.2) and left out of the means."
function M.unstable_count(ctx, where)
  local v = verdicts(ctx)
  local first = ""
  if v.known > 0 and #v.names == 0 then
    first = string.format(" %s with a steady-state verdict reached one.",
      v.known == 1 and "The one run" or ("All " .. v.known .. " runs"))
  elseif v.known > 0 then
    first = string.format(" %d of %d runs with a verdict never reached a steady state (named in %s); they are " ..
      "left out of every mean, except in a row whose every run is unsteady (kept, marked %s).", #v.names, v.known,
      where, configs.MARK)
  end
  return first .. unjudged_text(v)
end

return M
