-- rlx.seed_layout: a study database as the files of seed 000's kit (rlx export DB --layout seed),
-- so a student's analysis/roofline.py, plot_roofline.py or notebook reads rlx's results unchanged.
-- Every file and column is documented against the seed in docs/export-seed.md.
--
--   local files = rlx.seed_layout.files(D)          -- D: rlx.results.data.load(db, study, path)
--   rlx.seed_layout.write(db, {out = "kit", study = "p1-roofline", path = "results/p1.db"})
--
-- Everything is read through rlx.results.data (the store's reads); nothing here touches SQL.
local options = require("rlx.options")
local data = require("rlx.results.data")
local compute = require("rlx.report.compute")

local M = {}

-- The seven files, in the order they are written.
M.FILES = {"logs/metrics.csv", "logs/model_summaries/summary.json", "analysis/peaks.json",
  "analysis/roofline_points.csv", "code/metric_names_ncu.txt", "logs/env_info.md", "logs/requirements.txt"}

M.POINT_COLUMNS = {"label", "env", "arch", "precision", "batch_size", "level", "flops", "bytes", "seconds", "ai",
  "attained_gflops", "peak_gflops", "peak_gbps", "ridge_ai", "attainable_gflops", "bound", "source",
  "counters_source"}

local function csv_field(v)
  if v == nil then return "" end
  local s
  if type(v) == "number" then
    s = (v == math.floor(v) and math.abs(v) < 2 ^ 53) and string.format("%d", v) or string.format("%.10g", v)
  else
    s = tostring(v)
  end
  if s:find('[,"\r\n]') then s = '"' .. s:gsub('"', '""') .. '"' end
  return s
end

local function csv(columns, rows)
  local lines = {table.concat(columns, ",")}
  for _, values in ipairs(rows) do
    local cells = {}
    for i = 1, #columns do cells[i] = csv_field(values[i]) end
    lines[#lines + 1] = table.concat(cells, ",")
  end
  return table.concat(lines, "\n") .. "\n"
end

-- logs/metrics.csv: one row per successful run, the columns `rlx train --log-dir` appends, so a
-- later `rlx train --log-dir logs` adds rows to the exported file.
function M.metrics_csv(D)
  local rows = {}
  for _, r in ipairs(D.ok) do
    rows[#rows + 1] = {r.finished_at, r.label, r.host, r.device, r.model, r.precision, r.batch, r.warmup, r.iters,
      r.seconds, r.images_per_s}
  end
  return csv(rlx.train.METRICS_CSV_COLUMNS, rows)
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

-- JSON null for a roof rlx does not know (rlx.json leaves nil fields out): a placeholder string
-- replaced after encoding, so peaks.json says null where the seed expects the student's number.
local NULL = "\1rlx-json-null\1"
local function encode(value) return (rlx.json.encode(value, 2):gsub('"\\u0001rlx%-json%-null\\u0001"', "null")) .. "\n" end

local function mib(bytes) return type(bytes) == "number" and bytes / 2 ^ 20 or nil end

-- logs/model_summaries/summary.json: per model, the seed's mult_adds_per_sample_forward, params and
-- flops_per_batch_forward (per batch size run), with rlx's training figures per batch and precision.
function M.summary(D)
  local key_of, out = model_keys(D), {}
  for _, r in ipairs(D.ok) do
    local c = D.complexity[r.id]
    if c and type(c.forward_macs) == "number" then
      local input = c.input or config_of(r).input or 224
      local key = key_of(r.model, input)
      local m = out[key]
      if not m then
        m = {model = r.model, params = c.params, mult_adds_per_sample_forward = c.forward_macs,
          flops_per_sample_forward = c.forward_flops, input_size = {c.channels or 3, input, input},
          classes = c.classes or config_of(r).classes, batch_sizes = {}, flops_per_batch_forward = {},
          mult_adds_per_batch_forward = {}, training = {}}
        out[key] = m
      end
      local b = tostring(r.batch)
      if not m.flops_per_batch_forward[b] then m.batch_sizes[#m.batch_sizes + 1] = r.batch end
      m.flops_per_batch_forward[b] = c.forward_flops * r.batch
      m.mult_adds_per_batch_forward[b] = c.forward_macs * r.batch
      m.training[b] = m.training[b] or {}
      m.training[b][r.precision or "fp32"] = {train_flops_per_iteration = c.train_flops,
        bytes_per_iteration = c.bytes, activation_bytes = c.activation_bytes,
        training_memory_bytes = c.memory_bytes, training_memory_mib = mib(c.memory_bytes)}
    end
  end
  for _, m in pairs(out) do table.sort(m.batch_sizes) end
  return out
end

-- The roofs of one environment key and precision, as peaks.json holds them, or nil.
local function roofs(D, run)
  local env = compute.env_of(D, run.environment_id)
  local peaks, origin = compute.peaks_for(D, run.environment_id, run.kind, env.gpu_name)
  if not peaks then return nil end
  local pf, cfield = rlx.roofline.compute_roof(peaks, rlx.roofline.precision_of(run.precision))
  local pb, mfield = rlx.roofline.memory_roof(peaks, "dram")
  return {peak_gflops = pf and pf / 1e9, peak_gbps = pb and pb / 1e9, ridge_ai = (pf and pb) and pf / pb or nil,
    compute_field = cfield, memory_field = mfield, source = origin, device = run.kind,
    measured_at = origin == "stored" and peaks.measured_at or nil}
end

-- analysis/peaks.json: {env_key = {precision = {peak_gflops, peak_gbps, ...}}} for every
-- environment key and precision with a successful run; a roof rlx does not know is null (the seed's
-- roofline.py refuses to run with null: fill it in by hand, citing the datasheet).
function M.peaks(D)
  local out = {}
  for _, r in ipairs(D.ok) do
    out[r.env_key] = out[r.env_key] or {}
    local p = r.precision or "fp32"
    if not out[r.env_key][p] then
      local roof = roofs(D, r) or {}
      for _, k in ipairs({"peak_gflops", "peak_gbps", "ridge_ai"}) do
        if roof[k] == nil then roof[k] = NULL end
      end
      out[r.env_key][p] = roof
    end
  end
  return out
end

-- analysis/roofline_points.csv: one row per successful run with a DRAM point (measured preferred
-- over estimated), against the roofs of peaks.json.
function M.points_csv(D)
  local rows = {}
  for _, r in ipairs(D.ok) do
    local p = data.point_of(D, r)
    if p then
      local roof = roofs(D, r) or {}
      local attainable = (roof.peak_gflops and roof.peak_gbps and p.ai) and
        math.min(p.ai * roof.peak_gbps, roof.peak_gflops) or nil
      local bound = (roof.ridge_ai and p.ai) and (p.ai < roof.ridge_ai and "memory" or "compute") or nil
      rows[#rows + 1] = {r.label, r.env_key, r.model, r.precision, r.batch, p.level, p.flops, p.bytes, p.seconds, p.ai,
        p.gflops, roof.peak_gflops, roof.peak_gbps, roof.ridge_ai, attainable, bound, p.source, p.counters_source}
    end
  end
  return csv(M.POINT_COLUMNS, rows)
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
    local entries = {version_line("rlx", i.rlx, i.build_type and (i.build_type .. " build")),
      version_line("libtorch", i.torch, i.torch_cuda and "with CUDA" or "CPU only"),
      version_line("luajit", i.luajit and tostring(i.luajit):gsub("^LuaJIT ", "")), version_line("sqlite", i.sqlite),
      version_line("cuda-runtime", i.cuda_build, "the CUDA rlx was built with"),
      version_line("cuda-toolkit", i.cuda, "installed"), version_line("cudnn", i.cudnn),
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

local SQLITE_MAGIC = "SQLite format 3\0"

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
    local h = io.open(path, "rb")
    local head = h and h:read(#SQLITE_MAGIC)
    if h then h:close() end
    if head == SQLITE_MAGIC then
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

--- Writes the seven files under opts.out (folders made as needed), each atomically (temporary file
--- and rename). opts: out (required), study (nil: every study), path (the database's path, never
--- overwritten). Returns {files = {paths}, runs = number of ok runs, points = rows of the points CSV}.
function M.write(db, opts)
  local o = options.check("rlx.seed_layout.write", opts, {out = {type = "string", required = true},
    study = {type = "string"}, path = {type = "string"}})
  local D = data.load(db, o.study, o.path)
  local files = M.files(D)
  local inputs = o.path and {o.path} or {}
  check_targets(o.out, files, inputs)
  check_folders(o.out, files, true)
  local written = {}
  for _, f in ipairs(files) do
    local path = o.out .. "/" .. f.path
    local ok, err = pcall(rlx.fs.write_atomic, path, f.text, {not_same_as = inputs})
    if not ok then rlx.errors.raise("rlx.seed_layout.write", rlx.errors.message(rlx.errors.pass_exits(err))) end
    written[#written + 1] = path
  end
  local _, points = files[4].text:gsub("\n", "")
  return {files = written, runs = #D.ok, points = points - 1}
end

return M
