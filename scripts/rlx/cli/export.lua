-- rlx export: writes a study database as CSV (one row per run: seed 000's logs/metrics.csv
-- columns, then rlx's; pandas and the kit's analysis/roofline.py read it as is) and/or JSON (every
-- run with config, result, samples, counters, complexity and roofline points).
local args = require("rlx.cli._args")
local csv = require("rlx.csv")
local runs = require("rlx.cli.runs")
local study_mod = require("rlx.study")
local layout = require("rlx.seed_layout")
local M = {summary = "export runs as CSV (one row per run), JSON, or seed 000's kit files",
  synopsis = "export DB [--csv FILE] [--json FILE] | --layout seed --out DIR"}

local cmd = {name = "export",
  usage = "rlx export DB [--csv FILE] [--json FILE] [--study NAME] [--status S]\n" ..
    "       rlx export DB --layout seed --out DIR [--study NAME]",
  description = "Writes the runs of DB as CSV (one row per run: seed 000's metrics.csv columns, then rlx's)\n" ..
    "and/or JSON. Use '-' as FILE for stdout.\n" ..
    "--layout seed --out DIR writes seed 000's kit instead: DIR/logs/metrics.csv, logs/model_summaries/\n" ..
    "summary.json, analysis/peaks.json, analysis/roofline_points.csv, code/metric_names_ncu.txt,\n" ..
    "logs/env_info.md and logs/requirements.txt (successful runs; docs/export-seed.md, column by column);\n" ..
    "a file there that is a SQLite database is refused before anything is written, and so are files\n" ..
    "rlx did not write (the kit's own logs/metrics.csv: exit 2, naming them) unless --force.\n" ..
    "Each FILE is written to a temporary file and renamed when complete; a FILE that is DB (by any\n" ..
    "name: symlink, hard link) is refused, and a write error (full disk) fails with exit status 1.\n" ..
    "CSV follows RFC 4180 (fields with commas, quotes or newlines are quoted); empty = unknown.",
  options = {
    {"csv", "--csv", metavar = "FILE", path = "output", help = "write one CSV row per run"},
    {"json", "--json", metavar = "FILE", path = "output", help = "write every run with its details as JSON"},
    {"study", "--study", help = "only this study"},
    {"status", "--status", one_of = {"ok", "failed", "running", "crashed"}, help = "only runs with this status"},
    {"layout", "--layout", one_of = {"seed"}, help = "write seed 000's kit files under --out"},
    {"out", "--out", metavar = "DIR", path = "output_dir", help = "the folder of --layout seed"},
    {"force", "--force", type = "boolean",
      help = "with --layout seed: replace files under --out that rlx did not write (e.g. the kit's own logs)"},
  },
  positionals = {{"db", path = "database"}}}

-- The columns after seed 000's metrics.csv ones (rlx.seed_layout.METRICS_COLUMNS, which pandas
-- and the kit's analysis/roofline.py read by name): column name -> run field, what rlx adds.
M.RLX_COLUMNS = {
  {"status", "status"}, {"error", "error"}, {"study", "study"}, {"env", "env"}, {"run", "run"}, {"run_id", "id"},
  {"device", "device"}, {"started_at", "started_at"}, {"finished_at", "finished_at"}, {"total_s", "total_s"},
  {"iter_mean_s", "iter_mean_s"}, {"iter_sd_s", "iter_sd_s"}, {"iter_median_s", "iter_median_s"},
  {"iter_min_s", "iter_min_s"}, {"iter_max_s", "iter_max_s"}, {"iter_p5_s", "iter_p5_s"},
  {"iter_p95_s", "iter_p95_s"}, {"data_wait_s", "data_wait_s"}, {"user_s", "user_s"}, {"sys_s", "sys_s"},
  {"max_rss_bytes", "max_rss_bytes"}, {"device_max_bytes", "device_max_bytes"}, {"loss_first", "loss_first"},
  {"loss_last", "loss_last"}, {"threads", "threads"}, {"params", "params"}, {"forward_flops", "forward_flops"},
  {"train_flops", "train_flops"}, {"cpu_model", "cpu_model"}, {"gpu_name", "gpu_name"}, {"cuda", "cuda"},
  {"cuda_graphs", "cuda_graphs"}, {"ranks", "ranks"}, {"global_batch", "global_batch"},
}

