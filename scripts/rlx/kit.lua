-- rlx.kit: a machine measured with seed 000's own kit (code/run_train.py), brought into a study
-- database beside rlx's runs (issue 34: the seed's Mac MPS row cannot run in rlx, whose LibTorch has
-- no MPS; the kit runs there). `rlx import-kit DIR --db DB` reads
--   DIR/logs/metrics.csv   the rows run_train.py appends (the header rlx export --layout seed writes)
--   DIR/logs/env_info.md   the student's description of the machine (free text; optional)
--   DIR/logs/ncu/*.csv     Nsight Compute CSVs named after their run's --label (optional)
-- and stores one environment, marked imported, with one run per row (repeats numbered in file
-- order), the analytic complexity of each configuration and its estimated roofline point, and the
-- ncu totals of the runs that have a CSV.
--
-- Everything is read and checked before anything is written to the target: a bad value is one
-- error naming the file, line and column and the fix. metrics.csv is streamed, a record at a time
-- (rlx.csv.reader), twice: once to check every row and learn what the environment needs (the
-- labels' shared prefix, the host), once to build the runs in a temporary database in one
-- transaction; that database is merged into the target in one transaction (conn:merge_from), so an
-- import is all or nothing and importing the same kit twice adds nothing. 100,000 rows used to be
-- parsed a character at a time in Lua and held whole (issue 48: 114.5 s, 941 MB).
--
-- Bounds, each with its reason (docs/cli.md "rlx import-kit"): at most MAX_ROWS rows and
-- MAX_METRICS_BYTES bytes of metrics.csv, MAX_ENV_INFO_BYTES of env_info.md; batch_size at most
-- MAX_BATCH, iterations at most MAX_ITERS, elapsed_sec at most MAX_ELAPSED_S; and images_per_sec
-- must agree with batch_size x measured_iters / elapsed_sec (run_train.py writes that quotient)
-- within IPS_TOLERANCE. A row outside them is refused, naming its cell.
local options = require("rlx.options")
local errors = require("rlx.errors")
local model = require("rlx.model")

local M = {}

local FN = "rlx.kit.import"

-- The columns an import needs (the rest of the kit's header is read when present).
M.REQUIRED = {"arch", "batch_size", "precision", "warmup_iters", "measured_iters", "elapsed_sec", "images_per_sec"}
-- What a kit's row may say, as sets: rlx's precisions (rlx.model.PRECISIONS) and the kit's fp16;
-- rlx's device kinds (rlx.model.DEVICE_KINDS) and Apple's mps (seed 001's Mac rows). A database
-- holds rows of both, so the report's filters take these (DEVICE_KINDS: the backends, sorted).
M.PRECISIONS, M.BACKENDS = {fp16 = true}, {mps = true}
for _, p in ipairs(model.PRECISIONS) do M.PRECISIONS[p] = true end
for _, k in ipairs(model.DEVICE_KINDS) do M.BACKENDS[k] = true end
local function sorted_names(set)
  local names = {}
  for name in pairs(set) do names[#names + 1] = name end
  table.sort(names)
  return names
end
M.DEVICE_KINDS = sorted_names(M.BACKENDS)

-- A run of the kit takes seconds at least, and a study of the seed's matrix a few hundred of them:
-- a million rows is far beyond any real kit (and about 2 GB in a database).
M.MAX_ROWS = 1000000
M.MAX_METRICS_BYTES = 2 ^ 30
-- env_info.md is a page the student writes; it is stored whole with the environment.
M.MAX_ENV_INFO_BYTES = 2 ^ 20
-- No device trains 2^20 images in one step: at 224 x 224 in fp32 their input alone is 631 GB.
M.MAX_BATCH = 2 ^ 20
M.MAX_ITERS = 1e9
-- A timed loop longer than a year (365 days) is no measurement of a machine.
M.MAX_ELAPSED_S = 365 * 86400
-- How far images_per_sec may be from batch_size x measured_iters / elapsed_sec: the kit writes both
-- in full, so only rounding separates them.
M.IPS_TOLERANCE = 0.01

local function fail(where, msg) errors.raise(FN, where .. ": " .. msg) end

-- A file of the kit, by rlx's one rule for a user's files (rlx.fs.read: a FIFO or a device is
-- refused at once, at most max_bytes); nil for a missing optional one.
local function read_file(path, what, max_bytes, required)
  local ok, text = pcall(rlx.fs.read, path, {what = what, max_bytes = max_bytes, missing_ok = not required})
  if not ok then errors.raise(FN, errors.message(errors.pass_exits(text))) end
  return text
end

-- Typed readers of one row's cells: where = "path:line:col", the fix said with the problem.
local function cell_reader(path, header, rec)
  local r = {}
  function r.where(name) return string.format("%s:%d:%d", path, rec.line, rec.cols[header[name]] or 1) end
  function r.raw(name)
    local k = header[name]
    local v = k and rec.fields[k] or nil
    if v == nil then return nil end
    v = v:match("^%s*(.-)%s*$")
    return v ~= "" and v or nil
  end
  function r.integer(name, min, required, max, why)
    local v = r.raw(name)
    if v == nil then
      if required then fail(r.where(name), name .. " is empty; run_train.py writes a whole number there") end
      return nil
    end
    local x = tonumber(v)
    if not x or x ~= math.floor(x) or x < min then
      fail(r.where(name), string.format("%s '%s' is not a whole number >= %d; correct the row or delete it", name, v, min))
    end
    if max and x > max then
      fail(r.where(name), string.format("%s '%s' is more than %d, the most rlx imports (%s); correct the row or " ..
        "delete it", name, v, max, why))
    end
    return x
  end
  function r.number(name, positive, required)
    local v = r.raw(name)
    if v == nil then
      if required then fail(r.where(name), name .. " is empty; run_train.py writes a number there") end
      return nil
    end
    local x = tonumber(v)
    if not x or x ~= x or x == math.huge or x == -math.huge or (positive and x <= 0) then
      fail(r.where(name), string.format("%s '%s' is not a %snumber; correct the row or delete it", name, v,
        positive and "positive " or ""))
    end
    return x
  end
  function r.bool(name)
    local v = r.raw(name)
    if v == nil then return nil end
    local l = v:lower()
    if l == "true" or l == "1" then return true elseif l == "false" or l == "0" then return false end
    fail(r.where(name), string.format("%s '%s' is not True or False; correct the row", name, v))
  end
  return r
end

-- One row of metrics.csv as rlx's config and result (validated).
local function row_of(path, header, rec, o)
  if #rec.fields ~= header.n then
    fail(string.format("%s:%d:%d", path, rec.line, rec.cols[#rec.cols] or 1), string.format("this row has %d " ..
      "fields, the header %d; a field with a comma must be quoted", #rec.fields, header.n))
  end
  local c = cell_reader(path, header, rec)
  local arch = c.raw("arch") or fail(c.where("arch"), "arch is empty; give the model (resnet50, vgg16, mobilenet_v2)")
  local precision = c.raw("precision") or "fp32"
  if not M.PRECISIONS[precision] then
    fail(c.where("precision"), string.format("precision '%s' is not one of %s", precision,
      table.concat(sorted_names(M.PRECISIONS), ", ")))
  end
  local backend = c.raw("backend") or "cpu"
  if not M.BACKENDS[backend] then
    fail(c.where("backend"), string.format("backend '%s' is not one of %s (run_train.py writes the backend it " ..
      "resolved)", backend, table.concat(M.DEVICE_KINDS, ", ")))
  end
  local batch = c.integer("batch_size", 1, true, M.MAX_BATCH, "no device trains more in one step: 2^20 images " ..
    "at 224 x 224 in fp32 are 631 GB of input")
  local iters = c.integer("measured_iters", 1, true, M.MAX_ITERS, "a billion timed iterations")
  local elapsed, ips = c.number("elapsed_sec", true, true), c.number("images_per_sec", true, true)
  if elapsed > M.MAX_ELAPSED_S then
    fail(c.where("elapsed_sec"), string.format("elapsed_sec '%s' is more than %d seconds (a year): no timed loop " ..
      "of a kit runs that long; correct the row or delete it", c.raw("elapsed_sec"), M.MAX_ELAPSED_S))
  end
  -- run_train.py writes images_per_sec as batch_size x measured_iters / elapsed_sec: a row where
  -- they disagree was edited or damaged, and its throughput would be a guess.
  local expected = batch * iters / elapsed
  if math.abs(ips - expected) > M.IPS_TOLERANCE * expected then
    fail(c.where("images_per_sec"), string.format("images_per_sec %s does not agree with batch_size x " ..
      "measured_iters / elapsed_sec = %d x %d / %s = %.6g (more than %g %% apart); run_train.py writes that " ..
      "quotient: correct the row or delete it", c.raw("images_per_sec"), batch, iters, c.raw("elapsed_sec"), expected,
      M.IPS_TOLERANCE * 100))
  end
  local cl = c.bool("channels_last")
  local data = o.synthetic and "synthetic" or c.raw("data_root") or "synthetic"
  local warmup = c.integer("warmup_iters", 0, true, M.MAX_ITERS, "a billion warm-up iterations")
  local config = {model = arch, batch = batch, precision = precision, device = backend, input = o.input,
    warmup = warmup, iters = iters, data = data, classes = o.classes,
    memory_format = cl == nil and nil or (cl and "channels_last" or "contiguous"), lr = c.number("lr"),
    momentum = c.number("momentum"), weight_decay = c.number("weight_decay"),
    grad_accum = c.integer("grad_accum_steps", 1), deterministic = c.bool("deterministic"),
    cudnn_benchmark = c.bool("cudnn_benchmark"), imported = "seed kit"}
  local result = {ok = true, images_per_s = ips, seconds = elapsed, iters = iters, iter_s = {mean = elapsed / iters},
    device = backend, precision = precision, input = o.input, data = data, memory_format = config.memory_format,
    imported = {from = "seed kit", file = path, line = rec.line, label = c.raw("label"),
      timestamp = c.number("timestamp"), images_processed = c.number("images_processed")}}
  for _, k in ipairs({"lr", "momentum", "weight_decay", "grad_accum", "deterministic", "cudnn_benchmark"}) do
    result[k] = config[k]
  end
  return {config = config, result = result, label = c.raw("label"), host = c.raw("hostname"),
    device_name = c.raw("device_name"), torch = c.raw("torch_version"), where = c.where, line = rec.line,
    timestamp = result.imported.timestamp}
end

-- Streams DIR/logs/metrics.csv: calls each(row) for every row, checked (M.REQUIRED columns, types,
-- bounds, one machine: every row's hostname the first row's). Returns the number of rows and the
-- header.
local function each_row(dir, o, each)
  local path = dir .. "/logs/metrics.csv"
  local opened, reader = pcall(rlx.csv.reader, path, {what = "the kit's metrics.csv", max_bytes = M.MAX_METRICS_BYTES})
  if not opened then errors.raise(FN, errors.message(errors.pass_exits(reader))) end
  local function next_record()
    local ok, rec = pcall(reader.next, reader)
    if not ok then
      reader:close()
      errors.raise(FN, errors.message(errors.pass_exits(rec)))
    end
    return rec
  end
  local head = next_record()
  if not head then
    reader:close()
    errors.raise(FN, path .. ": empty; run code/run_train.py (it appends a row per run)")
  end
  local header = {n = #head.fields}
  for k, name in ipairs(head.fields) do header[name:match("^%s*(.-)%s*$")] = k end
  for _, name in ipairs(M.REQUIRED) do
    if not header[name] then
      reader:close()
      fail(string.format("%s:1:1", path), string.format("the header has no column '%s' (it needs %s): is this the " ..
        "kit's logs/metrics.csv?", name, table.concat(M.REQUIRED, ", ")))
    end
  end
  local n, first = 0, nil
  for rec in next_record do
    n = n + 1
    if n > M.MAX_ROWS then
      reader:close()
      fail(string.format("%s:%d:1", path, rec.line), string.format("more than %d rows, the most rlx imports from one " ..
        "kit (each row is a timed run; a study of the seed's matrix has a few hundred): split the file", M.MAX_ROWS))
    end
    local row = row_of(path, header, rec, o)
    if first and row.host ~= first.host then
      reader:close()
      fail(row.where("hostname"), string.format("hostname '%s' differs from line %d's '%s': a kit folder holds one " ..
        "machine's runs; import each machine's metrics.csv from its own folder", tostring(row.host), first.line,
        tostring(first.host)))
    end
    first = first or row
    each(row)
  end
  reader:close()
  if n == 0 then errors.raise(FN, path .. ": no runs below the header") end
  return n, header
end

--- Reads DIR/logs/metrics.csv: {rows, header} with every row checked (M.REQUIRED columns, types,
--- bounds, one machine: every row's hostname the same).
function M.read_metrics(dir, o)
  local rows = {}
  local _, header = each_row(dir, o, function(row) rows[#rows + 1] = row end)
  return rows, header
end

-- env_info.md keys the kit asks for (seed 000 §12): a word of the key (lower case; "Host" is no
-- "os"), the first that the key has wins.
local ENV_KEYS = {{"kernel", "kernel"}, {"os", "os"}, {"macos", "os"}, {"python", "python"}, {"cudnn", "cudnn"},
  {"driver", "gpu_driver"}, {"cuda", "cuda"}, {"pytorch", "torch"}, {"torch", "torch"}, {"gpu", "gpu_name"},
  {"cpu", "cpu_model"}, {"memory", "memory"}, {"ram", "memory"}, {"zone", "cloud_zone"}, {"region", "cloud_zone"},
  {"storage", "storage"}, {"disk", "storage"}, {"network", "network"}, {"container", "container"},
  {"image", "container"}, {"instance", "instance_type"}, {"host", "host"}, {"hostname", "host"}}

--- Reads env_info.md's "| key | value |" rows and "- key: value" / "key: value" lines into
--- {field = value}: the text is the student's, so what is not recognised is kept whole (the
--- report shows the file's path), never an error. Returns fields, the title (a "# ..." line).
function M.read_env_info(text)
  local fields, title = {}, nil
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do
    title = title or line:match("^#%s+(.-)%s*$")
    local k, v = line:match("^%s*|%s*([^|]-)%s*|%s*([^|]-)%s*|%s*$")
    if not k then k, v = line:match("^%s*[-*]?%s*%**([%w%s/()]-)%**%s*:%s*(.-)%s*$") end
    if k and v and v ~= "" and not k:match("^%-+$") then
      local words = {}
      for w in k:lower():gmatch("%a+") do words[w] = true end
      for _, m in ipairs(ENV_KEYS) do
        if words[m[1]] then
          if fields[m[2]] == nil then fields[m[2]] = v end
          break
        end
      end
    end
  end
  return fields, title
end

-- What the environment needs from every row, gathered as the rows stream by: the first row (host,
-- torch), the GPU name of the first non-CPU row, and "rtx4090" from labels
-- "rtx4090_resnet50_fp32_bs128_run1" (seed 000's {env}_{model}_... labels): the environment every
-- labelled row names, else nil (env = false once a row breaks it).
local function new_summary() return {first = nil, env = nil, gpu_name = nil} end

local function summarize(s, r)
  s.first = s.first or r
  if r.config.device ~= "cpu" and r.device_name then s.gpu_name = s.gpu_name or r.device_name end
  if s.env == false then return end
  local e = r.label and r.label:match("^(.-)_" .. r.config.model:gsub("%p", "%%%0") .. "_")
  if not e or e == "" or (s.env and e ~= s.env) then s.env = false else s.env = e end
end

-- The environment record of the kit's machine: what env_info.md says, the rows' host, device and
-- torch, marked imported.
local function environment(dir, summary, o)
  local info_path = dir .. "/logs/env_info.md"
  local text = read_file(info_path, "the kit's env_info.md", M.MAX_ENV_INFO_BYTES, false)
  local fields, title = {}, nil
  if text then fields, title = M.read_env_info(text) end
  local first = summary.first
  local env = {label = o.env or summary.env or (title and title:match("^Environment:%s*(%S+)$")) or
    first.host or "kit"}
  for k, v in pairs(fields) do env[k] = v end
  env.host = first.host or env.host
  env.torch = first.torch or env.torch
  env.gpu_name = env.gpu_name or summary.gpu_name
  env.imported = {from = "seed kit", dir = dir, env_info = text and info_path or nil,
    note = "measured by the seed's code/run_train.py, not by rlx: no per-iteration times, noise floor, " ..
      "steady-state verdict or peaks"}
  env.env_info_md = text
  env.id = rlx.env.id(env)
  return env
end

-- Labels, a row at a time: given ones must be unique; missing ones follow rlx's
-- {env}_{model}_{precision}_bs{batch}_run{N}, N the row's repeat of its configuration in file order.
local function labeller(env)
  local seen, repeats = {}, {}
  return function(r)
    local k = table.concat({r.config.model, r.config.precision, r.config.batch, r.config.device}, "|")
    repeats[k] = (repeats[k] or 0) + 1
    r.run = repeats[k]
    r.label = r.label or string.format("%s_%s_%s_bs%d_run%d", env.label, r.config.model, r.config.precision,
      r.config.batch, r.run)
    if seen[r.label] then
      fail(r.where("label"), string.format("label '%s' is also on line %d: labels name runs (and ncu CSVs); make " ..
        "them unique", r.label, seen[r.label]))
    end
    seen[r.label] = r.line
  end
end

-- The ncu CSVs of logs/ncu by label (the file's name): every entry that is not a folder, so a
-- FIFO or a link to a device is refused by name when it is read, not skipped.
local function ncu_files(dir)
  local folder = dir .. "/logs/ncu"
  local ok, names = pcall(rlx.fs.list, folder, {suffix = ".csv", missing_ok = true, not_only_regular = true})
  if not ok then errors.raise(FN, errors.message(errors.pass_exits(names))) end
  local by_label = {}
  for _, name in ipairs(names) do by_label[(name:gsub("%.csv$", ""))] = folder .. "/" .. name end
  return by_label
end

-- Attaches the ncu CSV of row r's label, if there is one; returns its path.
local function attach_ncu(files, r)
  local path = files[r.label]
  if not path then return nil end
  local ok, s = pcall(rlx.counters.import_ncu, path)
  if not ok then errors.raise(FN, errors.message(errors.pass_exits(s))) end
  -- The kit's analysis/roofline.py divides a CSV's FLOPs by its run's measured loop (elapsed_sec):
  -- the CSV is taken to cover the measured_iters timed iterations, as there.
  local c = rlx.counters._from_ncu(s, r.config.iters)
  c.file = path
  r.result.counters = c
  return path
end

-- Every ncu CSV must belong to a row: one whose label no row has is an error naming it.
local function check_ncu_used(files, used)
  local labels = {}
  for label in pairs(files) do labels[#labels + 1] = label end
  table.sort(labels)
  for _, label in ipairs(labels) do
    if not used[label] then
      errors.raise(FN, string.format("%s: no row of logs/metrics.csv has the label '%s' (the kit names each ncu " ..
        "CSV after its run's --label): rename the file or add its run's row", files[label], label))
    end
  end
end

-- The first pass: every row checked, and the environment built from what they say.
local function read_environment(dir, o)
  local summary = new_summary()
  local n = each_row(dir, o, function(r) summarize(summary, r) end)
  return environment(dir, summary, o), n
end

local IMPORT_SPEC = {
  dir = {type = "string", required = true}, db = {type = "string", required = true},
  study = {type = "string", default = "p1-roofline"}, env = {type = "string"},
  input = {type = "integer", min = 8, default = 224}, classes = {type = "integer", min = 2, default = 1000},
  synthetic = {type = "boolean", default = false}, create = {type = "boolean", default = false},
}

--- Reads and checks a kit folder without writing anything: {env, rows, ncu = {paths}}.
function M.read(opts)
  local o = options.check("rlx.kit.read", opts, {dir = IMPORT_SPEC.dir, env = IMPORT_SPEC.env,
    input = IMPORT_SPEC.input, classes = IMPORT_SPEC.classes, synthetic = IMPORT_SPEC.synthetic})
  local dir = o.dir:gsub("/+$", "")
  local env = read_environment(dir, o)
  local files, used, ncu = ncu_files(dir), {}, {}
  local label = labeller(env)
  local rows = M.read_metrics(dir, o)
  for _, r in ipairs(rows) do
    label(r)
    local path = attach_ncu(files, r)
    if path then used[r.label], ncu[#ncu + 1] = true, path end
  end
  check_ncu_used(files, used)
  table.sort(ncu)
  return {env = env, rows = rows, ncu = ncu}
end

-- The analytic complexity of a row's configuration and its estimated roofline point (no peaks: an
-- imported machine has none measured, and only a datasheet GPU gets a roof).
local function complexity_of(row, cache)
  local c = row.config
  local key = table.concat({c.model, c.batch, c.input, c.classes, c.precision}, "|")
  if cache[key] == nil then
    local ok, s = pcall(rlx.model.summary, {model = c.model, batch = c.batch, input = c.input, classes = c.classes,
      precision = c.precision == "fp16" and "amp" or c.precision, layers = false})
    errors.pass_exits(s)
    cache[key] = ok and s or false
  end
  return cache[key] or nil
end

local function iso(t)
  return type(t) == "number" and os.date("!%Y-%m-%dT%H:%M:%SZ", math.floor(t)) or nil
end

-- The datasheet peaks of the kit's GPU (its runs on cuda get a roof), looked up once.
local function datasheet_of(env)
  if not env.gpu_name then return nil end
  local found, entry = pcall(rlx.peaks.datasheet, env.gpu_name)
  return found and entry or nil
end

-- Stores one row in the staging database.
local function put_row(db, env, r, o, cache, sheet)
  local complexity = complexity_of(r, cache)
  local points = rlx.roofline.for_run(r.result, {complexity = complexity,
    peaks = r.config.device == "cuda" and sheet or nil})
  local finished = iso(r.timestamp)
  db:put_run{study = o.study, environment_id = env.id, label = r.label, run = r.run, config = r.config,
    result = r.result, complexity = complexity, roofline = points, join = true,
    id = rlx.db.hash({env.id, r.label, r.config}):sub(1, 32),
    columns = {started_at = iso(r.timestamp and (r.timestamp - r.result.seconds)) or finished,
      finished_at = finished, host = r.host}}
end

-- The second pass: every row streamed into a new database at path (the staging file merge_from
-- reads), in one transaction. Returns the ncu CSVs attached.
local function stage(path, dir, env, o)
  local files, used, ncu = ncu_files(dir), {}, {}
  local db = rlx.db.open(path)
  local ok, err = pcall(function()
    db:put_environment(env)
    db:put_study(o.study)
    db:begin()
    local cache, sheet, label = {}, datasheet_of(env), labeller(env)
    each_row(dir, o, function(r)
      label(r)
      local csv = attach_ncu(files, r)
      if csv then used[r.label], ncu[#ncu + 1] = true, csv end
      put_row(db, env, r, o, cache, sheet)
    end)
    check_ncu_used(files, used)
    db:commit()
  end)
  if not ok and db:in_transaction() then pcall(db.rollback, db) end
  db:close()
  if not ok then error(errors.pass_exits(err), 0) end  -- as raised: the kit's own, or the store's
  table.sort(ncu)
  return ncu
end

-- SQLite's words for the result codes of a full or failing disk (sqlite3_errstr's).
local DISK_CODES = {SQLITE_FULL = "database or disk is full", SQLITE_IOERR = "disk I/O error"}

-- What a failure to write the import's temporary database beside db says: the store's message,
-- and plainly when SQLite's code says a full or failing disk (as rlx merge says it).
local function storage_failure(db, err)
  local message = errors.message(err)
  -- SQLite's own words for its code, not the store step that met it: the user's problem is the
  -- disk, not a schema or a file name of the import's.
  local full = type(err) == "table" and DISK_CODES[err.code]
  return string.format("%s: nothing was changed in '%s'%s", full and string.format("the disk that holds '%s' " ..
    "is full (or failing): the import writes a temporary copy of the kit's runs beside it (SQLite: %s)", db, full) or
    string.format("cannot write the import's temporary database beside '%s' (%s)", db, message), db,
    full and "; free some space on it and import again" or "")
end

--- Imports a kit folder into a study database (see the top of this file): {dir=, db=, study= (default
--- p1-roofline), env= (the environment's label), input= (224), classes= (1000), synthetic=,
--- create= (false: db must exist)}. Returns {env = label, env_id, runs, ncu, merged = conn:merge_from's
--- counts}.
function M.import(opts)
  local o = options.check(FN, opts, IMPORT_SPEC)
  local dir = o.dir:gsub("/+$", "")
  -- A typo in --db must not make a new database (as import-ncu refuses a missing one).
  local present, size = pcall(rlx.fs.check_file, o.db, {what = "the database", missing_ok = true})
  if not present then errors.raise(FN, errors.message(errors.pass_exits(size))) end
  if size == nil and not o.create then
    errors.raise(FN, string.format("no database at '%s' (check the path; to start a new one there, add " ..
      "--create, or create = true)", o.db))
  end
  local env, n = read_environment(dir, o)
  local usable, why = pcall(rlx.fs.check_output, o.db, "database")
  if not usable then errors.raise(FN, errors.message(errors.pass_exits(why))) end
  local staging = o.db .. ".import-kit.tmp"
  for _, suffix in ipairs({"", "-journal", "-wal", "-shm"}) do os.remove(staging .. suffix) end
  local staged, ncu = pcall(stage, staging, dir, env, o)
  local merged, stats = false, nil
  if staged then
    merged, stats = pcall(function()
      local db = rlx.db.open(o.db, {create = o.create})
      local done, s = pcall(db.merge_from, db, staging)
      db:close()
      if not done then error(s, 0) end
      return s
    end)
  end
  for _, suffix in ipairs({"", "-journal", "-wal", "-shm"}) do os.remove(staging .. suffix) end
  if not staged then
    errors.pass_exits(ncu)
    -- The kit's own refusals (a bad ncu CSV) as they are; a store's failure said with what it means.
    if type(ncu) == "table" and ncu.fn == FN then errors.raise(FN, errors.message(ncu)) end
    errors.raise(FN, storage_failure(o.db, ncu))
  end
  -- The merge is one transaction: a failed one left the database as it was.
  if not merged then
    errors.pass_exits(stats)
    errors.raise(FN, string.format("%s; nothing was changed in '%s'", errors.message(stats), o.db))
  end
  return {env = env.label, env_id = env.id, runs = n, ncu = ncu, merged = stats}
end

return M
