-- rlx runs: lists the runs stored in a study database as a table (or JSON).
local args = require("rlx.cli._args")
local configs = require("rlx.studydb.configs")
local data = require("rlx.studydb.data")
local table2 = require("rlx.report.table2")
local study_mod = require("rlx.study")
local M = {summary = "list the runs stored in a study database", synopsis = "runs DB [--model M] [--status S] [--json]"}

local cmd = {name = "runs", usage = "rlx runs DB [options]",
  description = "Lists the runs in DB (every study unless --study), one line each: label, status,\n" ..
    "images_per_s, iter_mean_s and iter_sd_s (seconds), seconds (measured), memory_format, finished_at,\n" ..
    "error. Columns that do not fit the terminal are left out and named; a pipe or file gets them all.",
  options = {
    {"study", "--study", help = "only this study"},
    {"model", "--model", help = "only this model"},
    {"precision", "--precision", help = "only this precision"},
    {"batch", "--batch", type = "integer", help = "only this batch size"},
    {"device", "--device", help = "only this device"},
    {"status", "--status", one_of = {"ok", "failed", "running", "crashed"},
      help = "ok, failed, running (claimed, training now) or crashed (its process died)"},
    {"env", "--env", help = "only this environment label"},
    {"env_id", "--env-id", metavar = "ID",
      help = "only the environment whose id starts with ID (two machines can share a label)"},
    {"input", "--input", type = "integer", help = "only runs at this input size (image side in pixels)"},
    {"ranks", "--ranks", type = "integer", min = 1,
      help = "only runs with this many data-parallel ranks (1: one process, as every run before them)"},
    {"summary", "--summary", type = "boolean",
      help = "print seed 001's Table 2 as the report prints it (mean ± SD, 95 % CI of the mean, a row per " ..
        "configuration) as Markdown, then the precision the runs reached"},
    {"json", "--json", type = "boolean",
      help = "print JSON: the runs; with --summary, Table 2's numbers (one record per configuration)"},
  },
  positionals = {{"db", path = "database"}}}

--- Opens a database for reading, turning an error into a one-line exit naming the file.
function M.open_readonly(name, path)
  local ok, conn = pcall(rlx.db.open, path, {readonly = true})
  if not ok then args.fail(name, conn) end
  return conn
end

--- Ends the program (exit 1) when --study names no study of db: a typo listed nothing and exited 0
--- (issue 25 finding 11).
function M.require_study(name, db, path, study)
  if not study then return end
  local names = db:study_names()
  for _, n in ipairs(names) do if n == study then return end end
  rlx.fail(1, string.format("rlx %s: no study '%s' in %s (studies: %s)", name, study, path,
    #names > 0 and table.concat(names, ", ") or "none"))
end

--- Seed 001's Table 2 as Markdown lines, the report's own (rlx.report.table2: one builder, so
--- `rlx runs --summary` and report.md print every row alike), for the ok runs among `rows` (the
--- runs the filters kept), then a line with the precision the runs reached. path: the database's.
-- The loaded data (rlx.studydb.data.load) of the ok runs among `rows`, grouped as Table 2 groups them.
local function table2_data(db, rows, study, path)
  local D = data.load(db, study, path)
  local kept = {}
  for _, r in ipairs(rows) do kept[r.id] = true end
  local ok = {}
  for _, r in ipairs(D.ok) do if kept[r.id] then ok[#ok + 1] = r end end
  D.ok, D.groups, D.varying = ok, data.group(ok), configs.varying(ok)
  return D, ok
end

--- The numbers behind those rows (rlx.report.table2.records: one record per configuration, what
--- `rlx runs --summary --json` prints and study:table2() holds).
function M.table2_records(db, rows, study, path)
  return table2.records((table2_data(db, rows, study, path)))
end

function M.table2(db, rows, study, path)
  local D, ok = table2_data(db, rows, study, path)
  local lines = table2.lines(D)
  -- What the runs reached, not what they were asked (issue 30).
  local reached = configs.precision_text(ok)
  if reached then
    lines[#lines + 1] = ""
    lines[#lines + 1] = "Precision of the runs: " .. reached .. " (each run's 95 % CI of its mean iteration time)."
  end
  return lines
end

--- The columns `rlx runs` prints, in order: study:runs fields.
M.COLUMNS = {"label", "status", "images_per_s", "iter_mean_s", "iter_sd_s", "seconds", "memory_format", "finished_at",
  "error"}

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  local db = M.open_readonly("runs", o.db)
  M.require_study("runs", db, o.db, o.study)
  local ok, rows = pcall(study_mod._query_runs, db, o, o.study)
  if not ok then args.fail("runs", rows) end
  if o.env_id then
    local kept = {}
    for _, r in ipairs(rows) do
      if tostring(r.environment_id or ""):sub(1, #o.env_id) == o.env_id then kept[#kept + 1] = r end
    end
    rows = kept
  end
  if o.input then
    -- The input size a run used (rlx.studydb.configs: column, result, config, else 224).
    local kept = {}
    for _, r in ipairs(rows) do if configs.of(r).input == tostring(o.input) then kept[#kept + 1] = r end end
    rows = kept
  end
  if o.ranks then
    -- The ranks a run trained with (rlx.studydb.configs: column, result, config, else 1).
    local kept = {}
    for _, r in ipairs(rows) do if configs.ranks_of(r) == o.ranks then kept[#kept + 1] = r end end
    rows = kept
  end
  if o.json and o.summary then
    -- Table 2's numbers, not its cells: one record per configuration of the ok runs kept ({} for
    -- none, as --json prints no runs).
    print(rlx.json.encode(#rows > 0 and M.table2_records(db, rows, o.study, o.db) or {}, 2))
    return 0
  end
  if o.json then
    print(rlx.json.encode(rows, 2))
    return 0
  end
  if #rows == 0 then
    print("no runs in " .. o.db)
    return 0
  end
  if o.summary then
    for _, line in ipairs(M.table2(db, rows, o.study, o.db)) do print(line) end
    return 0
  end
  -- The one table printer (rlx.show): the stored column names (units in them), numbers
  -- right-aligned, columns cut to the terminal's width (never when stdout is a pipe or a file).
  local shown, n_ok = {}, 0
  for i, r in ipairs(rows) do
    if r.status == "ok" then n_ok = n_ok + 1 end
    -- memory_format: two runs that differ only in layout would otherwise print the same
    shown[i] = {label = r.label, status = r.status, memory_format = r.memory_format, images_per_s = r.images_per_s,
      iter_mean_s = r.iter_mean_s, iter_sd_s = r.iter_sd_s, seconds = r.seconds, finished_at = r.finished_at,
      error = r.error and (tostring(r.error):gsub("\n.*", "")) or nil}
  end
  rlx.show(rlx.frame(shown, M.COLUMNS), {max_rows = 0, max_cell = 60,
    footer = string.format("%d runs (%d ok, %d not ok)", #rows, n_ok, #rows - n_ok)})
  return 0
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
