-- rlx env: prints this machine's environment as seed 000's logs/env_info.md (or JSON).
local args = require("rlx.cli._args")
local startup_text = require("rlx._startup_text")
local runs = require("rlx.cli.runs")
local M = {summary = "this machine's environment (OS, CPU, caches, GPU, versions) as env_info.md",
  synopsis = "env [--markdown FILE] [--json] [--db PATH]"}

local cmd = {name = "env",
  usage = "rlx env [--markdown FILE] [--json] [--label NAME] [--zone ZONE] [--instance-type T] [--db PATH]",
  description = "Captures the environment from local sources only (no network) and prints it as the\n" ..
    "Markdown of seed 000's logs/env_info.md, or as JSON. --markdown also writes it to FILE\n" ..
    "(through a temporary file renamed when complete; a write error fails with exit status 1).\n" ..
    "The Markdown ends with the training settings chosen on this machine (rlx.calibrate):\n" ..
    "each model's memory layout and its measured margin, from --db and from rlx train's cache\n" ..
    "(in JSON: calibrations), and the settings each training process decides when it starts.",
  options = {
    {"db", "--db", metavar = "PATH", path = "database",
      help = "also list the settings a study database chose for this environment"},
    {"markdown", "--markdown", metavar = "FILE", path = "output", help = "write the Markdown to FILE"},
    {"json", "--json", type = "boolean", help = "print JSON instead of Markdown"},
    {"label", "--label", metavar = "NAME", name = true, help = "environment label (starts every run label)"},
    {"zone", "--zone", help = "cloud region/zone (not exposed locally)"},
    {"instance_type", "--instance-type", metavar = "TYPE", help = "cloud instance type"},
  }}

-- The databases to read calibrations from, open: --db (a missing or unusable one ends the program
-- with a one-line error, exit 1, as `rlx runs` does: you named it), then rlx train's cache when it
-- exists and opens (it is made by the first calibration, so none is not an error).
local function open_databases(db_path)
  local dbs = {}
  if db_path then dbs[1] = {path = db_path, db = runs.open_readonly("env", db_path)} end
  local cache = rlx.calibrate.cache_db()
  if pcall(rlx.fs.check_file, cache) then  -- a regular file (a FIFO there is not waited on)
    local ok, db = pcall(rlx.db.open, cache, {readonly = true})
    if ok then dbs[#dbs + 1] = {path = cache, db = db} end
  end
  return dbs
end

-- The calibrations (rlx.calibrate) of this environment in the open databases `dbs` (closed here),
-- one table each: model, precision, device, input, threads, memory_format, margin (in words),
-- per_image_s, measured_at, database.
local function calibrations(env, dbs)
  local rows = {}
  for _, d in ipairs(dbs) do
    local db, path = d.db, d.path
    for _, kind in ipairs(rlx.model.DEVICE_KINDS) do
      -- A database from before calibrations were stored has no such table: no rows, not an error.
      local got, cals, problems = pcall(db.calibrations, db, env.id, kind)
      -- Rows the store found unusable are left out and named once, escaped (issue 48 item 7).
      for _, p in ipairs(got and problems or {}) do io.stderr:write("rlx env: warning: ", p, "\n") end
      for _, c in ipairs(got and cals or {}) do
        rows[#rows + 1] = {model = c.model, precision = c.precision, device = kind, input = c.input,
          threads = c.threads, memory_format = c.memory_format, margin = rlx.calibrate.margin_text(c),
          per_image_s = c.per_image_s, measured_at = c.measured_at, database = path}
      end
    end
    db:close()
  end
  return rows
end

-- The settings a training process chooses on this machine, as a Markdown section: the layouts
-- calibrated here (`rows`), then the rules decided per process (threads, OpenMP waiting).
local function settings_section(rows)
  local out = {"", "## Training settings chosen on this machine", ""}
  if #rows > 0 then
    out[#out + 1] = string.format("Each model's memory layout, measured here (rlx.calibrate: both layouts timed " ..
      "in turns at the runs' batch, the faster kept when the 95 %% CI of the margin clears 1 by %.1f %% and the " ..
      "margin is beyond %.0f %%, else a tie keeps the default, channels_last; margin = the other layout's mean step " ..
      "over the chosen one's; a probe from before issue 55 has no CI and is measured again before use):",
      rlx.calibrate.CLEAR * 100, rlx.calibrate.NEAR * 100)
    out[#out + 1] = ""
    out[#out + 1] = "| Model | Precision | Device | Input | Threads | Layout | Margin | s/image (probe) | Measured | " ..
      "Database |"
    out[#out + 1] = "| --- | --- | --- | ---: | ---: | --- | --- | ---: | --- | --- |"
    for _, r in ipairs(rows) do
      -- Threads 0: a GPU's probe, or one from before probes recorded them (it serves any count).
      out[#out + 1] = string.format("| %s | %s | %s | %d | %s | %s | %s | %.3g | %s | %s |", r.model, r.precision,
        r.device, r.input, (tonumber(r.threads) or 0) > 0 and tostring(r.threads) or "-", r.memory_format, r.margin,
        r.per_image_s, tostring(r.measured_at), r.database)
    end
  else
    out[#out + 1] = "No model's memory layout measured here yet: a study, or `rlx train` with its default " ..
      "`--memory-format auto`, measures it before its first run and keeps it."
  end
  out[#out + 1] = ""
  local quota = rlx.env.cpu_quota()
  local dt = rlx.env.default_threads()
  local per_cpu = string.format("one per CPU it may run on (%d here: its affinity mask%s)", rlx.env.usable_cpus(),
    quota and string.format(" and the cgroup's CPU quota of %s, rounded up: %s", rlx.env.cpus_text(quota.cpus),
      quota.source) or "")
  local threads = dt.from == "OMP_NUM_THREADS" and string.format("%d from OMP_NUM_THREADS, the user's choice " ..
    "(else %s)", dt.threads, per_cpu) or per_cpu
  local start = rlx.version().startup
  local thp = start.huge_pages
  out[#out + 1] = "Decided by each training process when it starts: threads, " .. threads .. "; OpenMP waiting, " ..
    "from the load on those CPUs (libgomp's default when idle, a short spin when other processes use half a core " ..
    "or more); huge pages for its heap: " .. startup_text.huge_pages_kind(thp) .. " (kernel mode " ..
    (thp.kernel_mode ~= "" and thp.kernel_mode or "unknown") .. (thp.environment and ("; " .. thp.environment) or "") ..
    "); each run records what it used (`threads`, and `startup`: docs/training.md, \"Start-up\")."
  return table.concat(out, "\n") .. "\n"
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  rlx.fs.check_outputs("env", {{o.markdown ~= "-" and o.markdown or nil, "file", {what = "--markdown"}}})
  local dbs = open_databases(o.db)
  local env = rlx.env.capture{label = o.label, zone = o.zone, instance_type = o.instance_type}
  local rows = calibrations(env, dbs)
  local md = rlx.env.markdown(env) .. settings_section(rows)
  if o.markdown then
    rlx.fs.write_output("rlx env", o.markdown, md)
  end
  if o.json then
    -- Not fields of the environment (its id ignores them): what this process found.
    env.calibrations = #rows > 0 and rows or nil
    env.usable_cpus = rlx.env.usable_cpus()
    env.cpu_quota = rlx.env.cpu_quota()
    print(rlx.json.encode(env, 2))
  elseif not o.markdown then
    io.write(md)
  else
    print("wrote " .. o.markdown)
  end
  return 0
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
