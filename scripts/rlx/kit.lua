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
-- Everything is read and checked before anything is written: a bad value is one error naming the
-- file, line and column and the fix. The runs are built in a temporary database and merged into
-- the target in one transaction (conn:merge_from), so an import is all or nothing and importing
-- the same kit twice adds nothing.
local options = require("rlx.options")
local errors = require("rlx.errors")

local M = {}

local FN = "rlx.kit.import"

-- The columns an import needs (the rest of the kit's header is read when present).
M.REQUIRED = {"arch", "batch_size", "precision", "warmup_iters", "measured_iters", "elapsed_sec", "images_per_sec"}
M.PRECISIONS = {fp32 = true, amp = true, bf16 = true, fp16 = true}
M.BACKENDS = {cpu = true, cuda = true, mps = true}

local function fail(where, msg) errors.raise(FN, where .. ": " .. msg) end

--- Parses CSV text (RFC 4180: quoted fields with "" inside, fields may hold newlines; CRLF or LF).
--- Returns records {{fields = {...}, cols = {column of each field}, line = first line}}; a quote
--- left open or text after a closing quote is an error at its line and column.
function M.parse_csv(text, path)
  local records, i, n, line, col = {}, 1, #text, 1, 1
  while i <= n do
    local rec = {fields = {}, cols = {}, line = line}
    while true do
      local field, start_col = {}, col
      if text:sub(i, i) == '"' then
        local qline, qcol = line, col
        i, col = i + 1, col + 1
        while true do
          if i > n then fail(string.format("%s:%d:%d", path, qline, qcol), "this quoted field is never closed; add " ..
            "the closing \" (a quote inside a field is written \"\")") end
          local c = text:sub(i, i)
          if c == '"' and text:sub(i + 1, i + 1) == '"' then field[#field + 1] = '"'; i, col = i + 2, col + 2
          elseif c == '"' then i, col = i + 1, col + 1; break
          else
            field[#field + 1] = c
            if c == "\n" then line, col = line + 1, 1 else col = col + 1 end
            i = i + 1
          end
        end
        local after = text:sub(i, i)
        if after ~= "," and after ~= "\n" and after ~= "\r" and after ~= "" then
          fail(string.format("%s:%d:%d", path, line, col), "text after a closing quote; quote the whole field")
        end
      else
        local j = i
        while j <= n and not text:sub(j, j):match("[,\r\n]") do j = j + 1 end
        field[1] = text:sub(i, j - 1)
        col = col + (j - i)
        i = j
      end
      rec.fields[#rec.fields + 1] = table.concat(field)
      rec.cols[#rec.cols + 1] = start_col
      local c = text:sub(i, i)
      if c == "," then
        i, col = i + 1, col + 1
      else
        if c == "\r" then i = i + 1 end
        if text:sub(i, i) == "\n" then i = i + 1 end
        line, col = line + 1, 1
        break
      end
    end
    -- A blank line is no record.
    if not (#rec.fields == 1 and rec.fields[1] == "") then records[#records + 1] = rec end
  end
  return records
end

local function read_file(path, required)
  local f, err = io.open(path, "rb")
  if not f then
    if required then errors.raise(FN, "cannot read " .. path .. ": " .. tostring(err)) end
    return nil
  end
  local text = f:read("*a")
  f:close()
  if text == nil and required then errors.raise(FN, "cannot read " .. path .. " (is it a folder?)") end
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
  function r.integer(name, min, required)
    local v = r.raw(name)
    if v == nil then
      if required then fail(r.where(name), name .. " is empty; run_train.py writes a whole number there") end
      return nil
    end
    local x = tonumber(v)
    if not x or x ~= math.floor(x) or x < min then
      fail(r.where(name), string.format("%s '%s' is not a whole number >= %d; correct the row or delete it", name, v, min))
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
    fail(c.where("precision"), string.format("precision '%s' is not one of amp, bf16, fp16, fp32", precision))
  end
  local backend = c.raw("backend") or "cpu"
  if not M.BACKENDS[backend] then
    fail(c.where("backend"), string.format("backend '%s' is not one of cpu, cuda, mps (run_train.py writes the " ..
      "backend it resolved)", backend))
  end
  local batch, iters = c.integer("batch_size", 1, true), c.integer("measured_iters", 1, true)
  local elapsed, ips = c.number("elapsed_sec", true, true), c.number("images_per_sec", true, true)
  local cl = c.bool("channels_last")
  local data = o.synthetic and "synthetic" or c.raw("data_root") or "synthetic"
  local config = {model = arch, batch = batch, precision = precision, device = backend, input = o.input,
    warmup = c.integer("warmup_iters", 0, true), iters = iters, data = data, classes = o.classes,
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

--- Reads DIR/logs/metrics.csv: {rows, header} with every row checked (M.REQUIRED columns, types,
--- one machine: every row's hostname the same).
function M.read_metrics(dir, o)
  local path = dir .. "/logs/metrics.csv"
  local text = read_file(path, true)
  local records = M.parse_csv(text, path)
  if #records == 0 then errors.raise(FN, path .. ": empty; run code/run_train.py (it appends a row per run)") end
  local head = records[1]
  local header = {n = #head.fields}
  for k, name in ipairs(head.fields) do header[name:match("^%s*(.-)%s*$")] = k end
  for _, name in ipairs(M.REQUIRED) do
    if not header[name] then
      fail(string.format("%s:1:1", path), string.format("the header has no column '%s' (it needs %s): is this the " ..
        "kit's logs/metrics.csv?", name, table.concat(M.REQUIRED, ", ")))
    end
  end
  if #records == 1 then errors.raise(FN, path .. ": no runs below the header") end
  local rows = {}
  for k = 2, #records do
    local row = row_of(path, header, records[k], o)
    if rows[1] and row.host ~= rows[1].host then
      fail(row.where("hostname"), string.format("hostname '%s' differs from line %d's '%s': a kit folder holds one " ..
        "machine's runs; import each machine's metrics.csv from its own folder", tostring(row.host), rows[1].line,
        tostring(rows[1].host)))
    end
    rows[#rows + 1] = row
  end
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

-- "rtx4090" from labels "rtx4090_resnet50_fp32_bs128_run1" (seed 000's {env}_{model}_... labels):
-- the environment every labelled row names, else nil.
local function label_env(rows)
  local env
  for _, r in ipairs(rows) do
    local e = r.label and r.label:match("^(.-)_" .. r.config.model:gsub("%p", "%%%0") .. "_")
    if not e or e == "" or (env and e ~= env) then return nil end
    env = e
  end
  return env
end

-- The environment record of the kit's machine: what env_info.md says, the rows' host, device and
-- torch, marked imported.
local function environment(dir, rows, o)
  local info_path = dir .. "/logs/env_info.md"
  local text = read_file(info_path, false)
  local fields, title = {}, nil
  if text then fields, title = M.read_env_info(text) end
  local first = rows[1]
  local env = {label = o.env or label_env(rows) or (title and title:match("^Environment:%s*(%S+)$")) or
    first.host or "kit"}
  for k, v in pairs(fields) do env[k] = v end
  env.host = first.host or env.host
  env.torch = first.torch or env.torch
  for _, r in ipairs(rows) do
    if r.config.device ~= "cpu" and r.device_name then env.gpu_name = env.gpu_name or r.device_name end
  end
  env.imported = {from = "seed kit", dir = dir, env_info = text and info_path or nil,
    note = "measured by the seed's code/run_train.py, not by rlx: no per-iteration times, noise floor, " ..
      "steady-state verdict or peaks"}
  env.env_info_md = text
  env.id = rlx.env.id(env)
  return env
end

-- Labels: given ones must be unique; missing ones follow rlx's {env}_{model}_{precision}_bs{batch}_run{N}.
local function label_rows(rows, env)
  local seen, repeats = {}, {}
  for _, r in ipairs(rows) do
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

-- The ncu CSVs of logs/ncu, each attached to the row of its label (the file's name).
local function attach_ncu(dir, rows)
  local folder = dir .. "/logs/ncu"
  local by_label = {}
  for _, r in ipairs(rows) do by_label[r.label] = r end
  local files = {}
  for _, name in ipairs(rlx.fs.list(folder, {suffix = ".csv", missing_ok = true})) do
    local label = name:gsub("%.csv$", "")
    local path = folder .. "/" .. name
    local r = by_label[label]
    if not r then
      errors.raise(FN, string.format("%s: no row of logs/metrics.csv has the label '%s' (the kit names each ncu " ..
        "CSV after its run's --label): rename the file or add its run's row", path, label))
    end
    local ok, s = pcall(rlx.counters.import_ncu, path)
    if not ok then errors.raise(FN, errors.message(errors.pass_exits(s))) end
    -- The kit's analysis/roofline.py divides a CSV's FLOPs by its run's measured loop (elapsed_sec):
    -- the CSV is taken to cover the measured_iters timed iterations, as there.
    local c = require("rlx.cli.import_ncu").counters_of(s, r.config.iters)
    c.file = path
    r.result.counters = c
    files[#files + 1] = path
  end
  return files
end

local IMPORT_SPEC = {
  dir = {type = "string", required = true}, db = {type = "string", required = true},
  study = {type = "string", default = "p1-roofline"}, env = {type = "string"},
  input = {type = "integer", min = 8, default = 224}, classes = {type = "integer", min = 2, default = 1000},
  synthetic = {type = "boolean", default = false},
}

--- Reads and checks a kit folder without writing anything: {env, rows, ncu = {paths}}.
function M.read(opts)
  local o = options.check("rlx.kit.read", opts, {dir = IMPORT_SPEC.dir, env = IMPORT_SPEC.env,
    input = IMPORT_SPEC.input, classes = IMPORT_SPEC.classes, synthetic = IMPORT_SPEC.synthetic})
  local dir = o.dir:gsub("/+$", "")
  local rows = M.read_metrics(dir, o)
  local env = environment(dir, rows, o)
  label_rows(rows, env)
  local ncu = attach_ncu(dir, rows)
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

-- Writes the kit into a new database at path (the staging file merge_from reads).
local function stage(path, kit, o)
  local db = rlx.db.open(path)
  local ok, err = pcall(function()
    db:put_environment(kit.env)
    db:put_study(o.study)
    local cache = {}
    for _, r in ipairs(kit.rows) do
      local complexity = complexity_of(r, cache)
      local sheet
      if r.config.device == "cuda" and kit.env.gpu_name then
        local found, entry = pcall(rlx.peaks.datasheet, kit.env.gpu_name)
        if found then sheet = entry end
      end
      local points = rlx.roofline.for_run(r.result, {complexity = complexity, peaks = sheet})
      local finished = iso(r.timestamp)
      db:put_run{study = o.study, environment_id = kit.env.id, label = r.label, run = r.run, config = r.config,
        result = r.result, complexity = complexity, roofline = points,
        id = rlx.db.hash({kit.env.id, r.label, r.config}):sub(1, 32),
        columns = {started_at = iso(r.timestamp and (r.timestamp - r.result.seconds)) or finished,
          finished_at = finished, host = r.host}}
    end
  end)
  db:close()
  if not ok then errors.raise(FN, errors.message(errors.pass_exits(err))) end
end

--- Imports a kit folder into a study database (see the top of this file): {dir=, db=, study= (default
--- p1-roofline), env= (the environment's label), input= (224), classes= (1000), synthetic=}.
--- Returns {env = label, env_id, runs, ncu, merged = conn:merge_from's counts}.
function M.import(opts)
  local o = options.check(FN, opts, IMPORT_SPEC)
  local kit = M.read{dir = o.dir, env = o.env, input = o.input, classes = o.classes, synthetic = o.synthetic}
  local usable, why = pcall(rlx.fs.check_output, o.db, "database")
  if not usable then errors.raise(FN, errors.message(errors.pass_exits(why))) end
  local staging = o.db .. ".import-kit.tmp"
  for _, suffix in ipairs({"", "-journal", "-wal", "-shm"}) do os.remove(staging .. suffix) end
  local ok, err = pcall(stage, staging, kit, o)
  local stats
  if ok then
    ok, err = pcall(function()
      local db = rlx.db.open(o.db)
      local done, s = pcall(db.merge_from, db, staging)
      db:close()
      if not done then error(s, 0) end
      stats = s
    end)
  end
  for _, suffix in ipairs({"", "-journal", "-wal", "-shm"}) do os.remove(staging .. suffix) end
  if not ok then errors.raise(FN, errors.message(errors.pass_exits(err))) end
  return {env = kit.env.label, env_id = kit.env.id, runs = #kit.rows, ncu = kit.ncu, merged = stats}
end

return M
