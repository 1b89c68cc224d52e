-- rlx import-kit: a machine measured with seed 000's kit (logs/metrics.csv, logs/env_info.md,
-- logs/ncu/*.csv) stored as an environment of a study, marked imported (rlx.kit).
local args = require("rlx.cli._args")
local merge = require("rlx.cli.merge")
local M = {summary = "import a machine measured with the seed's kit (logs/metrics.csv, env_info.md, ncu CSVs)",
  synopsis = "import-kit DIR --db PATH"}

local cmd = {name = "import-kit", usage = "rlx import-kit DIR --db PATH [--study NAME] [--env LABEL] [options]",
  description = "Reads the kit folder DIR as seed 000's code/run_train.py leaves it: DIR/logs/metrics.csv (one\n" ..
    "row per run: arch, batch_size, precision, warmup_iters, measured_iters, elapsed_sec, images_per_sec,\n" ..
    "label, hostname, backend, device_name, ...), DIR/logs/env_info.md (the machine, in your words; optional)\n" ..
    "and DIR/logs/ncu/LABEL.csv (Nsight Compute CSVs named after their run's --label; optional). Stores the\n" ..
    "machine as one environment of the study, marked imported, with one run per row (repeats numbered in\n" ..
    "file order), the analytic complexity and estimated roofline point of each configuration, and the ncu\n" ..
    "totals of the runs that have a CSV; `rlx report` then covers it beside rlx's own environments.\n" ..
    "Everything is checked first: a bad value is one error naming the file, line and column, and nothing\n" ..
    "is written; the runs are merged in one transaction, and importing the same folder twice adds nothing.\n" ..
    "Bounds (docs/cli.md): at most 1,000,000 rows; batch_size <= 2^20; images_per_sec must agree with\n" ..
    "batch_size x measured_iters / elapsed_sec within 1 %. Only regular files are read (a FIFO is refused).",
  options = {
    {"db", "--db", metavar = "PATH", path = "database",
      help = "the study database to add the machine to (it must exist, unless --create)"},
    {"create", "--create", type = "boolean", help = "create --db when it does not exist (a new study database)"},
    {"study", "--study", metavar = "NAME", name = true, default = "p1-roofline", help = "the study the runs join"},
    {"env", "--env", metavar = "LABEL", name = true,
      help = "the environment's label (default: the {env}_ prefix of the runs' labels, else the host name)"},
    {"input", "--input", type = "integer", min = 8, max = 4096, default = 224,
      help = "the image side the kit trained at (run_train.py crops 224)"},
    {"classes", "--classes", type = "integer", min = 2, max = 1000000, default = 1000,
      help = "the classes of its model's head"},
    {"synthetic", "--synthetic", type = "boolean", help = "the runs used --synthetic (FakeData), whatever data_root says"},
  },
  positionals = {{"dir", path = "dir"}}}

-- DIR must be a kit folder: a missing one, or one without logs/metrics.csv, is named with the
-- layout the command expects (rlx.kit's "cannot read DIR/logs/metrics.csv: <the OS's words>" says
-- neither, and repeats the path).
local LAYOUT = "DIR/logs/metrics.csv, with optional DIR/logs/env_info.md and DIR/logs/ncu/LABEL.csv"
local function check_kit_dir(dir)
  local base = dir:gsub("/+$", "")
  local metrics = base .. "/logs/metrics.csv"
  -- Looked at without opening it for reading (a FIFO would block here): rlx.kit reads it by the
  -- one rule for a user's files and names what is wrong with a file that is there.
  local listed, names = pcall(rlx.fs.list, base .. "/logs", {not_only_regular = true})
  for _, n in ipairs(listed and names or {}) do
    if n == "metrics.csv" then return end
  end
  local function fail(what)
    rlx.fail(1, string.format("rlx import-kit: %s; DIR must be the folder seed 000's kit ran in (%s)", what, LAYOUT))
  end
  if not pcall(rlx.fs.list, dir) then
    local ok, size = pcall(rlx.fs.check_file, dir, {what = "DIR", missing_ok = true})
    if ok and size == nil then fail(string.format("no folder at '%s'", dir)) end
    if ok then fail(string.format("'%s' is a file, not a kit folder", dir)) end
    fail("not a kit folder: " .. rlx.errors.message(rlx.errors.pass_exits(size)))  -- a FIFO, a device
  end
  if not listed then fail(string.format("cannot read %s: %s has no logs/ folder", metrics, dir)) end
  fail(string.format("cannot read %s: there is no such file (run_train.py appends a row per run to it)", metrics))
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  if not o.db then args.usage_error("import-kit", "--db PATH is required (the study database to add the machine to)") end
  check_kit_dir(o.dir)
  local ok, res = pcall(rlx.kit.import, {dir = o.dir, db = o.db, study = o.study, env = o.env, input = o.input,
    classes = o.classes, synthetic = o.synthetic == true, create = o.create == true})
  if not ok then args.fail("import-kit", res) end
  local m = res.merged or {}
  print(string.format("%s: environment '%s' (imported, id %s): %d runs read, +%d stored in %s (study %s)%s", o.dir,
    res.env, res.env_id:sub(1, 12), res.runs, m.runs or 0, o.db, o.study,
    #res.ncu > 0 and string.format(", ncu counters from %d CSV%s", #res.ncu, #res.ncu == 1 and "" or "s") or ""))
  for _, c in ipairs(m.conflicts or {}) do
    merge.report_conflict(o.dir, o.db, c, false)
  end
  return 0
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
