-- rlx report: writes a study's report (report.md, report.html, figures/) from its database, or
-- renders an edited report.md to HTML again. The work is rlx.report (scripts/rlx/report/init.lua).
local args = require("rlx.cli._args")
local dbs = require("rlx.cli.runs")
local M = {summary = "write a study's report: report.md (seed 001's sections), report.html, figures",
  synopsis = "report DB... [--out DIR] [--study NAME]"}

local cmd = {name = "report", usage = "rlx report DB... [--out DIR] [--study NAME] [options]\n" ..
    "       rlx report FILE.md [--out FILE.html]",
  description = "Writes DIR/report.md in seed 001's section order with every number computed from DB and\n" ..
    "every table row traced to its runs (Appendix A), DIR/figures/*.png, and DIR/report.html: the\n" ..
    "Markdown rendered by libcmark-gfm with the figures embedded (one file, opens in any browser).\n" ..
    "Paragraphs the numbers support are drafted (marked [DRAFT], to rewrite in your words); what only\n" ..
    "you can say is marked [TO WRITE]. Several databases (one per machine) make one report, as if\n" ..
    "merged with rlx merge: every environment in the tables, Figure B and §6.2 across them. Every\n" ..
    "DB is only read. Given a .md file instead, renders it (after your edits) to HTML beside it.",
  options = {
    {"out", "--out", metavar = "DIR", path = "output_dir", help = "output folder (default: report); with FILE.md the HTML file"},
    {"study", "--study", metavar = "NAME",
      help = "the study to report from each DB that holds it (needed when one holds several)"},
    {"all_studies", "--all-studies", type = "boolean",
      help = "report every study of every DB as one (machines that ran the matrix under different study names)"},
    {"title", "--title", help = "the report's title (default: seed 001's, with the environments named)"},
    {"hypotheses", "--hypotheses", metavar = "FILE.lua", path = "file",
      help = "judge the hypotheses this Lua file returns (a list of study:hypothesis tables, e.g. " ..
        "experiments/hypotheses.lua)"},
    {"no_html", "--no-html", type = "boolean", help = "write report.md and the figures only"},
    {"quiet", "--quiet", type = "boolean", help = "print nothing on success"},
  },
  positionals = {{"dbs", rest = true, path = "database"}},
  epilog = "Look at it: open DIR/report.html in a browser, or without a display:\n" ..
    "  chromium --headless --screenshot=report.png --window-size=1200,4000 DIR/report.html\n" ..
    "Find what is left to write: grep -n 'TO WRITE' DIR/report.md (docs/report.md)."}

local function render(o)
  local ok, out = pcall(rlx.report.render, {markdown = o.db, out = o.out, title = o.title})
  if not ok then args.fail("report", out) end
  if not o.quiet then print("wrote " .. out) end
  return 0
end

