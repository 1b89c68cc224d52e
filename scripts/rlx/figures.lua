-- rlx.figures: the study's whole figure set (seed 001's checklist) drawn from its database.
--
--   require("rlx.figures").draw(study, {dir = "figures"})   -- or study:figures{dir = "figures"}
--
-- writes (PNG, or SVG / PDF with format = "svg" | "pdf" for LaTeX), for every environment E (an
-- env label, suffixed with the device kind when one machine ran both CPU and CUDA sweeps) and
-- every model M:
--   figures/throughput_env-E.png   A: images/s vs batch, one line per model and precision, ± 1 SD
--   figures/variance_fixed_config.png  B: per-repeat images/s of one config across environments
--   figures/roofline_E.png         C: roofline with the environment's peaks and the runs' points
--   figures/ai_vs_batch_M.png      D: arithmetic intensity vs batch per precision and environment
-- Everything is read from study.db through the store's reads, so figures can be redrawn at any time from a stored
-- (or merged) database without rerunning anything.
local options = require("rlx.options")
local M = {}

local data = require("rlx.report.data")
local kind_of = data.kind_of
local function safe(name) return (tostring(name):gsub("[^%w%._%-]", "_")) end

local function mean_sd(xs)
  local n, s = #xs, 0
  for _, x in ipairs(xs) do s = s + x end
  local m = s / n
  if n < 2 then return m, 0 end
  local ss = 0
  for _, x in ipairs(xs) do ss = ss + (x - m) ^ 2 end
  return m, math.sqrt(ss / (n - 1))
end

-- Keys in order of first appearance in rows (rows come sorted by sort_rows).
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

-- The "environment" of a figure: the report's environment key (rlx.report.data), so the report
-- links the figures by the same name.
local function env_keys(runs)
  data.assign_env_keys(runs)
  for _, r in ipairs(runs) do r.fig_env = r.env_key end
end

-- Rows in the figures' order: environment, device, model, precision, batch, repeat.
local SORT_KEYS = {"env", "device", "model", "precision", "batch", "run"}
local function sort_rows(rows)
  table.sort(rows, function(a, b)
    for _, k in ipairs(SORT_KEYS) do
      local x, y = a[k], b[k]
      if x ~= y then
        if type(x) == "number" and type(y) == "number" then return x < y end
        return tostring(x) < tostring(y)
      end
    end
    return false
  end)
  return rows
end