--- The column names of the CSV, in order.
function M.columns()
  local names = {}
  for i, c in ipairs(layout.METRICS_COLUMNS) do names[i] = c end
  for _, c in ipairs(M.RLX_COLUMNS) do names[#names + 1] = c[1] end
  return names
end

-- The CSV text: a header and one line per run.
function M.csv_text(rows)
  local lines = {}
  for i, r in ipairs(rows) do
    -- By index, not #values + 1: a nil field (error on an ok run) is a hole, and # would put
    -- every later value one column left.
    local values, first = layout.metrics_values(layout.run_fields(r)), #layout.METRICS_COLUMNS
    for j, c in ipairs(M.RLX_COLUMNS) do values[first + j] = r[c[2]] end
    lines[i] = values
  end
  return csv.text(M.columns(), lines)
end

--- Writes the CSV to the open file f (kept for scripts that stream to their own file).
function M.csv(rows, f)
  f:write(M.csv_text(rows))
end

-- Every output is checked against the database (and against the other output) before anything
-- is read or written, so `--json DB` cannot truncate the database it is about to read.
local function check_outputs(o)
  for _, flag in ipairs({"csv", "json"}) do
    local out = o[flag]
    if out and out ~= "-" and (out == o.db or rlx.fs.same_file(out, o.db)) then
      rlx.fail(1, string.format("rlx export: the output '%s' is the same file as the input '%s': " ..
        "writing it would destroy the input; choose another output file", out, o.db))
    end
  end
  if o.csv and o.json and o.csv ~= "-" and (o.csv == o.json or rlx.fs.same_file(o.csv, o.json)) then
    rlx.fail(2, "rlx export: --csv and --json name the same file '" .. o.csv .. "': give each its own file")
  end
end

local function details(db, rows)
  for _, r in ipairs(rows) do
    local d = db:run_details{id = r.id}
    r.counters, r.roofline_points, r.complexity = d.counters, d.roofline_points, d.complexity
  end
  return rows
end

-- rlx export DB --layout seed --out DIR.
local function export_seed(o)
  if not o.out then args.usage_error("export", "--layout seed needs --out DIR (the folder of the kit's files)") end
  if o.csv or o.json or o.status then
    args.usage_error("export", "--layout seed writes its own files (ok runs); --csv, --json and --status are " ..
      "separate exports")
  end
  -- The input first: the folder is made by the output check, and a refused study must not leave
  -- an empty one behind (issue 35 item 11).
  local db = runs.open_readonly("export", o.db)
  runs.require_study("export", db, o.db, o.study)
  -- Files rlx did not write are named and kept (exit 2) before the folder is made or anything
  -- written: the kit's own logs/metrics.csv was replaced silently (issue 56 item 5).
  local foreign = not o.force and layout._foreign_files(o.out) or {}
  if #foreign > 0 then args.usage_error("export", layout._foreign_message(o.out, foreign)) end
  rlx.fs.check_outputs("export", {{o.out, "folder", {what = "--out"}}})
  local ok, res = pcall(layout.write, db, {out = o.out, study = o.study, path = o.db, force = o.force})
  if not ok then args.fail("export", res) end
  io.stderr:write(string.format("rlx export: %d ok runs (%d roofline points) from %s in seed 000's layout under %s/\n",
    res.runs, res.points, o.db, o.out))
  for _, f in ipairs(res.files) do print(f) end
  return 0
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  if o.layout then return export_seed(o) end
  if o.out then args.usage_error("export", "--out is the folder of --layout seed; for one file use --csv or --json") end
  if o.force then args.usage_error("export", "--force applies to --layout seed (--csv and --json replace their FILE)") end
  if not o.csv and not o.json then
    args.usage_error("export", "say what to write: --csv FILE and/or --json FILE")
  end
  check_outputs(o)
  rlx.fs.check_outputs("export", {{o.csv ~= "-" and o.csv or nil, "file", {what = "--csv"}},
    {o.json ~= "-" and o.json or nil, "file", {what = "--json"}}})
  local db = runs.open_readonly("export", o.db)
  runs.require_study("export", db, o.db, o.study)
  local ok, rows = pcall(study_mod._query_runs, db, {status = o.status, samples = o.json ~= nil}, o.study)
  if not ok then args.fail("export", rows) end
  local inputs = {not_same_as = {o.db}}
  if o.csv then rlx.fs.write_output("rlx export", o.csv, M.csv_text(rows), inputs) end
  if o.json then rlx.fs.write_output("rlx export", o.json, rlx.json.encode(details(db, rows), 2) .. "\n", inputs) end
  if o.csv ~= "-" and o.json ~= "-" then
    io.stderr:write(string.format("rlx export: %d runs from %s\n", #rows, o.db))
  end
  return 0
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
