-- rlx.study: a performance study kept in one SQLite database (docs/storage.md).
--
--   local study = rlx.study{name = "cpu"}              -- results/cpu.db
--   study:sweep{models = {"resnet18", "mobilenet_v2"}, batch = {16, 32}, repeats = 3, iters = 20}
--   for _, r in ipairs(study:runs{model = "resnet18"}) do print(r.label, r.images_per_s) end
--
-- A sweep runs the Cartesian product models x precision x batch x repeats in that stable order
-- through rlx.train and writes each run (row, samples, counters, complexity, roofline points) in
-- ONE transaction, so a crash or Ctrl-C never leaves half a run. Rerunning skips the runs already
-- stored as ok for the same configuration in the same environment (force = true redoes them), so
-- a killed study continues where it stopped. A failed run (out of memory, say) is stored with its
-- error and the sweep goes on; failed runs are tried again on the next rerun.
local options = require("rlx.options")

local M = {}
local Study = {}
Study.__index = Study

local plain_data
local function warn(msg) io.stderr:write("rlx.study: " .. msg .. "\n") end

local function now_s() return rlx._core.db.monotonic and rlx._core.db.monotonic() or os.time() end

--- rlx.study{name=, db=, label=, zone=, instance_type=}: opens (creating) the study's database and
--- records the current environment and the study.
function M.open(opts)
  local o = options.check("rlx.study", opts, {
    name = {type = "string", required = true},
    db = {type = "string"},
    label = {type = "string"},
    zone = {type = "string"},
    instance_type = {type = "string"},
  })
  if o.name == "" or o.name:find("[/\\]") then
    options.raise(string.format("rlx.study: option 'name' must be a non-empty name without '/', got %q", o.name))
  end
  local path = o.db or ("results/" .. o.name .. ".db")
  local self = setmetatable({name = o.name, path = path}, Study)
  self.db = rlx.db.open(path, {create_directories = true})  -- results/ is made on first use
  self.env = rlx.env.capture{label = o.label, zone = o.zone, instance_type = o.instance_type}
  self.env_id = self.env.id
  if self.env.gpu_unusable then
    io.stderr:write("rlx.study: WARNING: the GPU here is not used: " .. self.env.gpu_unusable .. "\n")
  end
  self:_store_environment()
  self.db:exec("INSERT OR IGNORE INTO studies (name, created_at) VALUES (?, ?)", o.name, rlx.db.now())
  return self
end

setmetatable(M, {__call = function(_, opts) return M.open(opts) end})

local function num(v) if type(v) == "number" and v == v then return v end return nil end
local function str(v) if v == nil then return nil end return tostring(v) end

function Study:_store_environment()
  local e = self.env
  local flags = e.cpu_flags
  self.db:exec([[INSERT OR IGNORE INTO environments (id, label, host, os, kernel, arch, cpu_model, cpu_cores,
      cpu_threads, cpu_flags, cpu_caches, memory_bytes, gpu_name, gpu_memory_bytes, gpu_driver, cuda, cudnn, torch,
      luajit, compiler, rlx, virtualization, container, cloud_zone, instance_type, info, first_seen)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)]],
    self.env_id, e.label, str(e.host), str(e.os), str(e.kernel), str(e.arch), str(e.cpu_model), num(e.cpu_cores),
    num(e.cpu_threads), str(flags), rlx.db.encode(e.cpu_caches or {}), num(e.memory_bytes), str(e.gpu_name),
    num(e.gpu_memory_bytes), str(e.gpu_driver), str(e.cuda or e.cuda_build), str(e.cudnn), str(e.torch),
    str(e.luajit), str(e.compiler), str(e.rlx), str(e.virtualization), str(e.container), str(e.cloud_zone),
    str(e.instance_type), rlx.db.encode(e), e.captured_at or rlx.db.now())
end

local function make_label(env, model, precision, batch, n)
  return string.format("%s_%s_%s_bs%s_run%d", tostring(env), tostring(model), tostring(precision), tostring(batch), n)
end