-- The study's ok runs (through the store's conn:runs), by id and those with a throughput.
local function ok_runs(study)
  local rows, by_id = {}, {}
  for _, r in ipairs(study.db:runs{study = study.name, status = "ok"}) do
    by_id[r.id] = r
    if type(r.images_per_s) == "number" then rows[#rows + 1] = r end
  end
  sort_rows(rows)
  env_keys(rows)
  return rows, by_id
end

-- Roofline points of ok runs at one memory level, each with its run's fields.
local function roofline_rows(study, level, runs_by_id)
  local rows = {}
  for _, p in ipairs(study.db:points{study = study.name, level = level}) do
    local r = runs_by_id[p.run_id]
    if r and type(p.ai) == "number" and p.ai > 0 and type(p.gflops) == "number" and p.gflops > 0 then
      rows[#rows + 1] = {level = p.level, ai = p.ai, gflops = p.gflops, source = p.source, roof_precision = p.precision,
        model = r.model, precision = r.precision, batch = r.batch, device = r.device, run = r.run, env = r.env,
        environment_id = r.environment_id, gpu_name = r.gpu_name, stable = r.stable,
        counters_source = p.counters_source}
    end
  end
  sort_rows(rows)
  env_keys(rows)
  return rows
end

-- Latest stored peaks per environment id and device kind: {[env_id] = {cpu = {...}, cuda = {...}}}.
local function stored_peaks(study)
  local out = {}
  for _, e in ipairs(study.db:study_environments(study.name)) do
    for _, kind in ipairs({"cpu", "cuda"}) do
      local p = study.db:peaks(e.id, kind)
      if p then
        out[e.id] = out[e.id] or {}
        out[e.id][kind] = p
      end
    end
  end
  return out
end

local function peaks_for(study, peaks, run)
  local k = kind_of(run.device)
  local p = peaks[run.environment_id] and peaks[run.environment_id][k]
  if p then return p, "measured" end
  if k == "cuda" and run.gpu_name and type(rlx.peaks) == "table" and rlx.peaks.datasheet then
    local ok, entry = pcall(rlx.peaks.datasheet, run.gpu_name)
    if ok and entry then return entry, "datasheet" end
  end
  return nil
end

-- A: throughput vs batch per environment.
local function throughput_figures(runs, dir, out, opts)
  for _, env in ipairs(ordered(runs, function(r) return r.fig_env end)) do
    local groups, models, precs = {}, {}, {}
    local repeats = 0
    for _, r in ipairs(runs) do
      if r.fig_env == env then
        local key = r.model .. "\0" .. r.precision
        groups[key] = groups[key] or {model = r.model, precision = r.precision, batches = {}}
        local g = groups[key].batches
        g[r.batch] = g[r.batch] or {}
        table.insert(g[r.batch], r.images_per_s)
        repeats = math.max(repeats, #g[r.batch])
        models[r.model], precs[r.precision] = true, true
      end
    end
    local mlist, plist = {}, {}
    for m in pairs(models) do mlist[#mlist + 1] = m end
    for p in pairs(precs) do plist[#plist + 1] = p end
    table.sort(mlist, by_order(MODEL_ORDER))
    table.sort(plist, by_order(PRECISION_ORDER))
    local series = {}
    for mi, m in ipairs(mlist) do
      for pi, p in ipairs(plist) do
        local g = groups[m .. "\0" .. p]
        if g then
          local xs = {}
          for b in pairs(g.batches) do xs[#xs + 1] = b end
          table.sort(xs)
          local ys, sds = {}, {}
          for i, b in ipairs(xs) do ys[i], sds[i] = mean_sd(g.batches[b]) end
          -- Colour says the model, marker and dash say the precision.
          series[#series + 1] = {label = m .. " " .. p, x = xs, y = ys, sd = sds, color = mi, marker = pi,
            dashed = pi > 1}
        end
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
    rlx.plot.throughput{series = series, out = path, title = "Training throughput vs batch size: " .. env,
      subtitle = string.format("mean ± 1 SD over %d repeat%s%s%s", repeats, repeats == 1 and "" or "s",
        yscale == "log" and "; log scale" or "", opts.note and ("; " .. opts.note) or ""),
      yscale = yscale,
      width = opts.width, height = opts.height}
    out[#out + 1] = {figure = "A", env = env, path = path}
  end
end

-- B: one configuration across environments. By default seed 000's fixed configuration
-- (M.SEED_FIXED: ResNet-50, fp32, batch 128) when the runs have it, else the nearest stored one:
-- the same model, then the same precision, then the batch closest to 128 (by ratio), then the one
-- found in the most environments, then the larger batch. The chosen config says which it is
-- (seed = true, or nearest_to = the seed's), and the figure's subtitle names it.
M.SEED_FIXED = {model = "resnet50", precision = "fp32", batch = 128}

local function seed_distance(c)
  local s = M.SEED_FIXED
  return (c.model == s.model and 0 or 4) + (c.precision == s.precision and 0 or 2) +
    math.abs(math.log(c.batch / s.batch) / math.log(2)) / 100
end

function M.fixed_config(runs)
  local envs_of, best = {}, nil
  for _, r in ipairs(runs) do
    local k = r.model .. "|" .. r.precision .. "|" .. r.batch
    envs_of[k] = envs_of[k] or {model = r.model, precision = r.precision, batch = r.batch, envs = {}, n = 0}
    if not envs_of[k].envs[r.fig_env] then envs_of[k].envs[r.fig_env] = true; envs_of[k].n = envs_of[k].n + 1 end
  end
  for _, c in pairs(envs_of) do
    local dc, db = seed_distance(c), best and seed_distance(best)
    if not best or dc < db or (dc == db and (c.n > best.n or (c.n == best.n and c.batch > best.batch))) then best = c end
  end
  if not best then return nil end
  local s = M.SEED_FIXED
  if best.model == s.model and best.precision == s.precision and best.batch == s.batch then best.seed = true
  else best.nearest_to = s end
  return best
end

local function variance_figure(runs, dir, out, opts, warnings)
  local fixed = opts.fixed or M.fixed_config(runs)
  if not fixed then warnings[#warnings + 1] = "variance_fixed_config: no runs to compare"; return end
  local groups, idx = {}, {}
  for _, r in ipairs(runs) do
    if r.model == fixed.model and r.precision == fixed.precision and r.batch == fixed.batch then
      if not idx[r.fig_env] then
        groups[#groups + 1] = {label = r.fig_env, values = {}}
        idx[r.fig_env] = #groups
      end
      table.insert(groups[idx[r.fig_env]].values, r.images_per_s)
    end
  end
  if #groups == 0 then
    warnings[#warnings + 1] = string.format("variance_fixed_config: no ok runs of %s %s bs%s", fixed.model, fixed.precision, fixed.batch)
    return
  end
  local path = dir .. "/variance_fixed_config." .. opts.format
  rlx.plot.variability{groups = groups, out = path, xlabel = "Environment",
    title = string.format("Run-to-run variability: %s, %s, batch %d", fixed.model, fixed.precision, fixed.batch),
    subtitle = (fixed.seed and "seed 000's fixed configuration; " or (fixed.nearest_to and string.format(
      "nearest stored to seed 000's %s %s bs%d; ", fixed.nearest_to.model, fixed.nearest_to.precision,
      fixed.nearest_to.batch) or "")) .. "box: quartiles and median; whiskers: 1.5 IQR; dots: one per repeat",
    width = opts.width, height = opts.height}
  out[#out + 1] = {figure = "B", path = path, config = fixed}
end

-- C: roofline per environment, one point per configuration (mean over repeats).
local function roofline_figures(study, points, dir, out, opts, warnings)
  local peaks = stored_peaks(study)
  for _, env in ipairs(ordered(points, function(r) return r.fig_env end)) do
    local agg, order, first = {}, {}, nil
    for _, p in ipairs(points) do
      if p.fig_env == env then
        first = first or p
        local k = table.concat({p.model, p.precision, p.batch}, "|")
        if not agg[k] then
          agg[k] = {model = p.model, precision = p.precision, batch = p.batch, env = env, ai = {}, gflops = {},
            source = p.counters_source and (p.source .. " (" .. p.counters_source .. ")") or p.source}
          order[#order + 1] = k
        end
        -- A repeat without a steady state (stored stable = 0) marks its point with "*".
        agg[k].unstable = agg[k].unstable or p.stable == 0
        table.insert(agg[k].ai, p.ai)
        table.insert(agg[k].gflops, p.gflops)
      end
    end
    local pk, pk_source = peaks_for(study, peaks, first)
    if not pk then
      warnings[#warnings + 1] = "roofline_" .. env .. ": no peaks stored for " .. env ..
        " (measure them with: rlx peaks --db " .. study.path .. "); roofline skipped"
    else
      local pts, sources, any_unstable = {}, {}, false
      for _, k in ipairs(order) do
        local a = agg[k]
        pts[#pts + 1] = {model = a.model, precision = a.precision, batch = a.batch, env = env,
          ai = (mean_sd(a.ai)), gflops = (mean_sd(a.gflops)), label = "bs" .. a.batch .. (a.unstable and "*" or "")}
        sources[a.source or "?"] = true
        any_unstable = any_unstable or a.unstable
      end
      -- Same colours and shapes as the throughput figure: models and precisions in study order.
      table.sort(pts, function(a, b)
        if a.model ~= b.model then return by_order(MODEL_ORDER)(a.model, b.model) end
        if a.precision ~= b.precision then return by_order(PRECISION_ORDER)(a.precision, b.precision) end
        return a.batch < b.batch
      end)
      local src = {}
      for s in pairs(sources) do src[#src + 1] = s end
      table.sort(src)
      local path = dir .. "/roofline_" .. safe(env) .. "." .. opts.format
      local ok, err = pcall(rlx.plot.roofline, {points = pts, peaks = pk, arrows = true, out = path,
        title = "Roofline: " .. env .. " (" .. kind_of(first.device) .. ")",
        subtitle = "roofs: " .. (pk_source == "datasheet" and "datasheet" or (pk.source or "measured")) ..
          " peaks; points: " .. table.concat(src, "+") .. " (DRAM traffic), mean over repeats" ..
          (any_unstable and "; * = a repeat not steady" or ""),
        width = opts.width, height = opts.height})
      if ok then out[#out + 1] = {figure = "C", env = env, path = path}
      else warnings[#warnings + 1] = "roofline_" .. env .. ": " .. tostring(err) end
    end
  end
end

-- D: arithmetic intensity vs batch per model.
local function ai_figures(points, dir, out, opts)
  local models = ordered(points, function(r) return r.model end)
  table.sort(models, by_order(MODEL_ORDER))
  for _, m in ipairs(models) do
    local pts = {}
    for _, p in ipairs(points) do
      if p.model == m then pts[#pts + 1] = {model = m, batch = p.batch, ai = p.ai, precision = p.precision, env = p.fig_env} end
    end
    table.sort(pts, function(a, b)
      if a.env ~= b.env then return a.env < b.env end
      if a.precision ~= b.precision then return by_order(PRECISION_ORDER)(a.precision, b.precision) end
      return a.batch < b.batch
    end)
    local path = dir .. "/ai_vs_batch_" .. safe(m) .. "." .. opts.format
    rlx.plot.ai_vs_batch{points = pts, model = m, by = {"env", "precision"}, out = path,
      title = "Arithmetic intensity vs batch size: " .. m, subtitle = "DRAM level, mean over repeats",
      width = opts.width, height = opts.height}
    out[#out + 1] = {figure = "D", model = m, path = path}
  end
end

--- Draws every figure of the study into opts.dir (default "figures") as opts.format (png, svg or
--- pdf; default png). Returns {files = {{figure=,
--- path=, ...}}, warnings = {...}}; a figure that cannot be drawn (no peaks, no runs) is a warning.
function M.draw(study, opts)
  if type(study) ~= "table" or not study.db then
    options.raise("rlx.figures.draw: expected a study (rlx.study{...}), got " .. type(study))
  end
  local o = options.check("rlx.figures.draw", opts, {
    dir = {type = "string", default = "figures"}, level = {type = "string", default = "dram"},
    fixed = {type = "table"}, width = {type = "integer", min = 100}, height = {type = "integer", min = 100},
    note = {type = "string"}, quiet = {type = "boolean", default = false},
    format = {type = "string", one_of = {"png", "svg", "pdf"}, default = "png"},
  })
  if o.fixed then
    options.check("rlx.figures.draw: option 'fixed'", o.fixed, {model = {type = "string", required = true},
      precision = {type = "string", required = true}, batch = {type = "integer", required = true}})
  end
  rlx.plot.mkdir(o.dir)
  local files, warnings = {}, {}
  local runs, runs_by_id = ok_runs(study)
  if #runs == 0 then
    warnings[#warnings + 1] = "no successful runs in study '" .. study.name .. "': nothing to draw"
  else
    throughput_figures(runs, o.dir, files, o)
    variance_figure(runs, o.dir, files, o, warnings)
  end
  local points = roofline_rows(study, o.level, runs_by_id)
  if #points > 0 then
    roofline_figures(study, points, o.dir, files, o, warnings)
    ai_figures(points, o.dir, files, o)
  elseif #runs > 0 then
    warnings[#warnings + 1] = "no roofline points at level '" .. o.level .. "': rooflines and AI figures skipped"
  end
  if not o.quiet then
    for _, w in ipairs(warnings) do io.stderr:write("rlx.figures: " .. w .. "\n") end
  end
  return {files = files, warnings = warnings}
end

return M
