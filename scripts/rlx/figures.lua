-- rlx.figures: the study's whole figure set (seed 001's checklist) drawn from its database.
--
--   require("rlx.figures").draw(study, {dir = "figures"})   -- or study:figures{dir = "figures"}
--
-- writes (PNG, or SVG / PDF with format = "svg" | "pdf" for LaTeX), for every environment E (an
-- env label, suffixed with the device kind when one machine ran both CPU and CUDA sweeps) and
-- every model M:
--   figures/throughput_env-E.png   A: images/s vs batch, one line per model and precision, ± 1 SD
--   figures/variance_fixed_config.png  B: per-repeat images/s of one config across environments,
--                                     as % from each environment's median
--   figures/roofline_E.png         C: roofline with the environment's peaks and the runs' points;
--                                     references (datasheet, an exceeded GEMM) dash-dotted
--   figures/ai_vs_batch_M.png      D: arithmetic intensity vs batch per precision and environment,
--                                     estimated hollow, measured filled, ridges in their env's colour
--   figures/scaling_env-E.png      E: data-parallel images/s vs ranks, labelled with the efficiency
--                                     against 1 rank (only for a study with a run of ranks > 1)
-- Everything is read from study.db by rlx.studydb.data (the report's reads too), so figures can be
-- redrawn at any time from a stored (or merged) database without rerunning anything; the report draws
-- them from the data it loaded (_draw_loaded). Like the report, figures never mix configurations
-- (rlx.studydb.configs): runs that differ in input size, protocol, data, memory format or threads are
-- separate series (A, D) or points (C), with the differing field in the legend; B shows one full
-- configuration; every subtitle states the scale and protocol read from the runs. A row's value in
-- A, C (at DRAM) and D is its aggregate from rlx.report.compute, Table 2's (issue 32): unsteady,
-- imprecise or contended runs are left out of it. Each entry of draw's files keeps the options it
-- drew (plot = {series = ..., subtitle = ...}; D's also the series as drawn) so tests can check
-- what a figure shows.
local options = require("rlx.options")
local errors = require("rlx.errors")
local M = {}

local data = require("rlx.studydb.data")
local configs = require("rlx.studydb.configs")
local compute = require("rlx.report.compute")
local pairing = require("rlx.report.pairs")
local stats = require("rlx.stats")
local kind_of = data.kind_of
local function safe(name) return (tostring(name):gsub("[^%w%._%-]", "_")) end


-- Keys in order of first appearance in rows (rows come in rlx.studydb.data's order).
local function ordered(rows, key)
  local seen, out = {}, {}
  for _, r in ipairs(rows) do
    local k = key(r)
    if not seen[k] then seen[k] = true; out[#out + 1] = k end
  end
  return out
end

local MODEL_ORDER, PRECISION_ORDER = data.MODEL_ORDER, data.PRECISION_ORDER
local function by_order(order)
  return function(a, b)
    local x, y = order[a] or 99, order[b] or 99
    if x ~= y then return x < y end
    return a < b
  end
end

-- The figures' rows from loaded data D: the ok runs with a throughput, and the roofline points of
-- ok runs at one memory level, each with its run's fields (r = the run). Both keep D's order, and
-- group by D's environment key (env_key), so the report links the figures by the same name.
local function rows_of(D, level)
  local runs, points = {}, {}
  for _, r in ipairs(D.ok) do
    if type(r.images_per_s) == "number" then runs[#runs + 1] = r end
    for _, p in ipairs(D.points[r.id] or {}) do
      if p.level == level and type(p.ai) == "number" and p.ai > 0 and type(p.gflops) == "number" and p.gflops > 0 then
        points[#points + 1] = {level = p.level, ai = p.ai, gflops = p.gflops, source = p.source,
          roof_precision = p.precision, model = r.model, precision = r.precision, batch = r.batch, device = r.device,
          run = r.run, env = r.env, env_key = r.env_key, environment_id = r.environment_id, gpu_name = r.gpu_name,
          stable = r.stable, counters_source = p.counters_source, r = r}
      end
    end
  end
  return runs, points
end

-- The roofs of a run's environment: its stored peaks (with the GPU's datasheet entry to supply
-- the arithmetic peaks a CUDA measurement lacks), else the datasheet entry. Returns peaks, source
-- ("measured" | "datasheet"), datasheet.
local function peaks_for(peaks, run)
  local k = kind_of(run.device)
  local p = peaks[run.environment_id] and peaks[run.environment_id][k]
  local sheet
  if k == "cuda" and run.gpu_name and type(rlx.peaks) == "table" and rlx.peaks.datasheet then
    local ok, entry = pcall(rlx.peaks.datasheet, run.gpu_name)
    if ok and entry then sheet = entry end
  end
  if p then return p, "measured", sheet end
  if sheet then return sheet, "datasheet", nil end
  return nil
end

-- A subtitle: the figure's own text, then the scale and protocol of its runs (read from them, so a
-- redraw from any database states the truth), then the caller's note.
local function subtitle(text, runs, opts)
  local parts = {text}
  local scale = configs.scale_text(runs)
  if scale ~= "" then parts[#parts + 1] = scale end
  if opts.note then parts[#parts + 1] = opts.note end
  return table.concat(parts, "; ")
end

-- The configurations (beyond model, precision, batch) of runs, smaller input first: {key, ...}.
local function config_keys(runs)
  local seen, out = {}, {}
  for _, r in ipairs(runs) do
    local c = configs.of(r)
    if not seen[c.key] then seen[c.key] = tonumber(c.input) or 0; out[#out + 1] = c.key end
  end
  table.sort(out, function(a, b) if seen[a] ~= seen[b] then return seen[a] < seen[b] end return a < b end)
  return out
end

-- Draws one figure with rlx.plot[kind]. A figure the data cannot be drawn from (a value that
-- overflows its axis) is a warning naming the file, so the other figures and the report are still
-- written. Returns the chart's layout (rlx.plot's), or nil when it was not drawn.
local function draw_one(kind, plot, warnings)
  local ok, info = pcall(rlx.plot[kind], plot)
  if ok then return info end
  warnings[#warnings + 1] = plot.out:match("[^/]*$") .. ": " .. errors.message(errors.pass_exits(info))
  return nil
end

-- The row (D.groups: one configuration's repeats) of each run of loaded data D.
local function rows_by_run(D)
  local row_of = {}
  for _, g in ipairs(D.groups) do
    for _, r in ipairs(g.runs) do row_of[r] = g end
  end
  return row_of
end

-- A: throughput vs batch per environment, one series per model, precision and configuration. Each
-- point is its row's aggregate (rlx.report.compute.throughput: Table 2's mean, SD and n, with the
-- same runs left out), so the figure and the table cannot disagree (issue 32).
local function throughput_figures(D, runs, dir, out, opts, warnings, varying)
  local row_of = rows_by_run(D)
  for _, env in ipairs(ordered(runs, function(r) return r.env_key end)) do
    local groups, models, precs, env_runs = {}, {}, {}, {}
    for _, r in ipairs(runs) do
      if r.env_key == env then
        env_runs[#env_runs + 1] = r
        -- A series is one configuration of a model and precision as its rows hold it (the row's
        -- first run's), so one row is one point, never split across two series.
        local row = row_of[r]
        local key = r.model .. "\0" .. r.precision .. "\0" .. row.config.key
        groups[key] = groups[key] or {model = r.model, precision = r.precision, run = row.runs[1], batches = {}}
        groups[key].batches[r.batch] = row
        models[r.model], precs[r.precision] = true, true
      end
    end
    local mlist, plist, clist = {}, {}, config_keys(env_runs)
    for m in pairs(models) do mlist[#mlist + 1] = m end
    for p in pairs(precs) do plist[#plist + 1] = p end
    table.sort(mlist, by_order(MODEL_ORDER))
    table.sort(plist, by_order(PRECISION_ORDER))
    local series, n_lo, n_hi, left, marked = {}, math.huge, 0, 0, false
    for mi, m in ipairs(mlist) do
      for pi, p in ipairs(plist) do
        for ci, ck in ipairs(clist) do
          local g = groups[m .. "\0" .. p .. "\0" .. ck]
          if g then
            local xs = {}
            for b in pairs(g.batches) do xs[#xs + 1] = b end
            table.sort(xs)
            local ys, sds, ns, marks, keys = {}, {}, {}, {}, {}
            for i, b in ipairs(xs) do
              -- Unsteady, imprecise or contended repeats stay out of the mean and its error bar.
              local t = compute.throughput(g.batches[b])
              ys[i], sds[i], ns[i], keys[i] = t.mean, t.sd or 0, t.n, g.batches[b].key
              n_lo, n_hi = math.min(n_lo, t.n), math.max(n_hi, t.n)
              -- The mark is the point's, not the series' (issue 34: every series carried † though only
              -- some points had no steady repeat).
              marks[i] = t.all_flagged and configs.MARK or ""
              -- A point resting on fewer repeats than its row has runs says how many; one resting on a
              -- single run says so (issue 45: n = 1 points looked as sure as the others).
              if t.n < t.n_all then marks[i] = "n=" .. t.n .. "/" .. t.n_all
              elseif t.n == 1 then marks[i] = (marks[i] ~= "" and (marks[i] .. " ") or "") .. "n=1" end
              if t.all_flagged then marked = true else left = left + #t.flagged end
            end
            local extra = configs.short(varying, g.run)
            -- Colour says the model; marker and dash say the precision and the configuration. rows:
            -- each point's row (D.groups' key), for tests comparing the figure with Table 2.
            series[#series + 1] = {label = m .. " " .. p .. (extra ~= "" and (" " .. extra) or ""), x = xs, y = ys,
              sd = sds, n = ns, labels = marks, rows = keys, color = mi, marker = (pi - 1) * #clist + ci,
              dashed = pi > 1 or ci > 1}
          end
        end
      end
    end
    -- Every point on one run: the subtitle says so once, not every label.
    if n_hi == 1 then
      for _, s in ipairs(series) do
        for i, m in ipairs(s.labels) do s.labels[i] = (m:gsub("%s*n=1$", "")) end
      end
    end
    -- Models an order of magnitude apart (VGG-16 vs MobileNetV2 on a CPU) would leave the slow
    -- ones flat on the floor of a linear axis: a log axis keeps every line readable.
    local lo, hi = math.huge, 0
    for _, s in ipairs(series) do
      for _, y in ipairs(s.y) do
        if y > 0 then lo, hi = math.min(lo, y), math.max(hi, y) end
      end
    end
    local yscale = (hi > 0 and hi / lo > 10) and "log" or "linear"
    local path = dir .. "/throughput_env-" .. safe(env) .. "." .. opts.format
    local plot = {series = series, out = path, title = "Training throughput vs batch size: " .. env,
      subtitle = subtitle(string.format("%s%s%s%s",
        n_hi == 1 and "one run per point (n=1: no error bars)" or string.format("mean ± 1 SD over n = %s repeats " ..
          "per point%s", n_lo == n_hi and tostring(n_hi) or (n_lo .. "-" .. n_hi),
          n_lo == 1 and "; n=1: one run, no error bar" or ""),
        left > 0 and string.format(" (%d %s left out; n=k/m: k of a point's m runs " ..
          "averaged)", left, configs.left_out_words(env_runs)) or "",
        marked and ("; " .. configs.MARK .. " = a point none of whose repeats was steady and precise (all kept)") or "",
        yscale == "log" and "; log scale" or ""), env_runs, opts),
      yscale = yscale,
      width = opts.width, height = opts.height}
    if draw_one("throughput", plot, warnings) then out[#out + 1] = {figure = "A", env = env, path = path, plot = plot} end
  end
end

-- B: one workload across environments (seed 001's Figure B: one configuration, every environment).
-- Environments are compared on the workload (model, precision, batch, input, data;
-- rlx.studydb.configs.workload_key), each under its own protocol, which the subtitle states with the
-- precision its runs reached. The workload is the one run in the most environments, then the
-- nearest to seed 000's fixed configuration (M.SEED_FIXED: ResNet-50, fp32, batch 128: the same
-- model, then precision, then the batch closest by ratio), then the larger batch, the largest
-- input, the most runs. With one environment there is nothing to compare (issue 34: a box of three
-- points in one environment compares nothing): no figure, and a warning saying so. The figure's
-- entry says which it is (config.seed = true, or config.nearest_to = the seed's) and its envs.
M.SEED_FIXED = {model = "resnet50", precision = "fp32", batch = 128}

local function seed_distance(c)
  local s = M.SEED_FIXED
  return (c.model == s.model and 0 or 4) + (c.precision == s.precision and 0 or 2) +
    math.abs(math.log(c.batch / s.batch) / math.log(2)) / 100
end

-- Whether candidate a is a better Figure B than b (lexicographic, see above).
local function better(a, b, fixed)
  if a.n ~= b.n then return a.n > b.n end
  local da, db = fixed and 0 or seed_distance(a), fixed and 0 or seed_distance(b)
  if da ~= db then return da < db end
  if a.batch ~= b.batch then return a.batch > b.batch end
  if a.input ~= b.input then return a.input > b.input end
  if a.runs ~= b.runs then return a.runs > b.runs end
  return a.config < b.config
end

-- The chosen configuration, with seed = true or nearest_to = the seed's (not when the caller fixed it).
local function seed_config(c, given)
  local s, out = M.SEED_FIXED, {model = c.model, precision = c.precision, batch = c.batch, envs = c.env_list}
  if given then return out end
  if c.model == s.model and c.precision == s.precision and c.batch == s.batch then out.seed = true
  else out.nearest_to = s end
  return out
end

local function seed_note(c, given)
  local cfg = seed_config(c, given)
  if cfg.seed then return "seed 000's fixed configuration; " end
  if cfg.nearest_to then
    return string.format("nearest to seed 000's %s %s bs%d; ", cfg.nearest_to.model, cfg.nearest_to.precision,
      cfg.nearest_to.batch)
  end
  return ""
end

-- The workloads of runs with the environments that ran each: {key = {model, ..., envs, n, runs}}.
local function workloads(runs, fixed)
  local candidates = {}
  for _, r in ipairs(runs) do
    if not fixed or (r.model == fixed.model and r.precision == fixed.precision and r.batch == fixed.batch) then
      local k = configs.workload_key(r)
      candidates[k] = candidates[k] or {model = r.model, precision = r.precision, batch = r.batch, config = k,
        input = tonumber(configs.of(r).input) or 0, run = r, envs = {}, env_list = {}, n = 0, runs = 0}
      local c = candidates[k]
      if not c.envs[r.env_key] then
        c.envs[r.env_key] = true
        c.n = c.n + 1
        c.env_list[#c.env_list + 1] = r.env_key
      end
      c.runs = c.runs + 1
    end
  end
  return candidates
end

-- "epyc-2c: 3 timed iters (target 95 % CI ≤ 2 %), 95 % CI reached ...": each environment's protocol
-- and precision, for B's subtitle.
local function per_env_protocols(groups, chosen)
  local parts = {}
  for _, g in ipairs(groups) do
    local runs = {}
    for _, r in ipairs(chosen) do if r.env_key == g.label then runs[#runs + 1] = r end end
    local text = configs.scale_text(runs):gsub("^[^,]*, ", "")
    parts[#parts + 1] = g.label .. ": " .. text
  end
  return table.concat(parts, "; ")
end

--- Figure B's groups as drawn ({label=, values=} per environment, images/s per repeat): per group its
--- n, median, mean, SD, CV and each value as % from the median (what the figure plots), and whether
--- it is drawn as a box (rlx.plot's rule: 5 repeats or more) or as mean ± 1 SD.
M.MIN_BOX = 5
function M.spread(groups)
  local out = {}
  for _, g in ipairs(groups) do
    local med, mean, sd = stats.median(g.values), stats.mean(g.values), stats.sd(g.values)
    local pct, lo, hi = {}, math.huge, -math.huge
    for i, v in ipairs(g.values) do
      pct[i] = 100 * (v / med - 1)
      lo, hi = math.min(lo, pct[i]), math.max(hi, pct[i])
    end
    out[#out + 1] = {env = g.label, n = #g.values, median = med, mean = mean, sd = #g.values > 1 and sd or nil,
      cv = #g.values > 1 and sd / mean or nil, pct = pct, box = #g.values >= M.MIN_BOX, lo_pct = lo, hi_pct = hi}
  end
  return out
end

-- What Figure B draws for each environment, for its subtitle: a box only where there are enough
-- repeats for one (issue 55: the subtitle promised a box "from 5 repeats" that no group had).
local function spread_words(spread)
  local box, bar, one = {}, {}, {}
  for _, x in ipairs(spread) do
    table.insert(x.box and box or (x.n > 1 and bar or one), x.env)
  end
  -- Environments are named only where the figure draws them differently.
  local mixed = (#box > 0 and 1 or 0) + (#bar > 0 and 1 or 0) + (#one > 0 and 1 or 0) > 1
  local function who(list) return mixed and (" for " .. table.concat(list, ", ")) or "" end
  local parts = {}
  if #box > 0 then
    parts[#parts + 1] = string.format("box (quartiles, whiskers to 1.5 IQR)%s (%d or more repeats)", who(box),
      M.MIN_BOX)
  end
  if #bar > 0 then
    parts[#parts + 1] = string.format("bar: mean ± 1 SD%s (no box: < %d repeats)", who(bar), M.MIN_BOX)
  end
  if #one > 0 then parts[#parts + 1] = (mixed and table.concat(one, ", ") or "each") .. ": one run, no spread" end
  return table.concat(parts, "; ")
end

-- Figure B is not drawn: a warning ("variance_fixed_config: why") and, for the report, the reason
-- as data (not_drawn.B).
local function variance_not_drawn(warnings, not_drawn, why)
  warnings[#warnings + 1] = "variance_fixed_config: " .. why
  not_drawn.B = why
end

local function variance_figure(runs, dir, out, opts, warnings, not_drawn)
  local fixed = opts.fixed
  local best
  for _, c in pairs(workloads(runs, fixed)) do
    if not best or better(c, best, fixed) then best = c end
  end
  if not best then
    variance_not_drawn(warnings, not_drawn, fixed and string.format("no ok runs of %s %s bs%s", fixed.model,
      fixed.precision, fixed.batch) or "no runs to compare")
    return
  end
  if best.n < 2 then
    local envs = ordered(runs, function(r) return r.env_key end)
    variance_not_drawn(warnings, not_drawn, string.format("%s; Figure B compares one workload across " ..
      "environments (seed 001): report with another environment's database that ran it (rlx report A.db B.db, " ..
      "or --set with=B.db)",
      #envs == 1 and ("one environment (" .. envs[1] .. ")") or ("no workload was run in two environments (" ..
        table.concat(envs, ", ") .. ")")))
    return
  end
  fixed = best
  local groups, idx, chosen = {}, {}, {}
  for _, r in ipairs(runs) do
    if configs.workload_key(r) == fixed.config then
      chosen[#chosen + 1] = r
      if not idx[r.env_key] then
        groups[#groups + 1] = {label = r.env_key, values = {}}
        idx[r.env_key] = #groups
      end
      table.insert(groups[idx[r.env_key]].values, r.images_per_s)
    end
  end
  local flagged = 0
  for _, r in ipairs(chosen) do
    if #configs.flags(r) > 0 then flagged = flagged + 1 end
  end
  local spread = M.spread(groups)
  local path = dir .. "/variance_fixed_config." .. opts.format
  -- Each environment relative to its own median (issue 55: on one log axis from 1 to 10k images/s a
  -- CPU's 8-11 % spread beside a GPU was a few pixels): the figure compares spreads, which a ratio
  -- to the median keeps; the labels above each keep its images/s (median, mean ± SD).
  local plot = {groups = groups, out = path, xlabel = "Environment", relative = true,
    ylabel = "Images/s: % from the environment's median",
    title = string.format("Run-to-run variability: %s, %s, batch %d, %s", fixed.model, fixed.precision, fixed.batch,
      configs.scale_text({fixed.run}, {timing = false})),
    subtitle = seed_note(fixed, opts.fixed) .. "% from each environment's median images/s; dots: repeats, all " ..
      "kept" .. (flagged > 0 and string.format(" (%d %s)", flagged, configs.left_out_words(chosen)) or "") ..
      "; " .. spread_words(spread) .. "; " ..
      per_env_protocols(groups, chosen) .. (opts.note and ("; " .. opts.note) or ""),
    width = opts.width, height = opts.height}
  if draw_one("variability", plot, warnings) then
    out[#out + 1] = {figure = "B", path = path, config = seed_config(fixed, opts.fixed), plot = plot, spread = spread}
  end
end

-- The value a figure plots for one row (D.groups: a configuration's repeats) from the row's points
-- pts at a memory level: {ai, gflops, source, mark}. At DRAM it is the row's aggregate
-- (rlx.report.compute.roofline: Table 2's AI and GFLOP/s, measured points preferred, the same runs
-- left out), so no figure averages a row by rules of its own (issue 32); at another level, which no
-- table shows, the mean over the points of the runs the row uses. The mark, from the row's runs
-- (compute.used): "*" when some were left out, configs.MARK when every one was flagged (all kept),
-- "" when every run was used (issue 34: rows that kept all their runs were starred "left out").
local function row_value(D, row, pts, level)
  local used, flagged, all = compute.used(row)
  local mark = all and configs.MARK or (#flagged > 0 and "*" or "")
  local placed = level == "dram" and compute.roofline(D, row)
  if placed then
    return {ai = placed.ai, gflops = placed.gflops, source = placed.source, mark = mark, ai_lo = placed.ai_lo,
      ai_hi = placed.ai_hi, near_ridge = placed.near_ridge}
  end
  local kept, ai, gflops = {}, {}, {}
  for _, r in ipairs(used) do kept[r] = true end
  for _, p in ipairs(pts) do
    if kept[p.r] then ai[#ai + 1], gflops[#gflops + 1] = p.ai, p.gflops end
  end
  return {ai = stats.mean(ai), gflops = stats.mean(gflops), source = pts[1].source, mark = mark}
end

-- Arrows from each fp32 point to the points of the same model, batch and configuration in another
-- precision (rlx.plot.related_arrows would join points of two input sizes).
local function config_arrows(pts)
  local base, arrows = {}, {}
  local function key(p) return table.concat({p.model, tostring(p.batch), p.config_key}, "|") end
  for i, p in ipairs(pts) do if p.precision == "fp32" then base[key(p)] = i end end
  for i, p in ipairs(pts) do
    local from = base[key(p)]
    if from and from ~= i then arrows[#arrows + 1] = {from = from, to = i} end
  end
  return arrows
end

--- The BLAS and kernel of a CPU environment's record (info.blas) in a few words for a chart's line:
--- "OpenBLAS Haswell kernels", "OpenBLAS"; nil for none (a GPU's, or a record naming no BLAS).
function M.blas_short(info, kind)
  local b = kind ~= "cuda" and type(info) == "table" and type(info.blas) == "table" and info.blas or nil
  local function str(v) return type(v) == "string" and v ~= "" and v ~= "unknown" and v or nil end
  if not (b and str(b.name)) then return nil end
  return b.name .. (str(b.core) and (" " .. b.core .. " kernels") or "")
end

--- The label of the GEMM line under roof r (rlx.roofline.roof's) on a roofline whose points reach
--- gemm.top GFLOP/s: "GEMM FP32 on OpenBLAS Haswell kernels (reference: training points exceed it)" when they
--- exceed it (issue 55: six Zen 5 points at 256-389 GFLOP/s above a 213 GFLOP/s GEMM), else "... (2nd
--- ceiling)"; the subtitle and §5 give the BLAS record in full (OPENBLAS_CORETYPE). Returns label,
--- exceeded.
function M.gemm_line_label(r, gemm)
  local blas = gemm and M.blas_short(gemm.info, gemm.kind)
  local exceeded = gemm ~= nil and gemm.top ~= nil and gemm.top > r.gemm_gflops
  return r.gemm_label .. (blas and (" on " .. blas) or "") ..
    (exceeded and " (reference: training points exceed it)" or " (2nd ceiling)"), exceeded
end

-- The chart's ceilings from the roofs its points are judged against: one per roof (equal roofs
-- share a line: an emulated bf16 roof is the FP32 FMA peak), then each GEMM peak under an
-- arithmetic roof and each datasheet figure a measured roof was chosen over, as grey dashed
-- references. The memory roof: the level the points are placed at (issue 45: cache roofs drawn with
-- no point at a cache level, an L1 measured below L2, their labels over each other).
local function chart_roofs(pk, roofs, level, gemm)
  local ceilings, at = {}, {}
  local function add(label, gflops, secondary, reference)
    local key = string.format("%.6g", gflops) .. (secondary and "s" or "") .. (reference and "r" or "")
    local c = at[key]
    if c then
      if not (" = " .. c.label .. " = "):find(" = " .. label .. " = ", 1, true) then c.label = c.label .. " = " .. label end
    else
      ceilings[#ceilings + 1] = {label = label, gflops = gflops, secondary = secondary or nil, reference = reference or nil}
      at[key] = ceilings[#ceilings]
    end
  end
  for _, r in ipairs(roofs) do add(r.label, r.gflops) end
  for _, r in ipairs(roofs) do
    -- A GEMM ceiling names the BLAS and kernel it ran, and one the points exceed is a reference.
    if r.gemm_gflops and r.kind ~= "gemm" then
      local label, exceeded = M.gemm_line_label(r, gemm)
      add(label, r.gemm_gflops, true, exceeded)
    end
    if r.datasheet_gflops then add(r.datasheet_label .. " datasheet (reference)", r.datasheet_gflops, true, true) end
  end
  for _, c in ipairs(ceilings) do
    -- "FP32 FMA = BF16 emulated (FP32 FMA)" says the same twice.
    c.label = c.label:gsub(" emulated %(FP32 FMA%)", " emulated"):gsub("^(BF16 emulated) = (FP32 FMA)$", "%2 = %1")
  end
  -- A memory roof whose repeats spread above the limit is labelled so (issue 34: L2 and L3 roofs
  -- from peaks with a 24-28 % spread looked as sure as the DRAM roof).
  local mem, noisy = {}, {}
  for _, lv in ipairs({level}) do
    local bw, field = rlx.roofline.memory_roof(pk, lv)
    if bw then
      local q = rlx.roofline.peak_quality(pk, field or (lv .. "_gbps"))
      local label = lv:upper()
      if q.noisy then
        label = string.format("%s (noisy, %.0f%s%%)", label, q.spread_pct, configs.NBSP)
        noisy[#noisy + 1] = lv:upper()
      end
      mem[#mem + 1] = {label = label, gbps = bw / 1e9}
    end
  end
  local note = #noisy > 0 and string.format("noisy = its peak's repeats spread over %.0f%s%%",
    rlx.roofline.peak_quality(pk, "dram_gbps").limit_pct or 10, configs.NBSP) or ""
  return mem, ceilings, note
end

-- The roof of each precision in a figure, by rlx.roofline.roof (nil when the peaks have none).
local function roofs_by_precision(pk, sheet, pts)
  local by, list = {}, {}
  for _, p in ipairs(pts) do
    local prec = p.roof_precision
    if by[prec] == nil then
      by[prec] = rlx.roofline.roof(pk, prec, {datasheet = sheet}) or false
      if by[prec] then list[#list + 1] = by[prec] end
    end
  end
  table.sort(list, function(a, b) return a.gflops > b.gflops end)
  return by, list
end

-- "; ! = above its own roof (2 points): suspect fp32_gflops (quick, spread 21.5 %) or the FLOP
-- count; ...": the subtitle's flag text (the report lists each point with the full text).
local function above_text(suspects)
  if #suspects == 0 then return "" end
  return string.format("; ! = above its own roof (%d point%s): suspect %s", suspects.n, suspects.n == 1 and "" or "s",
    table.concat(suspects, "; "))
end

-- The varying fields split in two for each model of one environment's runs: those the model keeps a
-- single value of (the memory format calibrated for it), named once in its legend entry, and those
-- its points differ in, named in each point's label. Issue 33's calibration made VGG-16 contiguous
-- and the others channels_last, and every label then carried its model's layout: the three
-- MobileNetV2 labels overlapped. Returns {[model] = {legend = {field, ...}, label = {field, ...}}}.
local function split_by_model(varying, runs)
  local values = {}
  for _, r in ipairs(runs) do
    values[r.model] = values[r.model] or {}
    local c = configs.of(r)
    for _, f in ipairs(varying) do
      local seen = values[r.model][f.name] or {}
      seen[f.short(c)] = true
      values[r.model][f.name] = seen
    end
  end
  local out = {}
  for model, by_field in pairs(values) do
    out[model] = {legend = {}, label = {}}
    for _, f in ipairs(varying) do
      local n = 0
      for _ in pairs(by_field[f.name]) do n = n + 1 end
      table.insert(n == 1 and out[model].legend or out[model].label, f)
    end
  end
  return out
end

--- The roofs of a roofline in its subtitle, each with where it comes from (issue 45: "roofs (measured
--- peaks)" over datasheet roofs), and its other lines: "roofs: FP32 FMA, DRAM measured; dashed: GEMM
--- FP32 measured on OpenBLAS (...) (2nd ceiling); dash-dot, references (no bound is judged against
--- them): FP32 datasheet". blas: the BLAS record in words (rlx.report.compute.blas_words), or nil.
local function roofs_subtitle(roof_list, level, memory_origin, top, blas)
  local by_origin, order = {}, {}
  local function add(origin, text)
    if not by_origin[origin] then by_origin[origin] = {}; order[#order + 1] = origin end
    table.insert(by_origin[origin], text)
  end
  for _, r in ipairs(roof_list) do
    add(r.origin == "datasheet" and "datasheet" or "measured",
      r.label .. (r.note and r.precision == "tf32" and " for fp32 with tf32 = true" or ""))
  end
  add(memory_origin == "datasheet" and "datasheet" or "measured", level:upper())
  local parts = {}
  for _, o in ipairs(order) do parts[#parts + 1] = table.concat(by_origin[o], ", ") .. " " .. o end
  local second, refs = {}, {}
  for _, r in ipairs(roof_list) do
    if r.gemm_gflops and r.kind ~= "gemm" then
      local what = r.gemm_label .. " measured" .. (blas and (" on " .. blas) or "")
      if top and top > r.gemm_gflops then
        refs[#refs + 1] = what .. ", which training points exceed: one library's kernel, not the CPU's limit"
      else
        second[#second + 1] = what .. " (2nd ceiling)"
      end
    end
    if r.datasheet_gflops then refs[#refs + 1] = r.datasheet_label .. " datasheet" end
  end
  return "roofs: " .. table.concat(parts, "; ") .. (#second > 0 and ("; dashed: " .. table.concat(second, ", ")) or "") ..
    (#refs > 0 and ("; dash-dot, references (no bound is judged against them): " .. table.concat(refs, ", ")) or "")
end

-- C: roofline per environment, one point per configuration (mean over the used repeats). Each
-- point is judged against its own precision's roof (rlx.roofline.roof); one above it is drawn
-- hollow, labelled "!", and the subtitle names the measurement to suspect.
local function roofline_figures(D, points, dir, out, opts, warnings, varying)
  local row_of = rows_by_run(D)
  for _, env in ipairs(ordered(points, function(r) return r.env_key end)) do
    local agg, order, first, env_runs = {}, {}, nil, {}
    for _, p in ipairs(points) do
      if p.env_key == env then
        first = first or p
        env_runs[#env_runs + 1] = p.r
        local k = row_of[p.r].key
        if not agg[k] then
          agg[k] = {model = p.model, precision = p.precision, batch = p.batch, env = env, pts = {},
            roof_precision = rlx.roofline.precision_of(p.roof_precision or p.precision),
            config_key = configs.of(p.r).key, input = tonumber(configs.of(p.r).input) or 0,
            source = p.counters_source and (p.source .. " (" .. p.counters_source .. ")") or p.source}
          order[#order + 1] = k
        end
        table.insert(agg[k].pts, p)
      end
    end
    -- A field each model keeps one value of (a calibrated memory format) names the model in the
    -- legend; only the fields that vary between a model's points label them.
    local fields_of = split_by_model(varying, env_runs)
    local pk, pk_source, sheet = peaks_for(D.peaks, first)
    local level_bw = pk and rlx.roofline.memory_roof(pk, opts.level)
    local aggs = {}
    for _, k in ipairs(order) do aggs[#aggs + 1] = agg[k] end
    local by_prec, roof_list = {}, {}
    if pk then by_prec, roof_list = roofs_by_precision(pk, sheet, aggs) end
    if not pk or not level_bw or #roof_list == 0 then
      warnings[#warnings + 1] = "roofline_" .. env .. ": no peaks stored for " .. env ..
        (pk and (" with a " .. opts.level .. " roof and a compute roof of its precisions") or "") ..
        " (measure them with: rlx peaks --db " .. tostring(data.env_source(D, first.environment_id).path or "DB") ..
        "); roofline skipped"
    else
      local pts, sources, marks, suspects, ranges = {}, {}, {}, {}, {}
      for _, a in ipairs(aggs) do
        -- A point with unsteady, imprecise or contended repeats left out of its mean is marked "*", one none
        -- of whose repeats was steady (all kept) configs.MARK.
        local v = row_value(D, row_of[a.pts[1].r], a.pts, opts.level)
        local ai, gflops, mark = v.ai, v.gflops, v.mark
        local roof = by_prec[a.roof_precision] or nil
        local r, fields = a.pts[1].r, fields_of[a.model]
        local extra, named = configs.short(fields.label, r), {}
        for _, f in ipairs(fields.legend) do named[#named + 1] = f.short(configs.of(r)) end
        local pt = {model = a.model, precision = a.precision, batch = a.batch, env = env, ai = ai, gflops = gflops,
          model_legend = a.model .. (#named > 0 and (" (" .. table.concat(named, ", ") .. ")") or ""),
          config_key = a.config_key, input = a.input, roof_gflops = roof and roof.gflops, roof_gbps = level_bw / 1e9,
          ai_lo = v.ai_lo, ai_hi = v.ai_hi,
          label = "bs" .. a.batch .. (extra ~= "" and (" " .. extra) or "") .. mark}
        if v.ai_lo then ranges[a.source or "?"] = true end
        pt.n = compute.throughput(row_of[a.pts[1].r]).n
        -- An emulated environment's points are the emulator's: drawn, never suspected (issue 55).
        if roof and not first.r.emulated then
          local s = rlx.roofline.suspect({ai = ai, gflops = gflops, peak_gflops = roof.gflops, peak_gbps = level_bw / 1e9,
            compute_field = roof.field, memory_field = opts.level .. "_gbps", source = a.pts[1].source,
            roof_label = roof.label, roof_origin = roof.origin}, pk)
          if s then
            pt.label, pt.above_roof, pt.suspect = pt.label .. "!", true, s.text
            suspects.n = (suspects.n or 0) + 1
            if not suspects[s.short] then
              suspects[s.short] = true
              suspects[#suspects + 1] = s.short
            end
          end
        end
        pts[#pts + 1] = pt
        sources[a.source or "?"] = true
        if mark ~= "" then marks[mark] = true end
      end
      -- Points on one run are marked (issue 45): in their labels, or once in the subtitle when all are.
      local singles = 0
      for _, pt in ipairs(pts) do if pt.n == 1 then singles = singles + 1 end end
      if singles > 0 and singles < #pts then
        for _, pt in ipairs(pts) do if pt.n == 1 then pt.label = pt.label .. " n=1" end end
      end
      local n_note = singles == #pts and "; every point one run (n=1)" or (singles > 0 and "; n=1: one run" or "")
      -- Same colours and shapes as the throughput figure: models and precisions in study order.
      table.sort(pts, function(a, b)
        if a.model ~= b.model then return by_order(MODEL_ORDER)(a.model, b.model) end
        if a.precision ~= b.precision then return by_order(PRECISION_ORDER)(a.precision, b.precision) end
        if a.batch ~= b.batch then return a.batch < b.batch end
        if a.input ~= b.input then return a.input < b.input end
        return a.config_key < b.config_key
      end)
      local src = {}
      for s in pairs(sources) do src[#src + 1] = s end
      table.sort(src)
      local top
      for _, pt in ipairs(pts) do
        if type(pt.gflops) == "number" and not first.r.emulated then top = math.max(top or 0, pt.gflops) end
      end
      local info = compute.env_of(D, first.environment_id).info
      local mem, ceilings, noisy = chart_roofs(pk, roof_list, opts.level, {info = info, top = top,
        kind = kind_of(first.device)})
      local roofs_words = roofs_subtitle(roof_list, opts.level, pk_source == "datasheet" and "datasheet" or
        (pk.source or "measured"), top, kind_of(first.device) ~= "cuda" and compute.blas_words(info) or nil)
      local path = dir .. "/roofline_" .. safe(env) .. "." .. opts.format
      local plot = {points = pts, roofs = mem, ceilings = ceilings, arrows = config_arrows(pts), out = path,
        color_by = "model_legend", color_title = "model",
        title = "Roofline: " .. env .. " (" .. kind_of(first.device) .. ")",
        subtitle = subtitle((first.r.emulated and "emulated: the emulator's figures, not comparable; " or "") ..
          roofs_words ..
          "; points: " .. (opts.level ~= "dram" and ("AI from " .. opts.level:upper() .. " traffic, ") or "") ..
          table.concat(src, "+") .. ", mean over repeats" .. n_note ..
          (ranges.estimated and "; bar: AI from rlx's upper to its minimum traffic model" or "") ..
          (ranges.measured and "; bar: AI's range over repeats" or "") ..
          (marks["*"] and "; * = repeats left out" or "") ..
          (marks[configs.MARK] and ("; " .. configs.MARK .. " = every repeat flagged, all kept") or "") ..
          (noisy ~= "" and ("; " .. noisy) or "") ..
          above_text(suspects), env_runs, opts),
        width = opts.width, height = opts.height}
      if draw_one("roofline", plot, warnings) then
        local above = {}
        for _, pt in ipairs(pts) do if pt.above_roof then above[#above + 1] = pt end end
        out[#out + 1] = {figure = "C", env = env, path = path, plot = plot, above_roof = above}
      end
    end
  end
end

-- The ridge of each environment and precision among points (peak GFLOP/s of the precision's roof ÷
-- DRAM GB/s): Figure D's horizontal lines, which the AI is compared against. Each carries its
-- environment (key: drawn in that environment's colour) and the words written on it (tag), so two
-- environments' ridges are told apart on the figure, not only in the legend (issue 55: every ridge
-- was the same grey dash).
local function ridges_of(D, points)
  local out, seen = {}, {}
  for _, p in ipairs(points) do
    local prec = rlx.roofline.precision_of(p.roof_precision or p.precision)
    local k = p.env_key .. "|" .. prec
    if not seen[k] then
      seen[k] = true
      local pk, _, sheet = peaks_for(D.peaks, p)
      local roof = pk and rlx.roofline.roof(pk, prec, {datasheet = sheet})
      local bw = pk and rlx.roofline.memory_roof(pk, "dram")
      if roof and bw then
        local ai = rlx.roofline.ridge(roof.gflops * 1e9, bw)
        -- Two precisions of one environment with one roof (bf16 emulated on the FP32 FMA units) share
        -- one line (issue 45: two identical ridge lines were drawn over each other).
        local same
        for _, x in ipairs(out) do
          if x.env == p.env_key and string.format("%.4g", x.ai) == string.format("%.4g", ai) then same = x end
        end
        local x = same or {env = p.env_key, key = p.env_key, ai = ai}
        x.precision = same and (same.precision .. "/" .. prec) or prec
        x.label = string.format("ridge %s %s: %.3g", x.env, x.precision, x.ai)
        -- The line's colour names the environment; the tag, short enough to sit beside another's.
        x.tag = string.format("%s ridge %.3g", x.precision, x.ai)
        if not same then out[#out + 1] = x end
      end
    end
  end
  return out
end

-- Where Figure D's AI comes from, in its subtitle. Estimated and measured AIs come from two methods
-- (issue 55: estimated CPU AIs of 33 and 144 beside measured GPU ones of 16 and 24 read as an
-- environment effect): an estimate divides by rlx's minimum traffic, so it is the top of the AI's
-- range, and counters measure every byte that reached DRAM.
M.MARKS = {filled = "measured (counters)", hollow = "estimated (analytic)"}
local function ai_source(sources)
  local est = "analytic FLOPs over rlx's minimum traffic, the top of the AI's range (roofline figure), the same " ..
    "on every machine"
  if sources.estimated and sources.measured then
    return "; filled: measured by counters; hollow: estimated, " .. est .. ": another method (no traffic " ..
      "beyond the minimum), so an estimated AI above a measured one is no environment's effect"
  end
  if sources.estimated then return " (estimated, hollow markers: " .. est .. ")" end
  return " (measured by counters)"
end

-- D: arithmetic intensity vs batch per model, one line per environment, precision and (when the
-- study holds several) configuration, with the ridge of each environment and precision drawn
-- across: a line below its ridge is memory-bound. AI is FLOPs over bytes, not a timing, so the
-- subtitle states the input and data and whether the AI is estimated or measured, not the protocol.
-- Each point is its row's value (row_value: at DRAM Table 2's AI), one per row, so rlx.plot's mean
-- per line and batch is that value and the figure and the table agree (issue 32). row: the row's
-- key (D.groups), for tests comparing the two.
local function ai_figures(D, points, dir, out, opts, warnings, varying)
  local models = ordered(points, function(r) return r.model end)
  table.sort(models, by_order(MODEL_ORDER))
  local row_of = rows_by_run(D)
  for _, m in ipairs(models) do
    local pts, runs, model_points, sources, rows, pts_of = {}, {}, {}, {}, {}, {}
    for _, p in ipairs(points) do
      if p.model == m then
        local g = row_of[p.r]
        runs[#runs + 1] = p.r
        model_points[#model_points + 1] = p
        if not pts_of[g] then pts_of[g] = {}; rows[#rows + 1] = g end
        table.insert(pts_of[g], p)
      end
    end
    for _, g in ipairs(rows) do
      local v, r = row_value(D, g, pts_of[g], opts.level), g.runs[1]
      -- A row whose kept runs have no point at this level has nothing to plot.
      if v.ai then
        sources[v.source or "?"] = true
        pts[#pts + 1] = {model = m, batch = g.batch, ai = v.ai, precision = g.precision, env = g.env_key,
          config = configs.short(varying, r), input = tonumber(configs.of(r).input) or 0, row = g.key,
          n = compute.throughput(g).n, source = v.source, hollow = v.source ~= "measured"}
      end
    end
    -- Rows on one run are marked (issue 45): beside the point, or once in the subtitle when all are.
    local singles = 0
    for _, p in ipairs(pts) do if p.n == 1 then singles = singles + 1 end end
    if singles > 0 and singles < #pts then
      for _, p in ipairs(pts) do if p.n == 1 then p.label = "n=1" end end
    end
    local n_note = singles == #pts and "; every point one run (n=1)" or (singles > 0 and "; n=1: one run" or "")
    table.sort(pts, function(a, b)
      if a.env ~= b.env then return a.env < b.env end
      if a.precision ~= b.precision then return by_order(PRECISION_ORDER)(a.precision, b.precision) end
      if a.input ~= b.input then return a.input < b.input end
      if a.config ~= b.config then return a.config < b.config end
      return a.batch < b.batch
    end)
    -- Every Figure D on a log axis (issue 45: MobileNetV2's linear beside the others' log axes read
    -- alike but were not): AIs and ridges span orders of magnitude (a GPU's tensor ridge beside a
    -- CPU's), and a ratio reads the same anywhere on it.
    local ridges = ridges_of(D, model_points)
    local yscale = "log"
    local how = sources.measured and sources.estimated and "estimated and measured" or
      sources.measured and "measured" or "estimated"
    local path = dir .. "/ai_vs_batch_" .. safe(m) .. "." .. opts.format
    -- Colour says the environment (its lines and its ridges), the marker the precision (and the
    -- configuration), the fill the method: filled measured, hollow estimated.
    local plot = {points = pts, model = m, by = #varying > 0 and {"env", "precision", "config"} or {"env", "precision"},
      color_by = "env", marks = M.MARKS,
      out = path, title = "Arithmetic intensity vs batch size: " .. m, ridges = ridges, yscale = yscale,
      ylabel = "AI (FLOP/byte), " .. how,
      subtitle = configs.scale_text(runs, {timing = false}) .. "; DRAM level, each row as Table 2 gives it " ..
        "(mean over the repeats kept); AI = training FLOPs ÷ DRAM bytes per iteration" .. ai_source(sources) ..
        "; dashed: the ridge of each environment and precision, in the environment's colour (below it " ..
        "memory-bound)" .. n_note ..
        (yscale == "log" and "; log scale" or "") ..
        (opts.note and ("; " .. opts.note) or ""),
      width = opts.width, height = opts.height}
    -- series: the lines as drawn (rlx.plot.ai_vs_batch's), the AI plotted per batch.
    local drawn = draw_one("ai_vs_batch", plot, warnings)
    if drawn then out[#out + 1] = {figure = "D", model = m, path = path, plot = plot, series = drawn.series} end
  end
end

-- E: data-parallel scaling per environment (issue 52), only where a row has ranks > 1: global
-- images/s against ranks, one solid series per family and batch per rank, each point its row's
-- Table 2 mean ± 1 SD (rlx.report.compute.throughput), labelled with its efficiency against 1 rank
-- (rlx.report.pairs.scaling: §6.8's numbers; weak: the same batch per rank, strong: the same global
-- batch), and beside each series with a 1-rank point a dashed ideal line: that point times the
-- ratio of resources (rlx.report.pairs.resources_of: N on GPUs; on a CPU the threads, so 2 ranks x 1
-- thread against 1 rank x 2 threads is flat); the gap between the two is the weak-scaling efficiency.
local function scaling_figures(D, dir, out, opts, warnings, varying)
  local families = pairing.scaling(D)
  -- A family's legend names the fields other families differ in, not those it varies itself.
  local named = {}
  for _, f in ipairs(varying) do
    if f.name ~= "ranks" and f.name ~= "threads" then named[#named + 1] = f end
  end
  local envs, by_env = {}, {}
  for _, f in ipairs(families) do
    local env = f.first.env_key
    if not by_env[env] then by_env[env] = {}; envs[#envs + 1] = env end
    table.insert(by_env[env], f)
  end
  local function label_of(e)
    local parts = {}
    if e.weak and e.weak.efficiency then parts[#parts + 1] = string.format("weak %.1f %%", e.weak.efficiency * 100) end
    if e.strong and e.strong.efficiency then
      parts[#parts + 1] = string.format("strong %.1f %%", e.strong.efficiency * 100)
    end
    return table.concat(parts, ", ")
  end
  for _, env in ipairs(envs) do
    local series, runs, k, ranks = {}, {}, 0, {}
    for _, f in ipairs(by_env[env]) do
      local g0 = f.first
      local extra = configs.short(named, g0.runs[1])
      local name = g0.model .. " " .. g0.precision .. (extra ~= "" and (" " .. extra) or "")
      local by_batch, batches = {}, {}
      for _, e in ipairs(f.entries) do
        for _, r in ipairs(e.row.runs) do runs[#runs + 1] = r end
        ranks[e.ranks] = true
        if not by_batch[e.batch] then by_batch[e.batch] = {}; batches[#batches + 1] = e.batch end
        table.insert(by_batch[e.batch], e)  -- f.entries come by ranks
      end
      table.sort(batches)
      for _, b in ipairs(batches) do
        k = k + 1
        local x, y, sd, labels, rows = {}, {}, {}, {}, {}
        for i, e in ipairs(by_batch[b]) do
          x[i], y[i], sd[i], labels[i], rows[i] = e.ranks, e.t.mean, e.t.sd or 0, label_of(e), e.row.key
        end
        series[#series + 1] = {label = name .. " batch " .. b .. "/rank", x = x, y = y, sd = sd, labels = labels,
          rows = rows, color = k, marker = k}
        local one = by_batch[b][1]
        if one.ranks == 1 and #x > 1 and one.t.mean then
          local iy = {}
          for i, e in ipairs(by_batch[b]) do
            iy[i] = one.t.mean * pairing.resources_of(e.row) / pairing.resources_of(one.row)
          end
          series[#series + 1] = {label = "batch " .. b .. "/rank ideal (1 rank × resources)", x = x, y = iy,
            color = k, dashed = true, markers = false}
        end
      end
    end
    local ticks = {}
    for n in pairs(ranks) do ticks[#ticks + 1] = n end
    table.sort(ticks)
    -- rlx.plot.line (the throughput chart's x is a batch axis): ticks at the ranks run, room for the
    -- labels either side, the y axis from 0 as Figure A's.
    local path = dir .. "/scaling_env-" .. safe(env) .. "." .. opts.format
    local plot = {series = series, out = path, title = "Data-parallel scaling: " .. env, xticks = ticks,
      xmin = ticks[1] - 0.5, xmax = ticks[#ticks] + 0.5, ymin = 0,
      subtitle = subtitle("global images/s (all ranks), mean ± 1 SD over the repeats per point; dashed: ideal " ..
        "(the 1-rank point × the resources' ratio: GPUs, or CPU threads); labels: efficiency against 1 rank " ..
        "(weak: same batch per rank; strong: same global batch)", runs, opts),
      xlabel = "Ranks (data-parallel processes)", ylabel = "Throughput (images/s, all ranks)",
      width = opts.width, height = opts.height}
    if draw_one("line", plot, warnings) then out[#out + 1] = {figure = "E", env = env, path = path, plot = plot} end
  end
end

-- The configuration fields that take several values inside one environment (issue 34: a merged
-- study's H100 points were labelled "bs64 3 / 8" because another machine ran another protocol):
-- a figure's legend and labels name only those; each environment's protocol is in its subtitle.
local function varying_within_envs(runs)
  local by_env, order = {}, {}
  for _, r in ipairs(runs) do
    if not by_env[r.env_key] then by_env[r.env_key] = {}; order[#order + 1] = r.env_key end
    table.insert(by_env[r.env_key], r)
  end
  local seen = {}
  for _, k in ipairs(order) do
    for _, f in ipairs(configs.varying(by_env[k])) do seen[f.name] = true end
  end
  local out = {}
  for _, f in ipairs(configs.FIELDS) do if seen[f.name] then out[#out + 1] = f end end
  return out
end

local DRAW_SPEC = {
  dir = {type = "string", default = "figures"}, level = {type = "string", default = "dram"},
  fixed = {type = "table"}, width = {type = "integer", min = 100}, height = {type = "integer", min = 100},
  note = {type = "string"}, quiet = {type = "boolean", default = false},
  format = {type = "string", one_of = {"png", "svg", "pdf"}, default = "png"},
}

--- Draws every figure of loaded data D (rlx.studydb.data.load) into opts.dir (options as draw's).
function M._draw_loaded(D, opts)
  local o = options.check("rlx.figures.draw", opts, DRAW_SPEC)
  if o.fixed then
    options.check("rlx.figures.draw: option 'fixed'", o.fixed, {model = {type = "string", required = true},
      precision = {type = "string", required = true}, batch = {type = "integer", required = true}})
  end
  rlx.plot.mkdir(o.dir)
  local files, warnings, not_drawn = {}, {}, {}
  local runs, points = rows_of(D, o.level)
  -- The configuration fields the study's runs differ in: named in legends and point labels.
  local varying = varying_within_envs(runs)
  if #runs == 0 then
    warnings[#warnings + 1] = "no successful runs in " .. (D.study and ("study '" .. D.study .. "'") or "the studies") ..
      ": nothing to draw"
  else
    throughput_figures(D, runs, o.dir, files, o, warnings, varying)
    variance_figure(runs, o.dir, files, o, warnings, not_drawn)
    scaling_figures(D, o.dir, files, o, warnings, varying)
  end
  if #points > 0 then
    roofline_figures(D, points, o.dir, files, o, warnings, varying)
    ai_figures(D, points, o.dir, files, o, warnings, varying)
  elseif #runs > 0 then
    warnings[#warnings + 1] = "no roofline points at level '" .. o.level .. "': rooflines and AI figures skipped"
  end
  if not o.quiet then
    for _, w in ipairs(warnings) do io.stderr:write("rlx.figures: " .. w .. "\n") end
  end
  return {files = files, warnings = warnings, not_drawn = not_drawn}
end

--- Draws every figure of the study into opts.dir (default "figures") as opts.format (png, svg or
--- pdf; default png). Returns {files = {{figure=,
--- path=, ...}}, warnings = {...}, not_drawn = {B = why}}; a figure that cannot be drawn (no peaks, no
--- runs) is a warning.
function M.draw(study, opts)
  if type(study) ~= "table" or not study.db then
    errors.raise("rlx.figures.draw", "expected a study (rlx.study{...}), got " .. type(study))
  end
  return M._draw_loaded(data.load(study.db, study.name, study.path), opts)
end

return M
