-- rlx.report: the study's report, written from its database (docs/report.md).
--
--   study:report{dir = "report"}                  -- report/report.md, report/report.html, report/figures/
--   rlx.report.write(study, {dir = "report"})      -- the same
--   rlx.report.render{markdown = "report/report.md"}   -- report.html again after editing report.md
--   rlx.report.html("| a |\n| - |\n| 1 |")        -- Markdown -> HTML fragment (libcmark-gfm)
--
-- report.md follows seed 001's sections; every number comes from the database and every table row
-- names its runs (Appendix A); prose the data cannot support is a "[TO WRITE]" placeholder.
-- report.html is rendered from report.md by libcmark-gfm (C++, engine/report) with every figure
-- embedded, so it is one file that opens anywhere.
local options = require("rlx.options")
local errors = require("rlx.errors")
local md = require("rlx.report.md")
local configs = require("rlx.studydb.configs")
local compute = require("rlx.report.compute")
local data = require("rlx.studydb.data")
local H = require("rlx.report.hypotheses")
local sections = require("rlx.report.sections")
local roofline = require("rlx.report.roofline")
local analysis = require("rlx.report.analysis")
local back = require("rlx.report.backmatter")
local figures_mod = require("rlx.figures")
local lead = require("rlx.report.lead")
local core = rlx._core.report

local M = {}

-- The seed kit's analysis/roofline.py: training FLOPs per iteration = flops_per_batch_forward x
-- TRAIN_FACTOR, which on rlx's export (flops_per_batch_forward = 2 x MACs x batch) is 4 x MACs per
-- image (docs/export-seed.md, "TRAIN_FACTOR").
M.TRAIN_FACTOR = 2
-- Seed 000's run matrix (§10, "Iters"): 10 warm-up and 100 timed iterations per run.
M.SEED_WARMUP, M.SEED_ITERS = 10, 100

--- Markdown -> HTML fragment.
function M.html(markdown)
  errors.expect("rlx.report.html", markdown, "string", "Markdown text (a string)")
  return core.html(markdown)
end

--- A complete self-contained HTML page: {markdown=, title=, base_dir=, embed_images=} -> {html=, images=}.
M.page = core.page

-- Writes text to path through rlx.fs.write_atomic (temporary file in the same directory, fsync,
-- rename), so a report is never half-written and never replaces the database it was read from.
-- A failure is the caller's (fn): "rlx.fs.write_atomic:" named an internal step (issue 25 finding 11).
local function write_file(fn, path, text, inputs)
  local ok, err = pcall(rlx.fs.write_atomic, path, text, {not_same_as = inputs})
  if not ok then errors.raise(fn, errors.message(errors.pass_exits(err))) end
  return path
end

-- "env, model, precision, batch N" plus the configuration fields this study's rows differ in
-- (rlx.studydb.configs: e.g. "input 48x48"), so two scales never read alike.
local function describer(D)
  return function(g)
    local extra = configs.describe(D.varying or {}, g.runs[1])
    return string.format("%s, %s, %s, batch %s", md.esc(g.env_key), md.esc(g.model), md.esc(g.precision),
      tostring(g.batch)) .. (extra ~= "" and (", " .. md.esc(extra)) or "")
  end
end