--- The run label {env}_{model}_{precision}_bs{batch}_run{N}.
function M.label(env, model, precision, batch, n)
  local args = {env, model, precision, batch}
  for i, what in ipairs({"environment label", "model", "precision"}) do
    if type(args[i]) ~= "string" then
      options.raise(string.format("rlx.study.label: the %s (argument %d) must be a string, got %s", what, i,
        type(args[i])))
    end
  end
  if type(batch) ~= "number" and type(batch) ~= "string" then
    options.raise("rlx.study.label: the batch size (argument 4) must be a number, got " .. type(batch))
  end
  if type(n) ~= "number" or n ~= math.floor(n) or n < 1 then
    options.raise("rlx.study.label: the run number (argument 5) must be an integer >= 1, got " ..
      (type(n) == "number" and tostring(n) or type(n)))
  end
  return make_label(env, model, precision, batch, n)
end

-- Options of a sweep beyond the matrix that go to rlx.train unchanged (issue 4's list).
local PASS_THROUGH = {"workers", "threads", "channels_last", "grad_accum", "deterministic", "cudnn_benchmark",
  "nvtx", "lr", "momentum", "weight_decay", "seed"}

local SWEEP_SPEC = {
  models = {type = "string_list", required = true},
  batch = {type = "int_list", min = 1, default = {32}},
  precision = {type = "string_list", default = {"fp32"}},
  repeats = {type = "integer", min = 1, default = 1},
  device = {type = "string", default = "cpu"},
  warmup = {type = "integer", min = 0},
  iters = {type = "integer", min = 1},
  data = {type = "string"},
  input = {type = "integer", min = 1},
  classes = {type = "integer", min = 1},
  counters = {type = "any"},
  force = {type = "boolean", default = false},
  label = {type = "string"},
  trainer = {type = "function"},
  quiet = {type = "boolean", default = false},
}
for _, k in ipairs(PASS_THROUGH) do SWEEP_SPEC[k] = {type = "any"} end

-- The configuration of one run: what rlx.train gets, minus the label. Its hash is the resume key.
local function run_config(o, model, precision, batch)
  local c = {model = model, precision = precision, batch = batch, device = o.device, warmup = o.warmup,
    iters = o.iters, data = o.data, input = o.input, classes = o.classes, counters = o.counters}
  for _, k in ipairs(PASS_THROUGH) do c[k] = o[k] end
  return c
end

--- The matrix a sweep would run, in order: {config=, key=, run=, label=, done=bool}.
function Study:plan(opts)
  local o = options.check("study:plan", opts, SWEEP_SPEC)
  return self:_plan(o)
end

local function as_list(v) if type(v) == "table" then return v end return {v} end

function Study:_plan(o)
  local env_label = o.label or self.env.label
  local items = {}
  for _, model in ipairs(as_list(o.models)) do
    for _, precision in ipairs(as_list(o.precision)) do
      for _, batch in ipairs(as_list(o.batch)) do
        local config = run_config(o, model, precision, batch)
        local key = rlx.db.hash(config)
        for n = 1, o.repeats do
          local row = self.db:first([[SELECT status FROM runs WHERE study = ? AND environment_id = ? AND config_key = ?
              AND repeat = ?]], self.name, self.env_id, key, n)
          items[#items + 1] = {config = config, key = key, run = n, status = row and row.status,
            done = row ~= nil and row.status == "ok" and not o.force,
            label = make_label(env_label, model, precision, batch, n)}
        end
      end
    end
  end
  return items
end

-- Seconds a run is expected to take, from earlier ok runs: the same configuration first, else the
-- same model/precision/batch/device scaled by the iteration count, else the same model at another
-- batch size scaled by images; nil when nothing comparable.
function Study:_estimate(item)
  local r = self.db:first("SELECT avg(total_s) AS s FROM runs WHERE config_key = ? AND status = 'ok' AND total_s > 0",
    item.key)
  if r and r.s then return r.s end
  local c = item.config
  r = self.db:first([[SELECT avg(total_s / (coalesce(iters, 1) + coalesce(warmup, 0))) AS per_iter FROM runs
      WHERE model = ? AND precision = ? AND batch = ? AND device = ? AND status = 'ok' AND total_s > 0]],
    c.model, c.precision, c.batch, c.device)
  if r and r.per_iter and c.iters then return r.per_iter * (c.iters + (c.warmup or 0)) end
  -- Another batch size of the same model: assume time grows linearly with images (rough).
  r = self.db:first([[SELECT avg(total_s / ((coalesce(iters, 1) + coalesce(warmup, 0)) * batch)) AS per_image
      FROM runs WHERE model = ? AND precision = ? AND device = ? AND status = 'ok' AND total_s > 0 AND batch > 0]],
    c.model, c.precision, c.device)
  if r and r.per_image and c.iters then return r.per_image * (c.iters + (c.warmup or 0)) * c.batch end
  return nil
end

local function fmt_duration(s)
  if s >= 3600 then return string.format("%.1f h", s / 3600) end
  if s >= 60 then return string.format("%.1f min", s / 60) end
  return string.format("%.1f s", s)
end

function Study:_dry_run(items)
  local todo, skipped, total, unknown = 0, 0, 0, 0
  print(string.format("study %s (%s), environment %s: %d runs in the matrix", self.name, self.path, self.env.label, #items))
  for i, it in ipairs(items) do
    local what
    if it.done then
      what, skipped = "skip (done)", skipped + 1
    else
      todo = todo + 1
      local est = self:_estimate(it)
      if est then total = total + est else unknown = unknown + 1 end
      what = (it.status == "failed" and "rerun (failed before)" or (it.status == "ok" and "redo (force)" or "run"))
      if est then what = what .. string.format(", ~%s", fmt_duration(est)) end
    end
    print(string.format("%4d  %-48s %s", i, it.label, what))
  end
  local est = todo == 0 and "nothing to run" or
    (unknown == todo and "no estimate yet (no earlier runs)" or
      string.format("estimated %s%s", fmt_duration(total), unknown > 0 and
        string.format(" (+%d runs without an estimate)", unknown) or ""))
  print(string.format("dry run: %d to run, %d skipped; %s", todo, skipped, est))
  return {planned = #items, to_run = todo, skipped = skipped, estimate_s = unknown < todo and total or nil,
    unestimated = unknown, dry_run = true}
end

-- Complexity from rlx.model.summary when the models module provides it (cached per shape).
function Study:_complexity(config, cache)
  local key = table.concat({config.model, config.batch, tostring(config.input), tostring(config.classes),
    config.precision}, "|")
  if cache[key] ~= nil then return cache[key] or nil end
  local summary = false
  local model = rlx.model
  if type(model) == "table" and type(model.summary) == "function" then
    local ok, s = pcall(model.summary, {model = config.model, batch = config.batch, input = config.input,
      classes = config.classes, precision = config.precision, layers = false})
    if ok and type(s) == "table" then summary = s
    elseif not ok and not cache["warned:" .. config.model] then
      cache["warned:" .. config.model] = true
      warn("no complexity for " .. config.model .. ": " .. tostring(s):gsub("^[^:]*:%d+: ", ""))
    end
  end
  cache[key] = summary
  return summary or nil
end

-- Peaks for the roofline: stored measurements for this environment, else the datasheet entry.
function Study:_roofline_peaks(device)
  local kind = (device or "cpu"):match("^cuda") and "cuda" or "cpu"
  local p = self:peaks(kind)
  if p then return p end
  if kind == "cuda" and self.env.gpu_name and type(rlx.peaks) == "table" and rlx.peaks.datasheet then
    local ok, entry = pcall(rlx.peaks.datasheet, self.env.gpu_name)
    if ok then return entry end
  end
  return nil
end

local function roofline_rows(result, peaks, complexity)
  local roofline = rlx.roofline
  if type(roofline) ~= "table" or type(roofline.for_run) ~= "function" then return {} end
  local ok, rows = pcall(roofline.for_run, result, {peaks = peaks, complexity = complexity})
  if not ok then
    warn("rlx.roofline.for_run failed: " .. tostring(rows))
    return {}
  end
  return type(rows) == "table" and rows or {}
end

-- rlx.train is a table with __call (it also holds rlx.train.devices and friends), so "callable"
-- means a function or anything whose metatable has __call.
local function is_callable(v)
  if type(v) == "function" then return true end
  local mt = getmetatable(v)
  return type(mt) == "table" and mt.__call ~= nil
end

--- Runs the matrix (see docs/lua-api/study.md); returns {planned, ran, skipped, failed, ok, labels}.
function Study:sweep(opts)
  local o = options.check("study:sweep", opts, SWEEP_SPEC)
  local items = self:_plan(o)
  if rlx.flags and rlx.flags.dry_run then return self:_dry_run(items) end
  local trainer = o.trainer or rlx.train
  if not is_callable(trainer) then
    options.raise("study:sweep: rlx.train is not available in this build; pass trainer = function(opts) ... end")
  end
  local stats = {planned = #items, ran = 0, skipped = 0, failed = 0, ok = 0, labels = {}}
  local cache = {}
  for i, it in ipairs(items) do
    if it.done then
      stats.skipped = stats.skipped + 1
    else
      local train_opts = {}
      for k, v in pairs(it.config) do train_opts[k] = v end
      train_opts.label = it.label
      if not o.quiet then
        io.stderr:write(string.format("[%d/%d] %s\n", i, #items, it.label))
      end
      local started, t0 = rlx.db.now(), now_s()
      local ok, result = pcall(trainer, train_opts)
      if not ok then
        -- Ctrl-C (and rlx.fail) arrive as {exit_code=...}: nothing of this run is stored.
        if type(result) == "table" and result.exit_code then error(result, 0) end
        result = {ok = false, error = tostring(result)}
      elseif type(result) ~= "table" then
        result = {ok = false, error = "the trainer returned " .. type(result) .. " instead of a result table"}
      end
      local wall = now_s() - t0
      local complexity = result.ok and self:_complexity(it.config, cache) or nil
      local points = result.ok and roofline_rows(result, self:_roofline_peaks(it.config.device), complexity) or {}
      self:store_run(it.config, result, {run = it.run, label = it.label, started_at = started, total_s = wall,
        complexity = complexity, roofline = points})
      stats.ran = stats.ran + 1
      if result.ok then stats.ok = stats.ok + 1 else
        stats.failed = stats.failed + 1
        warn(string.format("%s failed: %s", it.label, tostring(result.error)))
      end
      stats.labels[#stats.labels + 1] = it.label
    end
  end
  return stats
end

local ITER_FIELDS = {"mean", "sd", "median", "min", "max", "p5", "p95"}

-- Stores one counters table {source=, values={name->number}, units={name->unit}, derived={...}}
-- (or an array of {name=, value=, unit=, source=}) for run_id; returns the number of rows.
local function insert_counters(db, run_id, counters, default_source)
  local n = 0
  local function put(name, value, unit, source)
    if type(value) == "table" then value, unit = value.value, value.unit or unit end
    if type(value) ~= "number" then return end
    db:exec("INSERT OR REPLACE INTO counters (run_id, name, value, unit, source) VALUES (?, ?, ?, ?, ?)",
      run_id, tostring(name), value, unit or "", source or "")
    n = n + 1
  end
  if type(counters) ~= "table" then return 0 end
  if counters[1] ~= nil then
    for _, c in ipairs(counters) do put(c.name, c.value, c.unit, c.source or default_source) end
    return n
  end
  local source = counters.source or default_source or ""
  if type(counters.values) == "table" then
    local units = counters.units or {}
    for name, v in pairs(counters.values) do put(name, v, units[name], source) end
    if type(counters.derived) == "table" then
      local du = counters.derived_units or {}
      for name, v in pairs(counters.derived) do put(name, v, du[name], source .. ":derived") end
    end
  else
    for name, v in pairs(counters) do
      if name ~= "source" then put(name, v, nil, source) end
    end
  end
  return n
end

-- The JSON-able part of a value: functions, userdata and threads (a model object, a callback)
-- are dropped rather than failing the run's transaction.
function plain_data(v, depth)
  local t = type(v)
  if t == "string" or t == "number" or t == "boolean" then return v end
  if t ~= "table" or depth > 32 then return nil end
  local out = {}
  for k, x in pairs(v) do
    if type(k) == "string" or type(k) == "number" then out[k] = plain_data(x, depth + 1) end
  end
  return out
end

-- A complexity summary without its per-layer list (hundreds of rows per model, same every run).
local function without_layers(c)
  local out = {}
  for k, v in pairs(c) do if k ~= "layers" then out[k] = v end end
  return out
end

--- Stores one finished run (config as given to rlx.train, result as returned) in one transaction,
--- replacing any earlier row for the same configuration and repeat. opts: run (repeat number,
--- default 1), label, started_at, total_s, complexity, roofline (array of point rows). Returns the id.
function Study:store_run(config, result, opts)
  if type(config) ~= "table" then options.raise("study:store_run: expected a config table, got " .. type(config)) end
  if type(result) ~= "table" then options.raise("study:store_run: expected a result table, got " .. type(result)) end
  local o = options.check("study:store_run", opts, {
    run = {type = "integer", min = 1, default = 1}, label = {type = "string"}, started_at = {type = "string"},
    total_s = {type = "number"}, complexity = {type = "table"}, roofline = {type = "table"},
  })
  if type(config.model) ~= "string" then
    options.raise("study:store_run: config.model must be a model name (string), got " .. type(config.model))
  end
  local key = rlx.db.hash(config)
  local label = o.label or make_label(self.env.label, config.model, config.precision or "fp32", config.batch or "?", o.run)
  local id = rlx.db.new_id()
  local ok = result.ok == true
  local iter = type(result.iter_s) == "table" and result.iter_s or {}
  local rest = {}
  for k, v in pairs(result) do if k ~= "samples" then rest[k] = v end end
  rest = plain_data(rest, 0)
  local db = self.db
  db:transaction(function()
    db:exec("DELETE FROM runs WHERE study = ? AND environment_id = ? AND config_key = ? AND repeat = ?",
      self.name, self.env_id, key, o.run)
    local vals, n = {}, 0
    local function add(v) n = n + 1; vals[n] = v end
    for _, v in ipairs({id, self.name, self.env_id, label, key, rlx.db.encode(config), config.model}) do add(v) end
    add(str(config.precision or result.precision)); add(num(config.batch)); add(str(result.device or config.device))
    add(o.run); add(num(config.warmup)); add(num(config.iters)); add(ok and "ok" or "failed")
    add((not ok) and tostring(result.error or "failed") or nil)
    add(o.started_at or rlx.db.now()); add(rlx.db.now()); add(num(o.total_s)); add(num(result.images_per_s))
    add(num(result.seconds))
    for _, f in ipairs(ITER_FIELDS) do add(num(iter[f])) end
    for _, f in ipairs({"data_wait_s", "user_s", "sys_s", "max_rss_bytes", "device_max_bytes", "loss_first",
      "loss_last", "threads"}) do
      local v = num(result[f])
      if f == "device_max_bytes" and v and v < 0 then v = nil end  -- -1 = not available (CPU)
      add(v)
    end
    add(rlx.db.encode(rest))
    db:exec([[INSERT INTO runs (id, study, environment_id, label, config_key, config, model, precision, batch, device,
        repeat, warmup, iters, status, error, started_at, finished_at, total_s, images_per_s, seconds, iter_mean_s,
        iter_sd_s, iter_median_s, iter_min_s, iter_max_s, iter_p5_s, iter_p95_s, data_wait_s, user_s, sys_s,
        max_rss_bytes, device_max_bytes, loss_first, loss_last, threads, result)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)]],
      unpack(vals, 1, n))
    if type(result.samples) == "table" then
      for i, s in ipairs(result.samples) do
        db:exec("INSERT INTO samples (run_id, iter, seconds) VALUES (?, ?, ?)", id, i, s)
      end
    end
    insert_counters(db, id, result.counters, nil)
    local c = o.complexity
    if c then
      db:exec([[INSERT INTO complexity (run_id, params, forward_flops, train_flops, bytes, ai, memory_bytes,
          activation_bytes, info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)]], id, num(c.params or c.parameters),
        num(c.forward_flops), num(c.train_flops), num(c.bytes or c.train_bytes), num(c.ai),
        num(c.memory_bytes), num(c.activation_bytes), rlx.db.encode(without_layers(c)))
    end
    for _, p in ipairs(o.roofline or {}) do
      db:exec([[INSERT OR REPLACE INTO roofline_points (run_id, level, precision, flops, bytes, seconds, ai, gflops,
          attainable_gflops, bound, efficiency, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)]], id,
        str(p.level or "dram"), str(p.precision or config.precision or ""), num(p.flops), num(p.bytes),
        num(p.seconds), num(p.ai), num(p.gflops), num(p.attainable_gflops), str(p.bound), num(p.efficiency),
        p.source == "measured" and "measured" or "estimated")
    end
  end)
  return id
end

--- Stored runs with their summaries, filtered by any of model, precision, batch, device, status,
--- env (environment label), label, run (repeat); samples=true adds each run's per-iteration seconds.
function Study:runs(opts)
  local o = options.check("study:runs", opts, {
    model = {type = "string"}, precision = {type = "string"}, batch = {type = "integer"}, device = {type = "string"},
    status = {type = "string", one_of = {"ok", "failed", "running"}}, env = {type = "string"},
    label = {type = "string"}, run = {type = "integer"}, samples = {type = "boolean", default = false},
    all_studies = {type = "boolean", default = false},
  })
  return M.query_runs(self.db, o, not o.all_studies and self.name or nil)
end

--- Runs of a database (any study unless `study` is given), as study:runs returns them.
function M.query_runs(db, o, study)
  local where, params = {}, {}
  local function add(cond, v) if v ~= nil then where[#where + 1] = cond; params[#params + 1] = v end end
  add("r.study = ?", study)
  add("r.model = ?", o.model)
  add("r.precision = ?", o.precision)
  add("r.batch = ?", o.batch)
  add("r.device = ?", o.device)
  add("r.status = ?", o.status)
  add("e.label = ?", o.env)
  add("r.label = ?", o.label)
  add("r.repeat = ?", o.run)
  local sql = [[SELECT r.*, e.label AS env, e.host AS host, e.cpu_model AS cpu_model, e.gpu_name AS gpu_name,
      e.torch AS torch, e.cuda AS cuda, c.params AS params, c.forward_flops AS forward_flops,
      c.train_flops AS train_flops, c.bytes AS complexity_bytes, c.ai AS complexity_ai
      FROM runs r JOIN environments e ON e.id = r.environment_id LEFT JOIN complexity c ON c.run_id = r.id]] ..
    (#where > 0 and (" WHERE " .. table.concat(where, " AND ")) or "") ..
    " ORDER BY r.study, e.label, r.model, r.precision, r.batch, r.repeat, r.finished_at"
  local rows = db:query(sql, unpack(params, 1, #params))
  for _, r in ipairs(rows) do
    r.run = r["repeat"]
    r.iter_s = {}
    for _, f in ipairs(ITER_FIELDS) do r.iter_s[f] = r["iter_" .. f .. "_s"] end
    if type(r.config) == "string" then r.config = rlx.db.decode(r.config) end
    if type(r.result) == "string" then r.result = rlx.db.decode(r.result) end
    if o.samples then
      r.samples = {}
      for i, s in ipairs(db:query("SELECT seconds FROM samples WHERE run_id = ? ORDER BY iter", r.id)) do
        r.samples[i] = s.seconds
      end
    end
  end
  return rows
end

--- Roofline points of this study joined with their runs (model, precision, batch, env, label).
function Study:points(opts)
  local o = options.check("study:points", opts, {level = {type = "string"}, env = {type = "string"},
    model = {type = "string"}, source = {type = "string", one_of = {"measured", "estimated"}}})
  local where, params = {"r.study = ?"}, {self.name}
  local function add(cond, v) if v ~= nil then where[#where + 1] = cond; params[#params + 1] = v end end
  add("p.level = ?", o.level)
  add("e.label = ?", o.env)
  add("r.model = ?", o.model)
  add("p.source = ?", o.source)
  return self.db:query([[SELECT p.*, r.label, r.model, r.batch, r.device, r.repeat AS run, e.label AS env
      FROM roofline_points p JOIN runs r ON r.id = p.run_id JOIN environments e ON e.id = r.environment_id
      WHERE ]] .. table.concat(where, " AND ") .. " ORDER BY e.label, r.model, r.batch, r.repeat, p.level",
    unpack(params, 1, #params))
end

local function peak_unit(name)
  if name:match("_gflops$") then return "GFLOP/s" end
  if name:match("_gbps$") then return "GB/s" end
  if name:match("_bytes$") then return "B" end
  if name:match("_s$") then return "s" end
  return ""
end

--- Stores a peaks table (rlx.peaks.measure's: numeric fields such as dram_gbps, fp32_gflops, and
--- spread, a number or a table name -> relative spread) for this environment; device and source
--- default to the table's own fields, else "cpu" and "measured". Returns the number of rows stored.
function Study:store_peaks(peaks, opts)
  if type(peaks) ~= "table" then options.raise("study:store_peaks: expected a peaks table, got " .. type(peaks)) end
  local o = options.check("study:store_peaks", opts, {device = {type = "string"}, source = {type = "string"}})
  o.device = o.device or (type(peaks.device) == "string" and peaks.device) or "cpu"
  o.source = o.source or (type(peaks.source) == "string" and peaks.source) or "measured"
  local at = rlx.db.now()
  local n = 0
  local spread = peaks.spread
  self.db:transaction(function()
    for name, v in pairs(peaks) do
      if type(name) == "string" and type(v) == "number" and name ~= "spread" then
        local s = type(spread) == "table" and num(spread[name]) or num(spread)
        local unit = type(peaks.units) == "table" and peaks.units[name] or peak_unit(name)
        self.db:exec([[INSERT OR REPLACE INTO peaks (environment_id, device, name, value, unit, source, spread,
            measured_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)]], self.env_id, o.device, name, v, unit, o.source, s, at)
        n = n + 1
      end
    end
  end)
  if n == 0 then
    options.raise("study:store_peaks: the table has no numeric fields (expected e.g. dram_gbps, fp32_gflops)")
  end
  return n
end

--- The latest stored peaks of this environment for device ("cpu" or "cuda"): a table name -> value
--- with spread, units, source and measured_at, or nil when none were stored.
function Study:peaks(device)
  if device ~= nil and type(device) ~= "string" then
    options.raise("study:peaks: expected a device name (string), got " .. type(device))
  end
  local rows = self.db:query([[SELECT name, value, unit, source, spread, measured_at FROM peaks p
      WHERE environment_id = ? AND device = ? AND measured_at = (SELECT max(measured_at) FROM peaks q
        WHERE q.environment_id = p.environment_id AND q.device = p.device AND q.name = p.name)
      ORDER BY name]], self.env_id, device or "cpu")
  if #rows == 0 then return nil end
  local out = {spread = {}, units = {}, device = device or "cpu"}
  for _, r in ipairs(rows) do
    out[r.name], out.spread[r.name], out.units[r.name] = r.value, r.spread, r.unit
    out.source, out.measured_at = r.source, r.measured_at
  end
  return out
end

--- Attaches counters to the run with this label (in this study): counters is {source=, values=,
--- units=, derived=}, an array of {name=, value=, unit=, source=}, or a flat table name -> number.
--- Returns the number of rows stored; fails when no run has that label.
function Study:attach_counters(label, counters, opts)
  if type(label) ~= "string" then options.raise("study:attach_counters: expected a run label (string), got " .. type(label)) end
  if type(counters) ~= "table" then
    options.raise("study:attach_counters: expected a counters table, got " .. type(counters))
  end
  local o = options.check("study:attach_counters", opts, {source = {type = "string", default = "ncu"}})
  local run = self.db:first("SELECT id FROM runs WHERE study = ? AND label = ? ORDER BY finished_at DESC", self.name, label)
  if not run then
    options.raise(string.format("study:attach_counters: no run labelled '%s' in study '%s' (%s); list the labels " ..
      "with: rlx runs %s", label, self.name, self.path, self.path))
  end
  local n
  self.db:transaction(function() n = insert_counters(self.db, run.id, counters, o.source) end)
  return n
end

--- Draws the study's figures (scripts/rlx/figures.lua).
function Study:figures(opts)
  return require("rlx.figures").draw(self, opts)
end

--- Writes the study's report (report.md, report.html, figures; scripts/rlx/report.lua).
function Study:report(opts)
  return require("rlx.report").write(self, opts)
end

function Study:close()
  if self.db then self.db:close() end
end

-- study.sweep{...} (a '.' for a ':') passes the options where the study belongs, and would fail
-- with a misleading message about the options: every public method checks self first.
local METHOD_USAGE = {plan = "{...}", sweep = "{...}", runs = "{...}", points = "{...}", figures = "{...}", report = "{...}",
  store_run = "(config, result [, options])", store_peaks = "(peaks [, options])", peaks = "([device])",
  attach_counters = "(label, counters [, options])", close = "()"}
for name, usage in pairs(METHOD_USAGE) do
  local method = Study[name]
  Study[name] = function(self, ...)
    if getmetatable(self) ~= Study then
      options.raise(string.format("study:%s: called with '.' instead of ':' (use study:%s%s)", name, name, usage))
    end
    return method(self, ...)
  end
end

return M
