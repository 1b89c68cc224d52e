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
    {"status", "--status", one_of = {"ok", "failed", "running", "crashed"},
      help = "ok, failed, running (claimed, training now) or crashed (its process died)"},
    {"env", "--env", help = "only this environment label"},
    {"input", "--input", type = "integer", help = "only runs at this input size (image side in pixels)"},
    {"summary", "--summary", type = "boolean",
      help = "print seed 001's Table 2 (mean ± SD, 95 % CI of the mean, a row per configuration) as Markdown, " ..
        "then the precision the runs reached"},
    {"json", "--json", type = "boolean", help = "print JSON"},
  },
  positionals = {{"db"}}}

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

--- Seed 001's Table 2 as Markdown lines: ok runs grouped by their full configuration (env, model,
--- precision, batch and the rest of rlx.results.configs: input, protocol, data, ...; a column is added
--- for a field the rows differ in), with images/s, attained GFLOP/s and AI (DRAM roofline point,
--- measured preferred) as mean ± SD and the bound most repeats share, the 95 % CI of the mean
--- images/s, and a last line with the precision the runs reached. Unsteady or contended runs are
--- left out of the means and counted after n (all kept, marked, when every run of the row is).
function M.table2(db, rows)
  local configs = require("rlx.results.configs")
  local stats = rlx.stats
  local points = {}
  for _, p in ipairs(db:points{level = "dram"}) do
    local have = points[p.run_id]
    if not have or (have.source ~= "measured" and p.source == "measured") then points[p.run_id] = p end
  end
  local ok, groups, order = {}, {}, {}
  for _, r in ipairs(rows) do
    if r.status == "ok" then
      r.env_key = r.env
      ok[#ok + 1] = r
      local key = table.concat({tostring(r.env), r.model, tostring(r.precision), tostring(r.batch), configs.of(r).key}, "|")
      if not groups[key] then groups[key] = {}; order[#order + 1] = key end
      table.insert(groups[key], r)
    end
  end
  local varying = configs.varying(ok)
  local head = {"Env", "Model", "Precision", "Batch"}
  for _, h in ipairs(configs.headers(varying)) do head[#head + 1] = h end
  for _, h in ipairs({"n", "Images/s", "95 % CI of the mean", "Attained GFLOP/s", "AI", "Bound"}) do
    head[#head + 1] = h
  end
  local rule = {}
  for i = 1, #head do rule[i] = "---" end
  local lines = {"| " .. table.concat(head, " | ") .. " |", "| " .. table.concat(rule, " | ") .. " |"}
  -- The 95 % CI of the mean over the runs averaged: "188.2–211.8 (±5.9 %)"; "-" for one run.
  local function ci_cell(xs)
    if #xs < 2 then return "-" end
    local lo, hi, half = stats.ci95(xs)
    local m = stats.mean(xs)
    return string.format("%.1f–%.1f (±%.1f %%)", lo, hi, m ~= 0 and half / math.abs(m) * 100 or 0)
  end
  local function cell(xs)
    local m, sd = stats.mean(xs), stats.sd(xs)
    if m == nil then return "-" end
    return sd and string.format("%.1f ± %.1f", m, sd) or string.format("%.1f", m)
  end
  for _, key in ipairs(order) do
    local runs = groups[key]
    local used, flagged, all = configs.split(runs)
    local ips, gf, ai, bounds = {}, {}, {}, {}
    for _, r in ipairs(used) do
      local p = points[r.id] or {}
      if type(r.images_per_s) == "number" then ips[#ips + 1] = r.images_per_s end
      if type(p.gflops) == "number" then gf[#gf + 1] = p.gflops end
      if type(p.ai) == "number" then ai[#ai + 1] = p.ai end
      if p.bound then bounds[p.bound] = (bounds[p.bound] or 0) + 1 end
    end
    local best, count = "-", 0
    for b, c in pairs(bounds) do if c > count or (c == count and b < best) then best, count = b, c end end
    local n = tostring(#ips)
    if all then n = n .. " (all unsteady or contended " .. configs.MARK .. ")"
    elseif #flagged > 0 then
      -- A single run kept by the filter says which of the repeats it was (issue 30).
      local rank = #used == 1 and configs.kept_note(runs, 1):match("the one kept is (the [%w ]-) of %d+$")
      n = string.format("%s (%d unsteady or contended left out%s)", n, #flagged, rank and ("; kept: " .. rank) or "")
    end
    local r = runs[1]
    local cells = {tostring(r.env), r.model, tostring(r.precision), tostring(r.batch)}
    for _, c in ipairs(configs.cells(varying, r)) do cells[#cells + 1] = c end
    for _, c in ipairs({n, cell(ips), ci_cell(ips), cell(gf), cell(ai), best}) do cells[#cells + 1] = c end
    lines[#lines + 1] = "| " .. table.concat(cells, " | ") .. " |"
  end
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
  local ok, rows = pcall(require("rlx.study")._query_runs, db, o, o.study)
  if not ok then args.fail("runs", rows) end
  if o.input then
    -- The input size a run used (rlx.results.configs: column, result, config, else 224).
    local configs, kept = require("rlx.results.configs"), {}
    for _, r in ipairs(rows) do if configs.of(r).input == tostring(o.input) then kept[#kept + 1] = r end end
    rows = kept
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