-- The footnote of a row: its runs and the rlx runs command that lists them.
local function make_ref(ctx)
  return function(g)
    local id = ctx.refs[g.key]
    if not id then
      id = "R" .. (#ctx.ref_list + 1)
      ctx.refs[g.key] = id
      -- The runs averaged, then those left out with why (issue 34: the footnote said "averaged into"
      -- and listed the left-out runs with them).
      local used, flagged, all = compute.used(g)
      local labels = {}
      for _, r in ipairs(used) do labels[#labels + 1] = md.code(r.label) end
      local runs_text = (all and ("averaged, " .. configs.none_text(flagged) ..
        " (all kept, marked †): ") or "averaged: ") ..
        table.concat(labels, ", ")
      if not all and #flagged > 0 then
        local out = {}
        for _, f in ipairs(flagged) do
          local why = {}
          for _, x in ipairs(f.flags) do why[#why + 1] = x.kind .. (x.text and (", " .. x.text) or "") end
          out[#out + 1] = md.code(f.run.label) .. " (" .. md.esc(table.concat(why, "; ")) .. ")"
        end
        runs_text = runs_text .. "; left out: " .. table.concat(out, ", ")
      end
      -- Every value shell-quoted (issue 25 finding 4: a hostile study or model name ran when pasted).
      -- The database and study holding the row's runs (a report over several databases names each).
      local src = data.source_of(ctx.D, g.runs[1])
      local words = {"rlx", "runs", src.path or "DB", {"--env", g.env_label or g.env}, {"--model", g.model},
        {"--precision", tostring(g.precision)}, {"--batch", tostring(g.batch)}}
      if g.env_key ~= g.env then words[#words + 1] = {"--device", tostring(g.device)} end
      -- A label two environments share: the environment's id tells its runs apart.
      if g.runs[1].env_shared then
        words[#words + 1] = {"--env-id", tostring(g.runs[1].environment_id):sub(1, 8)}
      end
      -- Two input sizes (or rank counts) of one configuration: the command lists this row's only.
      for _, f in ipairs(ctx.D.varying or {}) do
        if f.name == "input" then words[#words + 1] = {"--input", tostring(g.config.input)} end
        if f.name == "ranks" then words[#words + 1] = {"--ranks", tostring(g.config.ranks)} end
      end
      if src.study then words[#words + 1] = {"--study", src.study} end
      local cmd = md.shell(words)
      ctx.ref_list[#ctx.ref_list + 1] = string.format("[^%s]: %s: %s. Show them: %s", id, ctx.describe(g),
        runs_text, md.code(cmd))
    end
    return "[^" .. id .. "]"
  end
end

local function counter_summary(D)
  local sources = {}
  for _, rows in pairs(D.counters) do
    for _, c in ipairs(rows) do sources[(c.source:gsub(":derived$", ""))] = true end
  end
  local list = {}
  for s in pairs(sources) do list[#list + 1] = s end
  table.sort(list)
  if #list == 0 then return "none stored (roofline points are estimated from the analytic complexity)" end
  return "stored from " .. table.concat(list, ", ") .. " (counted iterations are not the timed ones)"
end

--- The report's Markdown for loaded data D (rlx.studydb.data.load), the figures drawn for it
--- ({figure=, env=, model=, rel=}) and the figures' warnings. Returns text, ctx.
function M._markdown(D, opts)
  opts = opts or {}
  local ctx = {D = D, doc = md.doc(), missing = {}, refs = {}, ref_list = {}, figures = opts.figures or {},
    figure_warnings = opts.figure_warnings or {}, figures_not_drawn = opts.figures_not_drawn or {},
    TRAIN_FACTOR = M.TRAIN_FACTOR,
    SEED_WARMUP = M.SEED_WARMUP, SEED_ITERS = M.SEED_ITERS, title = opts.title,
    dir = opts.dir, rlx_version = opts.rlx_version, describe = describer(D), counter_summary = counter_summary(D)}
  ctx.ref = make_ref(ctx)
  -- Footnotes numbered in the rows' order (Table 2's), whichever section cites a row first: the
  -- drafts cite rows before the tables list them.
  for _, g in ipairs(D.groups) do ctx.ref(g) end
  -- Declared hypotheses, judged once: §2 lists them, §6.6 gives the numbers, §9 counts the verdicts.
  ctx.hypotheses, ctx.verdicts = {}, {}
  for _, h in ipairs(opts.hypotheses or {}) do
    local result = H.judge(D, h)
    ctx.hypotheses[#ctx.hypotheses + 1] = {h = h, result = result}
    ctx.verdicts[#ctx.verdicts + 1] = result
  end
  -- Long per-configuration tables go to Appendix F (issue 34: the template's sections drowned in
  -- wide tables); the body keeps seed 001's tables and a sentence pointing at each of these.
  ctx.long_tables = {}
  function ctx.to_appendix(title, paragraphs)
    local id = "F." .. (#ctx.long_tables + 1)
    ctx.long_tables[#ctx.long_tables + 1] = {id = id, title = title, paragraphs = paragraphs}
    return "Appendix " .. id
  end
  if #D.ok == 0 then ctx.missing[1] = "no successful runs: nothing was measured" end
  local body = ctx.doc
  sections.abstract(ctx)
  sections.introduction(ctx)
  sections.design(ctx)
  sections.complexity(ctx)
  sections.measurement(ctx)
  roofline.section(ctx)
  analysis.section(ctx)
  back.reproducibility(ctx)
  back.limitations(ctx)
  back.figures(ctx)
  back.appendix(ctx)
  -- The title and the list of what is missing go first, once every section has said what it lacks.
  ctx.doc = md.doc()
  sections.title(ctx)
  sections.missing(ctx)
  return ctx.doc:text() .. "\n" .. body:text(), ctx
end

local function basename(p) return (p:match("([^/]+)$")) end

-- The figures of loaded data D drawn into dir/figures (PNG, embedded in the HTML), with relative
-- links.
local function draw_figures(D, dir, figures_rel, quiet)
  local fig = figures_mod._draw_loaded(D, {dir = dir .. "/" .. figures_rel, quiet = true, format = "png"})
  local files = {}
  for _, f in ipairs(fig.files) do
    local copy = {}
    for k, v in pairs(f) do copy[k] = v end
    copy.rel = figures_rel .. "/" .. basename(f.path)
    files[#files + 1] = copy
  end
  if not quiet then
    for _, w in ipairs(fig.warnings) do io.stderr:write("rlx.report: " .. w .. "\n") end
  end
  return files, fig.warnings, fig.not_drawn
end

local WRITE_SPEC = {
  with = {type = "string_list"},
  hypotheses = {type = "table"},
  dir = {type = "string", default = "report"},
  figures = {type = "string", default = "figures"},
  title = {type = "string"},
  html = {type = "boolean", default = true},
  study = {type = "string"},
  quiet = {type = "boolean", default = false},
}

--- The study of database `path` (open as conn) a report over several databases reads: `wanted`
--- when the database holds it, else its only study; nil (every study) when wanted is false.
--- fail(message, why, cause) ends the caller when the database holds no study (why = "no_study"),
--- or several and none is `wanted` (why = "several"; cause is the message without its advice, for a
--- caller whose fix is another flag).
function M._pick_study(conn, path, wanted, fail)
  if wanted == false then return nil end
  local names = conn:study_names()
  for _, n in ipairs(names) do if n == wanted then return n end end
  if #names == 1 then return names[1] end
  if #names == 0 then fail(path .. " holds no study: run one first (docs/study.md)", "no_study") end
  local several = string.format("%s holds several studies (%s)%s", path, table.concat(names, ", "),
    wanted and (" and none named '" .. wanted .. "'") or "")
  fail(several .. ": name one (--study NAME), or report them all (--all-studies)", "several", several)
end

-- The other databases of a report (option 'with'), each opened read-only, with its study: the
-- report's own study name where it holds it, else its only one; every study when the report is
-- over every study (name nil). Returns the sources ({db, study, path}) and the connections to close.
local function with_sources(paths, name)
  local sources, conns = {}, {}
  local function fail(message)
    for _, c in ipairs(conns) do pcall(c.close, c) end
    errors.raise("rlx.report.write", "option 'with': " .. message)
  end
  for _, p in ipairs(paths or {}) do
    local before = rlx.db._side_files(p)
    local ok, conn = pcall(rlx.db.open, p, {readonly = true})
    if not ok then fail(errors.message(errors.pass_exits(conn))) end
    conns[#conns + 1] = conn
    conns[conn] = {path = p, before = before}
    sources[#sources + 1] = {db = conn, path = p, study = M._pick_study(conn, p, name or false, fail)}
  end
  return sources, conns
end

--- Writes dir/report.md, dir/report.html and the figures (dir/<figures>/) for a study (an rlx.study
--- object) or an open database connection plus opts.study; opts.with: further databases (paths,
--- opened read-only) reported with it as one, as if merged (rlx.studydb.data.load_many). Returns
--- {markdown=, html=, figures=, warnings=, missing=}.
function M.write(source, opts)
  local o = options.check("rlx.report.write", opts, WRITE_SPEC)
  if o.title and not o.title:find("%S") then
    errors.raise("rlx.report.write", "option 'title' is blank: give the report's title, or leave it out for the default")
  end
  local db, name, path
  if type(source) == "table" and source.db then
    db, name, path = source.db, o.study or source.name, source.path
  elseif type(source) == "userdata" then
    db, name, path = source, o.study, source:path()
  else
    errors.raise("rlx.report.write", "expected a study (rlx.study{...}) or a database (rlx.db.open), got " ..
      type(source))
  end
  -- Each entry may be a comma-separated list, as `--set with=a.db,b.db` gives it.
  if o.with then
    local list = {}
    for _, entry in ipairs(type(o.with) == "table" and o.with or {o.with}) do
      for p in tostring(entry):gmatch("[^,]+") do list[#list + 1] = p end
    end
    o.with = list
  end
  if o.figures:find("^/") or o.figures:find("%.%.") then
    errors.raise("rlx.report.write", "option 'figures' must be a folder inside dir (relative, no '..'), got '" ..
      o.figures .. "'")
  end
  -- Every output is checked before anything is drawn (issue 25): the folders made, report.md and
  -- report.html writable and no database (`rlx report DB --out DB` named rlx.plot.mkdir).
  local usable, why = pcall(function()
    rlx.fs.check_output(o.dir, "folder", {what = "the report's folder"})
    rlx.fs.check_output(o.dir .. "/" .. o.figures, "folder", {what = "the figures' folder"})
    rlx.fs.check_output(o.dir .. "/report.md", "file")
    if o.html then rlx.fs.check_output(o.dir .. "/report.html", "file") end
  end)
  if not usable then errors.raise("rlx.report.write", errors.message(errors.pass_exits(why))) end
  -- The hypotheses to judge: the study's declared ones (study:hypothesis), then opts.hypotheses.
  local hyps = type(source) == "table" and H.of(source) or {}
  for i, h in ipairs(o.hypotheses or {}) do
    local checked = H.check("rlx.report.write: hypotheses[" .. i .. "]", h)
    checked.given_after_runs = type(source) ~= "table"  -- a database's runs are done; a study's are to come
    hyps[#hyps + 1] = checked
  end
  local others, conns = with_sources(o.with, name)
  local loaded, D = pcall(function()
    local list = {{db = db, study = name, path = path}}
    for _, x in ipairs(others) do list[#list + 1] = x end
    return data.load_many(list)
  end)
  for _, c in ipairs(conns) do
    pcall(c.close, c)
    rlx.db._tidy_side_files(conns[c].path, conns[c].before)
  end
  if not loaded then error(D, 0) end
  local figures, warnings, not_drawn = draw_figures(D, o.dir, o.figures, o.quiet)
  local text, ctx = M._markdown(D, {figures = figures, figure_warnings = warnings, figures_not_drawn = not_drawn,
    title = o.title, dir = o.dir,
    rlx_version = rlx._core.host.versions().rlx, hypotheses = hyps})
  local out = {markdown = o.dir .. "/report.md", figures = figures, warnings = warnings,
    missing = sections.missing_lines(ctx), hypotheses = ctx.hypotheses}
  local inputs = path and {path} or {}
  for _, p in ipairs(o.with or {}) do inputs[#inputs + 1] = p end
  -- report.md and report.html together, all or none: a full disk left a new report.md beside an
  -- old report.html.
  local files = {{out.markdown, text}}
  if o.html then
    out.html = o.dir .. "/report.html"
    local page = core.page{markdown = text, title = o.title or lead.default_title(D),
      base_dir = o.dir}
    files[2] = {out.html, page.html}
  end
  local ok, err = pcall(rlx.fs.write_atomic_all, files, {not_same_as = inputs})
  if not ok then errors.raise("rlx.report.write", errors.message(errors.pass_exits(err))) end
  return out
end

--- Renders an edited report.md again: {markdown = path, out = path (default: .html beside it),
--- title = ...}. Images are read relative to the Markdown file's folder. Returns the output path.
function M.render(opts)
  local o = options.check("rlx.report.render", opts, {markdown = {type = "string", required = true},
    out = {type = "string"}, title = {type = "string"}})
  -- Read by the one rule for a user's files: a FIFO named .md used to block the report.
  local read, text = pcall(rlx.fs.read, o.markdown, {what = "the Markdown file"})
  if not read then errors.raise("rlx.report.render", errors.message(errors.pass_exits(text))) end
  local dir = o.markdown:match("^(.*)/[^/]*$") or "."
  local out = o.out or (o.markdown:gsub("%.[^./]*$", "") .. ".html")
  local title = o.title or text:match("^#%s+([^\n]+)") or "rlx report"
  -- An output that is a study database is refused before rendering (issue 25 finding 6).
  local usable, why = pcall(rlx.fs.check_output, out, "file")
  if not usable then errors.raise("rlx.report.render", errors.message(errors.pass_exits(why))) end
  write_file("rlx.report.render", out, core.page{markdown = text, title = title, base_dir = dir}.html, {o.markdown})
  return out
end

return M
