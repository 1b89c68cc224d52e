-- rlx runs: lists the runs stored in a study database as a table (or JSON).
local args = require("rlx.cli.args")
local M = {summary = "list the runs stored in a study database", synopsis = "runs DB [--model M] [--status S] [--json]"}

local cmd = {name = "runs", usage = "rlx runs DB [options]",
  description = "Lists the runs in DB (every study unless --study), one line each: label, status,\n" ..
    "images/s, mean and SD of the iteration time, measured seconds, finish time, error.",
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

local function f(v, fmtstr) if type(v) ~= "number" then return "-" end return string.format(fmtstr, v) end

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
  local width = 5
  for _, r in ipairs(rows) do width = math.max(width, #r.label) end
  -- memory_format: two runs that differ only in layout would otherwise print the same
  local head = string.format("%-" .. width .. "s  %-6s  %-13s  %10s  %18s  %9s  %-20s  %s", "label", "status",
    "memory_format", "images/s", "iter ms (mean±sd)", "seconds", "finished", "error")
  print(head)
  print(string.rep("-", #head))
  local n_ok = 0
  for _, r in ipairs(rows) do
    if r.status == "ok" then n_ok = n_ok + 1 end
    local iter = type(r.iter_mean_s) == "number" and
      string.format("%.3f ± %s", r.iter_mean_s * 1e3, f(r.iter_sd_s and r.iter_sd_s * 1e3, "%.3f")) or "-"
    local err = r.error and tostring(r.error):gsub("\n.*", ""):sub(1, 60) or ""
    print(string.format("%-" .. width .. "s  %-6s  %-13s  %10s  %18s  %9s  %-20s  %s", r.label, r.status,
      r.memory_format or "-", f(r.images_per_s, "%.2f"), iter, f(r.seconds, "%.3f"), r.finished_at or "-", err))
  end
  print(string.format("%d runs (%d ok, %d not ok)", #rows, n_ok, #rows - n_ok))
  return 0
end

return M
