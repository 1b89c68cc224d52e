-- rlx.report.scaling: §6.8 of report.md, data-parallel scaling (issue 52), present only when a row
-- has ranks > 1. Per data-parallel family (rows equal in every configuration field but the ranks,
-- the threads and the batch: rlx.report.pairs.scaling) a table of global images/s, the weak- and
-- strong-scaling efficiency against 1 rank (rlx.report.pairs.scaling_vs_one), the gradient
-- all-reduce's time and share and the exposed communication (rlx.report.compute.data_parallel), then
-- Figure E and seed 004's memory table: each rank's and the total peak memory beside the model's
-- parameter memory. Every cell comes from the stored runs; the text says which field.
local md = require("rlx.report.md")
local compute = require("rlx.report.compute")
local configs = require("rlx.studydb.configs")
local pairing = require("rlx.report.pairs")
local M = {}

-- "90.1 %" or "90.1 % (95 % CI 79.3–101.0 %)": an efficiency with its CI where it has one.
local function efficiency_cell(s)
  local e = md.fixed(s.efficiency * 100, 1) .. " %"
  if not s.low then return e end
  return string.format("%s (95 %% CI %s–%s %%)", e, md.fixed(s.low * 100, 1), md.fixed(s.high * 100, 1))
end

-- What a row without a baseline lacks: "no 1-rank run at batch 2".
local function missing_cell(s)
  if s.no_values then return "no images/s on a side" end
  if not s.missing.batch then return "no whole batch per rank at 1 rank" end
  return string.format("no 1-rank run at batch %d", s.missing.batch)
end

-- "9.80 (30.0 %)": milliseconds per step with the share of rank 0's step.
local function ms_share(s, share)
  if type(s) ~= "number" then return "-" end
  return md.sig(s * 1e3, 3) .. (type(share) == "number" and (" (" .. md.share(share) .. ")") or "")
end