-- The study to report from the first database: --study, else its only one. With one database a
-- --study it lacks is an error. With several, each database gives --study where it holds it, else
-- its only study; one that holds several (and not --study) gives the one study the single-study
-- databases name, when exactly one of those is among its studies. The rule looks at every
-- database alike, so the studies picked do not depend on the order of the arguments (issue 56).
local function pick_study(db, path, o, others)
  local names = db:study_names()
  if o.study and #others == 0 then
    for _, n in ipairs(names) do if n == o.study then return n end end
    rlx.fail(1, string.format("rlx report: no study '%s' in %s (studies: %s)", o.study, path,
      #names > 0 and table.concat(names, ", ") or "none"))
  end
  -- No study to report is the database's state (exit 1); several to choose from, a usage error (2).
  local function fail(message, why) rlx.fail(why == "no_study" and 1 or 2, "rlx report: " .. message) end
  if o.study or #others == 0 then return rlx.report._pick_study(db, path, o.study, fail) end
  -- The names the single-study databases give, then each database's pick by them.
  local all = {{names = names, path = path}}
  for _, x in ipairs(others) do all[#all + 1] = x end
  local single = {}
  for _, x in ipairs(all) do if #x.names == 1 then single[x.names[1]] = true end end
  local picks = {}
  for i, x in ipairs(all) do
    if #x.names == 0 then fail(x.path .. " holds no study: run one first (docs/study.md)", "no_study") end
    if #x.names == 1 then picks[i] = x.names[1] else
      local found = {}
      for _, n in ipairs(x.names) do if single[n] then found[#found + 1] = n end end
      if #found ~= 1 then
        fail(string.format("%s holds several studies (%s)%s: name one (--study NAME), or report them all " ..
          "(--all-studies)", x.path, table.concat(x.names, ", "), #found > 1 and
          (" and the other databases name " .. #found .. " of them") or ""), "several")
      end
      picks[i] = found[1]
    end
  end
  return picks[1]
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  if o.title and not o.title:find("%S") then
    args.usage_error("report", "--title is blank: give the report's title, or leave --title out for the default")
  end
  o.db = o.rest[1]
  if o.db:match("%.md$") then
    if #o.rest > 1 then args.usage_error("report", "a Markdown file is rendered alone: give one FILE.md") end
    return render(o)
  end
  -- Every database is read before anything is written (the library opens the others read-only).
  -- Each input is only read: the side files a read-only open makes beside one are removed again.
  local side = {}
  for _, p in ipairs(o.rest) do side[p] = side[p] or rlx.db._side_files(p) end
  local db = dbs.open_readonly("report", o.db)
  local function close_inputs()
    pcall(db.close, db)
    for _, p in ipairs(o.rest) do rlx.db._tidy_side_files(p, side[p]) end
  end
  local others = {}
  for i = 2, #o.rest do
    local other = dbs.open_readonly("report", o.rest[i])
    others[#others + 1] = {names = other:study_names(), path = o.rest[i]}
    other:close()
  end
  if o.all_studies and o.study then args.usage_error("report", "--all-studies and --study NAME exclude each other") end
  local name = not o.all_studies and pick_study(db, o.db, o, others) or nil
  local with = #o.rest > 1 and {unpack(o.rest, 2)} or nil
  local hypotheses
  if o.hypotheses then
    -- Read by rlx's rule for a user's files (a FIFO is refused at once: loadfile waited on it
    -- forever; issue 56 item 4), then compiled under its own name.
    local read, text = pcall(rlx.fs.read, o.hypotheses, {what = "the hypotheses file"})
    if not read then rlx.fail(1, "rlx report: --hypotheses: " .. rlx.errors.message(rlx.errors.pass_exits(text))) end
    local chunk, why = load(text, "@" .. o.hypotheses)
    if not chunk then rlx.fail(1, "rlx report: --hypotheses: " .. tostring(why)) end
    local ran, list = pcall(chunk)
    if not ran then rlx.fail(1, "rlx report: --hypotheses: " .. rlx.errors.text(rlx.errors.pass_exits(list))) end
    if type(list) ~= "table" then
      rlx.fail(1, "rlx report: --hypotheses: " .. o.hypotheses .. " must return a list of hypothesis tables, got " ..
        type(list))
    end
    hypotheses = list
  end
  local ok, r = pcall(rlx.report.write, db, {dir = o.out or "report", study = name, title = o.title,
    html = not o.no_html, quiet = o.quiet, with = with, hypotheses = hypotheses})
  close_inputs()
  if not ok then args.fail("report", r) end
  if not o.quiet then
    print(string.format("wrote %s%s and %d figures (%s%s)", r.markdown, r.html and (", " .. r.html) or "",
      #r.figures, name and ("study " .. name) or "every study",
      with and string.format(", %d databases", #o.rest) or ""))
    for _, m in ipairs(r.missing) do print("  missing: " .. m) end
  end
  return 0
end

M._cmd = cmd  -- its flags and positionals, for tests that walk every command (path_slots.sh)
return M
