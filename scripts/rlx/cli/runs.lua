-- rlx runs: lists the runs stored in a study database as a table (or JSON).
local args = require("rlx.cli.args")
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
    {"status", "--status", type = "choice", choices = {"ok", "failed", "running", "crashed"},
      help = "ok, failed, running (claimed, training now) or crashed (its process died)"},
    {"env", "--env", help = "only this environment label"},
    {"summary", "--summary", type = "boolean", help = "print seed 001's Table 2 (mean ± SD over repeats) as Markdown"},
    {"json", "--json", type = "boolean", help = "print JSON"},
  },
  positionals = {{"db"}}}

--- Opens a database for reading, turning an error into a one-line exit naming the file.
function M.open_readonly(name, path)
  local ok, conn = pcall(rlx.db.open, path, {readonly = true})
  if not ok then args.fail(name, conn) end
  return conn
end

--- Seed 001's Table 2 as Markdown lines: ok runs grouped by env, model, precision and batch, with
--- images/s, attained GFLOP/s and AI (DRAM roofline point, measured preferred) as mean ± SD and
--- the bound most repeats share.
function M.table2(db, rows)
  local points = {}
  for _, p in ipairs(db:points{level = "dram"}) do
    local have = points[p.run_id]
    if not have or (have.source ~= "measured" and p.source == "measured") then points[p.run_id] = p end
  end
  local ok = {}
  for _, r in ipairs(rows) do
    if r.status == "ok" then
      local p = points[r.id] or {}
      ok[#ok + 1] = {env = r.env, model = r.model, precision = r.precision, batch = r.batch,
        images_per_s = r.images_per_s, gflops = p.gflops, ai = p.ai, bound = p.bound, unstable = r.stable == 0}
    end
  end
  local groups = rlx.stats.mean_sd(ok, {"images_per_s", "gflops", "ai"}, {digits = 1})
  local bounds, unstable = {}, {}
  for _, r in ipairs(ok) do
    local key = table.concat({tostring(r.env), r.model, r.precision, tostring(r.batch)}, "|")
    bounds[key] = bounds[key] or {}
    if r.bound then bounds[key][r.bound] = (bounds[key][r.bound] or 0) + 1 end
    if r.unstable then unstable[key] = (unstable[key] or 0) + 1 end
  end
  local lines = {"| Env | Model | Precision | Batch | n | Images/s | Attained GFLOP/s | AI | Bound |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"}
  for _, g in ipairs(groups) do
    local key = table.concat({tostring(g.env), g.model, g.precision, tostring(g.batch)}, "|")
    local best, count = "-", 0
    for b, c in pairs(bounds[key] or {}) do if c > count or (c == count and b < best) then best, count = b, c end end
    local function cell(v) return v ~= "" and v or "-" end
    -- Repeats without a steady state (stored stable = 0) are counted in n and marked.
    local n = unstable[key] and string.format("%d (%d unstable)", g.n, unstable[key]) or tostring(g.n)
    lines[#lines + 1] = string.format("| %s | %s | %s | %s | %s | %s | %s | %s | %s |", g.env, g.model, g.precision,
      tostring(g.batch), n, cell(g.images_per_s), cell(g.gflops), cell(g.ai), best)
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
  local ok, rows = pcall(require("rlx.study").query_runs, db, o, o.study)
  if not ok then args.fail("runs", rows) end
  if o.json then
    print(rlx.db.encode(rows, true))
    return 0
  end
  if #rows == 0 then
    print("no runs in " .. o.db)
    return 0
  end
  if o.summary then
    for _, line in ipairs(M.table2(db, rows)) do print(line) end
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

return M