-- The configuration fields (beyond env, model, precision) a family is told apart by: the study's
-- varying fields without those a family varies (ranks, threads).
local function family_fields(D)
  local out = {}
  for _, f in ipairs(D.varying or {}) do
    if f.name ~= "ranks" and f.name ~= "threads" then out[#out + 1] = f end
  end
  return out
end

-- "epyc-2c, resnet18, fp32" plus the fields other families differ in ("input 48x48").
local function family_name(D, g)
  local extra = configs.describe(family_fields(D), g.runs[1])
  return string.format("%s, %s, %s", md.esc(g.env_key), md.esc(g.model), md.esc(g.precision)) ..
    (extra ~= "" and (", " .. md.esc(extra)) or "")
end

-- How a family's ranks ran: "gloo, launched locally, 1 thread per rank; 1 rank: 2 threads".
local function how_text(D, f)
  local parts, one = {}, {}
  local seen = {}
  for _, e in ipairs(f.entries) do
    if e.ranks > 1 then
      local dp = compute.data_parallel(D, e.row)
      local words = {}
      if dp.backend then words[#words + 1] = tostring(dp.backend) end
      if dp.launcher then words[#words + 1] = "launched " .. (dp.launcher == "local" and "locally" or ("by " .. dp.launcher)) end
      if dp.threads_per_rank then
        words[#words + 1] = string.format("%s thread%s per rank", tostring(dp.threads_per_rank),
          dp.threads_per_rank == 1 and "" or "s")
      end
      local text = string.format("%d ranks: %s", e.ranks, table.concat(words, ", "))
      if #words > 0 and not seen[text] then seen[text] = true; parts[#parts + 1] = text end
    else
      local th = e.row.runs[1].threads
      if th and not seen["1:" .. tostring(th)] then
        seen["1:" .. tostring(th)] = true
        one[#one + 1] = string.format("%s thread%s", tostring(th), th == 1 and "" or "s")
      end
    end
  end
  if #one > 0 then parts[#parts + 1] = "1 rank: " .. table.concat(one, ", ") end
  return table.concat(parts, "; ")
end

-- One family's scaling table.
local function scaling_table(ctx, f)
  local D = ctx.D
  local rows = {}
  for _, e in ipairs(f.entries) do
    local t = e.t
    local cells = {tostring(e.ranks), tostring(e.batch), tostring(e.global_batch or "-"),
      md.mean_sd_sig(t.mean, t.sd) .. t.mark, tostring(t.n)}
    if e.ranks == 1 then
      cells[#cells + 1] = "baseline"
      cells[#cells + 1] = "baseline"
      cells[#cells + 1] = "baseline"
      cells[#cells + 1] = "none (1 process)"
      cells[#cells + 1] = "none (1 process)"
      cells[#cells + 1] = "-"
    else
      local dp = compute.data_parallel(D, e.row)
      cells[#cells + 1] = e.weak.efficiency and efficiency_cell(e.weak) or missing_cell(e.weak)
      cells[#cells + 1] = e.strong.efficiency and pairing.ratio_words(e.strong.r) or missing_cell(e.strong)
      cells[#cells + 1] = e.strong.efficiency and efficiency_cell(e.strong) or "-"
      cells[#cells + 1] = ms_share(dp.allreduce_s, dp.comm_share)
      cells[#cells + 1] = ms_share(dp.exposed_comm_s, dp.exposed_share)
      cells[#cells + 1] = md.mb(dp.grad_bytes_per_step)
    end
    local refs = {ctx.ref(e.row)}
    for _, s in ipairs({e.weak, e.strong}) do
      if s and s.base then refs[#refs + 1] = ctx.ref(s.base) end
    end
    cells[#cells + 1] = table.concat(refs, " ")
    rows[#rows + 1] = cells
  end
  return md.table({"Ranks", "Batch per rank", "Global batch", "Images/s (global)", "n",
    "Weak: efficiency (same batch per rank)", "Strong: speedup (same global batch)", "Strong: efficiency",
    "All-reduce ms/step (share)", "Exposed comm. ms/step (share)", "Gradients MB/step", "Runs"}, rows,
    {"r", "r", "r", "r", "r", "r", "r", "r", "r", "r", "r", "l"})
end

-- Seed 004's memory table over every family: each rank's and the total peak memory beside one
-- replica's parameter memory.
local function memory_table(ctx, families)
  local D = ctx.D
  local rows, what, from = {}, {}, {}
  for _, f in ipairs(families) do
    for _, e in ipairs(f.entries) do
      local g = e.row
      local dp = compute.data_parallel(D, g)
      local per = {}
      for i = 1, #(dp.rank_bytes or {}) do per[i] = md.mb(dp.rank_bytes[i]) end
      if dp.memory_what then what[dp.memory_what] = true end
      if dp.param_from then from[dp.param_from] = true end
      local ratio = (dp.total_bytes and dp.param_bytes and dp.param_bytes > 0) and
        (md.sig(dp.total_bytes / dp.param_bytes, 3) .. "×") or "-"
      rows[#rows + 1] = {md.esc(g.env_key), md.esc(g.model), md.esc(g.precision), tostring(e.ranks), tostring(e.batch),
        md.esc(dp.memory_what or "-"), #per > 0 and table.concat(per, " / ") or "-", md.mb(dp.total_bytes),
        md.mb(dp.param_bytes), md.mib(dp.param_bytes), ratio, ctx.ref(g)}
    end
  end
  return md.table({"Env", "Model", "Precision", "Ranks", "Batch per rank", "Peak memory", "Per rank (MB; rank 0 / 1 / ...)",
    "Total (MB)", "Parameters (MB)", "Parameters (MiB)", "Total ÷ parameters", "Runs"}, rows,
    {"l", "l", "l", "r", "r", "l", "r", "r", "r", "r", "r", "l"}), what, from
end

-- "N ranks at batch B per rank trained X images/s, Y× one rank's at the same batch ...": a drafted
-- sentence per data-parallel row with a weak or strong baseline, each citing its rows.
local function draft(ctx, families)
  local sentences = {}
  for _, f in ipairs(families) do
    for _, e in ipairs(f.entries) do
      if e.ranks > 1 then
        local parts = {}
        if e.weak.efficiency then
          parts[#parts + 1] = string.format("%s one rank's at the same batch per rank: a weak-scaling efficiency of %s",
            pairing.ratio_words(e.weak.r), efficiency_cell(e.weak))
        end
        if e.strong.efficiency then
          parts[#parts + 1] = string.format("%s one rank's at the same global batch %s: a strong-scaling efficiency " ..
            "of %s", pairing.ratio_words(e.strong.r), tostring(e.global_batch), efficiency_cell(e.strong))
        end
        if #parts > 0 then
          local refs = {ctx.ref(e.row)}
          for _, s in ipairs({e.weak, e.strong}) do if s.base then refs[#refs + 1] = ctx.ref(s.base) end end
          sentences[#sentences + 1] = string.format("%s: %d ranks at batch %d per rank trained %s images/s, %s %s.",
            family_name(ctx.D, e.row), e.ranks, e.batch, md.sig(e.t.mean, 3), table.concat(parts, "; "),
            table.concat(refs, " "))
        end
      end
    end
  end
  return md.draft(sentences)
end

--- §6.8, only when a row has ranks > 1 (nothing otherwise).
function M.section(ctx)
  local D, doc = ctx.D, ctx.doc
  local families = pairing.scaling(D)
  if #families == 0 then return end
  doc:para("### 6.8 Scaling (data-parallel)")
  doc:para("Rows with ranks > 1 trained data-parallel: one process per rank, each on its own share of the batch, " ..
    "the gradients all-reduced every step. `batch` is per rank; a step trains ranks × batch images (the global " ..
    "batch). Where each number comes from (the rows' runs: footnotes, Appendix A): **Images/s** is the runs column " ..
    "`images_per_s`, global over all ranks (ranks × batch × timed iterations ÷ the slowest rank's summed step " ..
    "seconds), mean ± SD over the repeats Table 2 averages (the same runs left out). **Weak scaling** compares a " ..
    "row with the 1-rank row of the same batch per rank B: speedup = images/s(N ranks, batch B) ÷ images/s(1 " ..
    "rank, batch B). **Strong scaling** compares it with the 1-rank row of the same global batch G: speedup = " ..
    "images/s(N ranks, batch G/N) ÷ images/s(1 rank, batch G). Efficiency = speedup ÷ the ratio of the two rows' " ..
    "resources: GPUs on a GPU (N: one per rank), CPU threads on a CPU (ranks × threads per rank: 2 ranks × 1 " ..
    "thread against 1 rank × 2 threads is the same two cores, a ratio of 1). 100 % is linear scaling in the " ..
    "resources added, or no loss on the same ones; each is the ratio of the two rows' mean images/s with its " ..
    "95 % CI as in §6.1 (Appendix C); where the study lacks the 1-rank row, the cell names it. Each table's " ..
    "heading says how the ranks ran. " ..
    "**All-reduce** is the result's `data_parallel.allreduce_s`, rank 0's mean seconds per timed step during which " ..
    "gradient buckets were being all-reduced, with its share of rank 0's step (`comm_share`); **Exposed comm.** " ..
    "is `exposed_comm_s`, the seconds per step the step waited for communication after its backward compute " ..
    "ended (`exposed_share`): the part of the all-reduce the backward pass did not hide. Both are means over the " ..
    "runs the images/s averages. **Gradients** is `grad_bytes_per_step`, the bytes one rank all-reduced per step.")
  for _, f in ipairs(families) do
    local how = how_text(D, f)
    doc:para("**" .. family_name(D, f.first) .. "**" .. (how ~= "" and (" (" .. md.esc(how) .. ")") or "") .. ":")
    doc:para(scaling_table(ctx, f))
  end
  local d = draft(ctx, families)
  if d then doc:para(d) end
  local envs, seen = {}, {}
  for _, f in ipairs(families) do
    if not seen[f.first.env_key] then seen[f.first.env_key] = true; envs[#envs + 1] = f.first.env_key end
  end
  for _, env in ipairs(envs) do
    for _, fig in ipairs(ctx.figures) do
      if fig.figure == "E" and fig.env == env then
        doc:para(string.format("![%s](%s)", md.esc("Scaling vs ranks — " .. env), fig.rel))
      end
    end
  end
  local mem, what, from = memory_table(ctx, families)
  local kinds = {}
  for k in pairs(what) do kinds[#kinds + 1] = k end
  table.sort(kinds)
  doc:para("**Peak memory per rank and in total** (seed 004's table: its ResNet-18 took 12,882 MB on one GPU and " ..
    "11,688 MB on two). Per rank: each rank's peak, from the result's `data_parallel.per_rank` (`device_max_bytes`, " ..
    "the CUDA allocator's peak, on a GPU; `max_rss_bytes`, the process's peak RSS, on a CPU: " ..
    table.concat(kinds, ", ") .. " here), rank 0's first; Total: their sum as stored " ..
    "(`total_device_max_bytes` / `total_max_rss_bytes`); a 1-rank row's is the run's own peak (§4.3's). Each is " ..
    "the mean over the row's ok runs. Parameters: one replica's parameter memory, " ..
    (from.data_parallel and "`data_parallel.param_bytes` (ranks > 1)" or "") ..
    ((from.data_parallel and from.complexity) and ", else " or "") ..
    (from.complexity and "the stored complexity's parameter bytes (Table 1b's)" or "") ..
    ". A CPU's RSS holds the runtime and its libraries too, in every rank. " .. md.MEMORY_UNITS .. ":")
  doc:para(mem)
end

return M
