-- rlx report: writes a study's report (report.md, report.html, figures/) from its database, or
-- renders an edited report.md to HTML again. The work is rlx.report (scripts/rlx/report.lua).
local args = require("rlx.cli.args")
local M = {summary = "write a study's report: report.md (seed 001's sections), report.html, figures",
  synopsis = "report DB [--out DIR] [--study NAME]"}

local cmd = {name = "report", usage = "rlx report DB [--out DIR] [--study NAME] [options]\n" ..
    "       rlx report FILE.md [--out FILE.html]",
  description = "Writes DIR/report.md in seed 001's section order with every number computed from DB and\n" ..
    "every table row traced to its runs (Appendix A), DIR/figures/*.png, and DIR/report.html: the\n" ..
    "Markdown rendered by libcmark-gfm with the figures embedded (one file, opens in any browser).\n" ..
    "Paragraphs the data cannot support are marked [TO WRITE]. DB is only read.\n" ..
    "Given a .md file instead, renders it (after your edits) to HTML beside it.",
  options = {
    {"out", "--out", metavar = "DIR", help = "output folder (default: report); with FILE.md the HTML file"},
    {"study", "--study", metavar = "NAME", help = "the study to report (needed when DB holds several)"},
    {"all_studies", "--all-studies", type = "boolean",
      help = "report every study of DB as one (machines that ran the matrix under different study names)"},
    {"title", "--title", help = "the report's title"},
    {"no_html", "--no-html", type = "boolean", help = "write report.md and the figures only"},
    {"quiet", "--quiet", type = "boolean", help = "print nothing on success"},
  },
  positionals = {{"db"}},
  epilog = "Look at it: open DIR/report.html in a browser, or without a display:\n" ..
    "  chromium --headless --screenshot=report.png --window-size=1200,4000 DIR/report.html\n" ..
    "Find what is left to write: grep -n 'TO WRITE' DIR/report.md (docs/report.md)."}

local function render(o)
  local ok, out = pcall(rlx.report.render, {markdown = o.db, out = o.out, title = o.title})
  if not ok then args.fail("report", out) end
  if not o.quiet then print("wrote " .. out) end
  return 0
end

-- The study to report: --study, else the only one in the database.
local function pick_study(db, o)
  local names = db:study_names()
  if o.study then
    for _, n in ipairs(names) do if n == o.study then return n end end
    rlx.fail(1, string.format("rlx report: no study '%s' in %s (studies: %s)", o.study, o.db,
      #names > 0 and table.concat(names, ", ") or "none"))
  end
  if #names == 0 then rlx.fail(1, "rlx report: " .. o.db .. " holds no study: run one first (docs/study.md)") end
  if #names > 1 then
    rlx.fail(2, string.format("rlx report: %s holds several studies (%s): add --study NAME", o.db,
      table.concat(names, ", ")))
  end
  return names[1]
end

function M.main(...)
  local o = args.parse(cmd, {...})
  if not o then return 0 end
  if o.title and not o.title:find("%S") then
    args.usage_error("report", "--title is blank: give the report's title, or leave --title out for the default")
  end
  if o.db:match("%.md$") then return render(o) end
  local db = require("rlx.cli.runs").open_readonly("report", o.db)
  if o.all_studies and o.study then args.usage_error("report", "--all-studies and --study NAME exclude each other") end
  local name = not o.all_studies and pick_study(db, o) or nil
  local ok, r = pcall(rlx.report.write, db, {dir = o.out or "report", study = name, title = o.title,
    html = not o.no_html, quiet = o.quiet})
  if not ok then args.fail("report", r) end
  if not o.quiet then
    print(string.format("wrote %s%s and %d figures (%s)", r.markdown, r.html and (", " .. r.html) or "",
      #r.figures, name and ("study " .. name) or "every study"))
    for _, m in ipairs(r.missing) do print("  missing: " .. m) end
  end
  return 0
end

return M
