-- rlx.seed_layout: a study database as the files of seed 000's kit (rlx export DB --layout seed),
-- so a student's analysis/roofline.py, plot_roofline.py or notebook reads rlx's results unchanged.
-- Every file and column is documented against the seed in docs/export-seed.md.
--
--   local files = rlx.seed_layout.files(D)          -- D: rlx.studydb.data.load(db, study, path)
--   rlx.seed_layout.write(db, {out = "kit", study = "p1-roofline", path = "results/p1.db"})
--
-- Everything is read through rlx.studydb.data (the store's reads); nothing here touches SQL.
local options = require("rlx.options")
local data = require("rlx.studydb.data")
local compute = require("rlx.report.compute")
local csv = require("rlx.csv")

local M = {}

-- The seven files, in the order they are written.
M.FILES = {"logs/metrics.csv", "logs/model_summaries/summary.json", "analysis/peaks.json",
  "analysis/roofline_points.csv", "code/metric_names_ncu.txt", "logs/env_info.md", "logs/requirements.txt"}

-- The header code/run_train.py of seed 000's kit writes to logs/metrics.csv (and its
-- analysis/roofline.py reads: batch_size, warmup_iters, measured_iters, elapsed_sec, images_per_sec,
-- label, backend, arch, precision, device_name). `rlx train --log-dir` appends with it too.
M.METRICS_COLUMNS = {"timestamp", "hostname", "arch", "backend", "device_name", "batch_size", "warmup_iters",
  "measured_iters", "precision", "lr", "momentum", "weight_decay", "elapsed_sec", "images_per_sec",
  "images_processed", "data_root", "label", "torch_version", "channels_last", "grad_accum_steps", "deterministic",
  "cudnn_benchmark"}

-- The kit's analysis/roofline_points.csv columns, then rlx's: where the point comes from and the
-- roofline placement the kit's plot_roofline.py draws without writing down.
M.POINT_COLUMNS = {"label", "env", "arch", "backend", "batch_size", "precision", "elapsed_sec", "images_per_sec", "ai",
  "attained_gflops", "peak_gflops", "peak_gbps", "level", "flops_per_iter", "bytes_per_iter", "iter_s", "ridge_ai",
  "attainable_gflops", "bound", "source", "counters_source"}

-- Python's csv module writes a bool as True/False: the kit's rows do.
local function py_bool(v)
  if v == nil then return nil end
  return v and "True" or "False"
end

-- Seconds since 1970-01-01T00:00:00Z of a "YYYY-MM-DDTHH:MM:SSZ" text (the store's times), or nil:
-- the kit's timestamp is int(time.time()). Days from the civil date (H. Hinnant's algorithm).
function M.unix_seconds(iso)
  local y, mo, d, h, mi, s = tostring(iso or ""):match("^(%d%d%d%d)%-(%d%d)%-(%d%d)T(%d%d):(%d%d):(%d%d)")
  if not y then return nil end
  y, mo, d = tonumber(y), tonumber(mo), tonumber(d)
  if mo <= 2 then y = y - 1 end
  local era = math.floor(y / 400)
  local yoe = y - era * 400
  local doy = math.floor((153 * (mo > 2 and mo - 3 or mo + 9) + 2) / 5) + d - 1
  local doe = yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy
  local days = era * 146097 + doe - 719468
  return days * 86400 + tonumber(h) * 3600 + tonumber(mi) * 60 + tonumber(s)
end

--- One logs/metrics.csv row (values in M.METRICS_COLUMNS' order) from the fields of a run: a
--- result of rlx.train (with `timestamp`, `hostname`, `device_name` and `torch_version` added by the
--- caller) or a stored run (rlx.studydb.data's rows). rlx counts one batch per iteration, so
--- images_processed = batch x iters; its grad_accum steps the optimizer every N of them.
function M.metrics_values(f)
  local memory_format = f.memory_format
  local v = {timestamp = f.timestamp, hostname = f.hostname, arch = f.model, backend = f.backend,
    device_name = f.device_name, batch_size = f.batch, warmup_iters = f.warmup, measured_iters = f.iters,
    precision = f.precision, lr = f.lr, momentum = f.momentum, weight_decay = f.weight_decay, elapsed_sec = f.seconds,
    images_per_sec = f.images_per_s,
    images_processed = (type(f.batch) == "number" and type(f.iters) == "number") and f.batch * f.iters or nil,
    data_root = f.data, label = f.label, torch_version = f.torch_version,
    channels_last = memory_format ~= nil and py_bool(memory_format == "channels_last") or nil,
    grad_accum_steps = f.grad_accum, deterministic = py_bool(f.deterministic),
    cudnn_benchmark = py_bool(f.cudnn_benchmark)}
  local out = {}
  for i, name in ipairs(M.METRICS_COLUMNS) do out[i] = v[name] end
  return out, v
end

-- The kit's device_name: torch.cuda.get_device_name() on CUDA, the GPU's name (as imported) on an
-- Apple GPU, "CPU" on the CPU.
local function device_name(kind, gpu_name)
  if kind == "cuda" then return gpu_name or "CUDA" end
  if kind == "mps" then return gpu_name or "MPS" end
  return "CPU"
end
M.device_name = device_name

local function result_of(r) return type(r.result) == "table" and r.result or {} end

--- The metrics.csv fields of a stored run (a row of rlx.studydb.data or study._query_runs).
function M.run_fields(r)
  local res = result_of(r)
  local kind = data.kind_of(r.device)
  return {timestamp = M.unix_seconds(r.finished_at), hostname = r.host, model = r.model, backend = kind,
    device_name = device_name(kind, r.gpu_name), batch = r.batch, warmup = r.warmup, iters = r.iters,
    precision = r.precision, lr = res.lr, momentum = res.momentum, weight_decay = res.weight_decay,
    seconds = r.seconds, images_per_s = r.images_per_s, data = res.data, label = r.label, torch_version = r.torch,
    memory_format = r.memory_format or res.memory_format, grad_accum = res.grad_accum,
    deterministic = res.deterministic, cudnn_benchmark = res.cudnn_benchmark}
end

-- logs/metrics.csv: one row per successful run, the kit's columns (which `rlx train --log-dir`
-- appends too, so a later `rlx train --log-dir logs` adds rows to the exported file).
function M.metrics_csv(D)
  local rows = {}
  for _, r in ipairs(D.ok) do rows[#rows + 1] = (M.metrics_values(M.run_fields(r))) end
  return csv.text(M.METRICS_COLUMNS, rows)
end

local function config_of(r) return type(r.config) == "table" and r.config or {} end

-- The summary key of a model: its name, or name@input when the database has it at several sizes.
local function model_keys(D)
  local inputs = {}
  for _, r in ipairs(D.ok) do
    local c = D.complexity[r.id]
    if c then
      inputs[r.model] = inputs[r.model] or {}
      inputs[r.model][c.input or config_of(r).input or 224] = true
    end
  end
  return function(model, input)
    local n = 0
    for _ in pairs(inputs[model] or {}) do n = n + 1 end
    return n > 1 and string.format("%s@%d", model, input) or model
  end
end

-- JSON null for a roof rlx does not know (rlx.json leaves nil fields out; rlx.json.null is null),
-- so peaks.json says null where the seed expects the student's number.
local NULL = rlx.json.null
local function encode(value) return rlx.json.encode(value, 2) .. "\n" end

local function mib(bytes) return type(bytes) == "number" and bytes / 2 ^ 20 or nil end

-- logs/model_summaries/summary.json as the kit's scripts/model_complexity.py writes it: per model,
-- per batch size (a string key), {params, mult_adds_per_batch_forward, mult_adds_per_sample_forward}
-- (torchinfo's forward multiply-adds), plus flops_per_batch_forward, which the kit's roofline.py
-- prefers (x TRAIN_FACTOR), and rlx's training figures per precision.
function M.summary(D)
  local key_of, out = model_keys(D), {}
  for _, r in ipairs(D.ok) do
    local c = D.complexity[r.id]
    if c and type(c.forward_macs) == "number" then
      local input = c.input or config_of(r).input or 224
      local key = key_of(r.model, input)
      out[key] = out[key] or {}
      local b = tostring(r.batch)
      local e = out[key][b]
      if not e then
        e = {params = c.params, mult_adds_per_sample_forward = c.forward_macs,
          mult_adds_per_batch_forward = c.forward_macs * r.batch, flops_per_sample_forward = c.forward_flops,
          flops_per_batch_forward = c.forward_flops * r.batch, model = r.model, batch_size = r.batch,
          input_size = {c.channels or 3, input, input}, classes = c.classes or config_of(r).classes, training = {}}
        out[key][b] = e
      end
      e.training[r.precision or "fp32"] = {train_flops_per_iteration = c.train_flops, bytes_per_iteration = c.bytes,
        activation_bytes = c.activation_bytes, training_memory_bytes = c.memory_bytes,
        training_memory_mib = mib(c.memory_bytes)}
    end
  end
  return out
end

-- The roofs a run is judged against, as peaks.json holds them, or nil: the report's own
-- (rlx.report.compute.roofs_of: stored peaks, the GPU's datasheet supplying the arithmetic peaks a
-- stored GEMM-only table lacks, rlx's roof policy for the precision its point was judged as), so
-- the export and §5 and Table 2 judge a run against one roof (issue 32).
local function roofs(D, run)
  local point = data.point_of(D, run)
  local judged = point and point.precision ~= "" and point.precision or run.precision
  local R = compute.roofs_of(D, run, judged)
  if not R then return nil end
  local pf = R.roof and R.roof.gflops * 1e9 or nil
  local pb = R.peak_bw
  local origin = (R.roof and R.roof.origin == "datasheet") and "datasheet" or R.origin
  return {peak_flops = pf, peak_bw = pb, peak_gflops = pf and pf / 1e9, peak_gbps = pb and pb / 1e9,
    ridge_ai = (pf and pb) and rlx.roofline.ridge(pf, pb) or nil, compute_field = R.compute_field,
    memory_field = R.memory_field, source = origin, device = run.kind,
    measured_at = origin == "stored" and R.peaks.measured_at or nil}
end

-- analysis/peaks.json as the kit's roofline.py reads it: per environment key (the first field of
-- the run labels), peak_gflops and peak_gbps per precision ({"fp32": 19500, "amp": ...}); a roof
-- rlx does not know is null (the kit's script skips those rows: fill it in, citing the datasheet).
-- rlx adds ridge_ai and the peaks fields per precision, and where the roofs came from.
function M.peaks(D)
  local out = {}
  for _, r in ipairs(D.ok) do
    local e = out[r.env_key]
    if not e then
      e = {peak_gflops = {}, peak_gbps = {}, ridge_ai = {}, compute_field = {}, memory_field = {}}
      out[r.env_key] = e
    end
    local p = r.precision or "fp32"
    if e.peak_gflops[p] == nil then
      local roof = roofs(D, r) or {}
      e.peak_gflops[p] = roof.peak_gflops or NULL
      e.peak_gbps[p] = roof.peak_gbps or NULL
      e.ridge_ai[p] = roof.ridge_ai or NULL
      e.compute_field[p], e.memory_field[p] = roof.compute_field, roof.memory_field
      e.device, e.source, e.measured_at = r.kind, e.source or roof.source, e.measured_at or roof.measured_at
    end
  end
  return out
end

-- analysis/roofline_points.csv: one row per successful run with a DRAM point (measured preferred
-- over estimated), against the roofs of peaks.json: the kit's columns (elapsed_sec over the timed
-- iterations, attained = FLOPs / time), then rlx's (per-iteration FLOPs, bytes and seconds).
function M.points_csv(D)
  local rows = {}
  for _, r in ipairs(D.ok) do
    local p = data.point_of(D, r)
    if p then
      local roof = roofs(D, r) or {}
      -- Placed by rlx.roofline.place (engine/peaks/roofline.cpp), as the report's rows are.
      local placed = (roof.peak_flops and roof.peak_bw and p.ai and p.gflops) and rlx.roofline.place{ai = p.ai,
        flops_per_s = p.gflops * 1e9, peak_flops = roof.peak_flops, peak_bw = roof.peak_bw} or {}
      local attainable, bound = placed.attainable_gflops, placed.bound
      rows[#rows + 1] = {r.label, r.env_key, r.model, r.kind, r.batch, r.precision, r.seconds, r.images_per_s, p.ai,
        p.gflops, roof.peak_gflops, roof.peak_gbps, p.level, p.flops, p.bytes, p.seconds, roof.ridge_ai, attainable,
        bound, p.source, p.counters_source}
    end
  end
  return csv.text(M.POINT_COLUMNS, rows)
end

-- logs/env_info.md: rlx.env.markdown of every environment, one after the other.
function M.env_info(D)
  local parts = {}
  for _, e in ipairs(D.envs) do parts[#parts + 1] = rlx.env.markdown(e.info) end
  if #parts == 0 then return "# Environments\n\nNo runs: no environment recorded.\n" end
  return table.concat(parts, "\n---\n\n")
end

local function version_line(name, version, comment)
  if version == nil or version == "" then return nil end
  return string.format("%s==%s%s", name, tostring(version), comment and ("  # " .. comment) or "")
end

-- logs/requirements.txt: the software each environment ran with, as rlx recorded it.
function M.requirements(D)
  local lines = {"# Software rlx ran with, per environment, as recorded when each environment first ran",
    "# (rlx export --layout seed). rlx is one C++ binary that embeds LuaJIT and links LibTorch: no",
    "# Python package was used, so this is a snapshot to cite, not a file for pip install."}
  for _, e in ipairs(D.envs) do
    local i = e.info
    lines[#lines + 1] = ""
    lines[#lines + 1] = string.format("# environment %s (id %s), first seen %s; %s, kernel %s", e.label, e.id,
      tostring(e.first_seen), tostring(i.os or "?"), tostring(i.kernel or "?"))
    local gpu = i.torch_cuda or #(i.gpus or {}) > 0
    local entries = {version_line("rlx", i.rlx, i.build_type and (i.build_type .. " build")),
      version_line("libtorch", i.torch, i.torch_cuda and "with CUDA" or "CPU only"),
      version_line("luajit", i.luajit and tostring(i.luajit):gsub("^LuaJIT ", "")), version_line("sqlite", i.sqlite),
      version_line("cuda-runtime", i.cuda_build, gpu and "the CUDA rlx was built with" or
        "the CUDA rlx was compiled against (CUPTI); unused: no GPU, CPU-only LibTorch"),
      version_line("cuda-toolkit", i.cuda, gpu and "installed" or "installed, unused"), version_line("cudnn", i.cudnn),
      version_line("nvidia-driver", i.gpu_driver)}
    for k = 1, 8 do if entries[k] then lines[#lines + 1] = entries[k] end end
    if i.compiler then lines[#lines + 1] = "# compiler: " .. tostring(i.compiler) end
    if type(i.process_tuning) == "table" and #i.process_tuning > 0 then
      lines[#lines + 1] = "# process settings: " .. table.concat(i.process_tuning, "; ")
    end
  end
  return table.concat(lines, "\n") .. "\n"
end

--- The files of the seed's layout for loaded data D: {{path = "logs/metrics.csv", text = ...}, ...}.
function M.files(D)
  local texts = {M.metrics_csv(D), encode(M.summary(D)), encode(M.peaks(D)),
    M.points_csv(D), rlx.counters.seed_metric_line() .. "\n", M.env_info(D), M.requirements(D)}
  local out = {}
  for i, path in ipairs(M.FILES) do out[i] = {path = path, text = texts[i]} end
  return out
end

-- Refuses (before anything is written) an output that is a SQLite database, or the input.
-- Each file's folder checked (create = false: nothing made) or, with create, made.
local function check_folders(out, files, create)
  for _, f in ipairs(files) do
    local path = out .. "/" .. f.path
    local usable, err = pcall(rlx.fs.check_output, path:match("^(.*)/[^/]*$"), "folder", {create = create})
    if not usable then
      rlx.errors.raise("rlx.seed_layout.write", rlx.errors.message(rlx.errors.pass_exits(err)))
    end
  end
end

local function check_targets(out, files, inputs)
  -- Every folder refused now, before anything is made or written (logs/ being a file used to fail
  -- half-way, in rlx.plot.mkdir's words); made only once every target passed.
  check_folders(out, files, false)
  for _, f in ipairs(files) do
    local path = out .. "/" .. f.path
    if rlx.fs.is_sqlite(path) then  -- reads only a regular file (a FIFO there is not waited on)
      rlx.errors.raise("rlx.seed_layout.write", string.format("'%s' is a SQLite database; refusing to overwrite it " ..
        "(choose another output folder)", path))
    end
    for _, input in ipairs(inputs) do
      if rlx.fs.same_file(path, input) then
        rlx.errors.raise("rlx.seed_layout.write", string.format("'%s' is the input '%s'; choose another output folder",
          path, input))
      end
    end
  end
end

-- The record of what an export wrote (issue 56 item 5): OUT/.rlx-export, JSON {files = {path =
-- content hash}}, written after the files. A file there that it does not list with its present
-- content was not written by rlx (the kit's own logs/metrics.csv, an edited one) and is kept.
M.MANIFEST = ".rlx-export"

local function content_hash(text) return rlx.db.hash(text) end

-- The manifest's {path = hash}, or {} when there is none or it cannot be read as one.
local function written_before(out)
  local ok, text = pcall(rlx.fs.read, out .. "/" .. M.MANIFEST, {missing_ok = true, max_bytes = 1048576})
  if not ok or not text then return {} end
  local parsed, m = pcall(rlx.json.decode, text)
  if not parsed or type(m) ~= "table" or type(m.files) ~= "table" then return {} end
  return m.files
end

--- The files of the layout under folder `out` that rlx did not write (present, and not in the
--- manifest of an earlier export with the same content): their paths, sorted. Overwriting them
--- would lose data; rlx export refuses them unless --force (seed_layout.write's force).
function M._foreign_files(out)
  local before, foreign = written_before(out), {}
  for _, rel in ipairs(M.FILES) do
    local path = out .. "/" .. rel
    -- Only regular files hold data to lose; anything else there (a folder, a FIFO), and a SQLite
    -- database, is refused by the write's own checks in their words (check_targets).
    local regular, size = pcall(rlx.fs.check_file, path, {missing_ok = true})
    if regular and size and not rlx.fs.is_sqlite(path) then
      local ok, text = pcall(rlx.fs.read, path, {max_bytes = math.max(size, 1)})
      if not ok or before[rel] ~= content_hash(text) then foreign[#foreign + 1] = path end
    end
  end
  return foreign
end

--- The refusal for foreign files (M._foreign_files): one line naming them and the two ways on.
function M._foreign_message(out, foreign)
  return string.format("%s already holds %d file(s) that rlx did not write: %s; writing seed 000's layout " ..
    "would replace them: choose an empty folder for --out, move them away, or add --force to replace them",
    out, #foreign, table.concat(foreign, ", "))
end

--- Writes the seven files under opts.out (folders made as needed), each atomically (temporary file
--- and rename). opts: out (required), study (nil: every study), path (the database's path, never
--- overwritten). Returns {files = {paths}, runs = number of ok runs, points = rows of the points CSV}.
function M.write(db, opts)
  local o = options.check("rlx.seed_layout.write", opts, {out = {type = "string", required = true},
    study = {type = "string"}, path = {type = "string"}, force = {type = "boolean", default = false}})
  local D = data.load(db, o.study, o.path)
  local files = M.files(D)
  local inputs = o.path and {o.path} or {}
  check_targets(o.out, files, inputs)
  if not o.force then
    local foreign = M._foreign_files(o.out)
    if #foreign > 0 then rlx.errors.raise("rlx.seed_layout.write", M._foreign_message(o.out, foreign)) end
  end
  check_folders(o.out, files, true)
  local written, record = {}, {}
  for _, f in ipairs(files) do
    local path = o.out .. "/" .. f.path
    local ok, err = pcall(rlx.fs.write_atomic, path, f.text, {not_same_as = inputs})
    if not ok then rlx.errors.raise("rlx.seed_layout.write", rlx.errors.message(rlx.errors.pass_exits(err))) end
    written[#written + 1] = path
    record[f.path] = content_hash(f.text)
  end
  local ok, err = pcall(rlx.fs.write_atomic, o.out .. "/" .. M.MANIFEST,
    rlx.json.encode({written_by = "rlx export --layout seed", files = record}, 2) .. "\n")
  if not ok then rlx.errors.raise("rlx.seed_layout.write", rlx.errors.message(rlx.errors.pass_exits(err))) end
  local _, points = files[4].text:gsub("\n", "")
  return {files = written, runs = #D.ok, points = points - 1}
end

return M
