-- rlx.help: documentation at the prompt. help(rlx.train), help("study:runs") and `?rlx.train` in
-- the REPL print that function's section of the Lua API reference; help() lists the tables.
--
-- The text is docs/lua-api.md and docs/lua-api/*.md as they were when the binary was built
-- (embedded by cmake/EmbedDocs.cmake, read with rlx._core.host.docs()), so it cannot drift from
-- the docs. This module cuts the pages into entries: every name written in a "##" or "###"
-- heading (rlx.plot.line, study:runs, conn:query, rows:where) gets that section, every name that
-- starts a bullet ("- `rlx.plot.pixel(path, x, y)` -> ...") gets the bullet, and a page whose
-- title is a table ("# rlx.plot") gives that table its introduction and list of sections.
local study = require("rlx.study")
local frame = require("rlx.frame")
local show = require("rlx.show")
local M = {}

-- Internal names start with "_", as Neovim's vim._core: a module file _name.lua, inside its
-- concern's folder (rlx.study._slot, rlx.frame._agg: parts of a public module, documented with it) or a function
-- rlx.table._name (rlx.errors._new, rlx.options._from_text: building blocks of rlx's own modules,
-- described where they are defined). M.missing() checks every other name; no list to keep.

-- The receivers that method names are written with in the docs, and their method tables.
local RECEIVERS = {
  study = function() return study.methods end,
  conn = function() return debug.getregistry()["rlx.db.connection"].__index end,
  rows = function() return frame.methods end,
  grouped = function() return frame.grouped_methods end,
}

-- Tables documented on the lua-api.md page itself (the others are in its index table) and the
-- REPL's own.
local EXTRA_TABLES = {"rlx.json", "rlx.options", "rlx.errors", "rlx.params", "rlx.frame", "rlx.show", "rlx.help"}

local index  -- built on first use: {entries = name -> {texts}, pages = name -> page, tables = {...}}

local function names_in(text)
  local out = {}
  for name in text:gmatch("rlx%.[%a_][%w_%.]*") do out[#out + 1] = (name:gsub("%.+$", "")) end
  for recv, method in text:gmatch("%f[%w_]([%a_][%w_]*):([%a_][%w_]*)") do
    if RECEIVERS[recv] then out[#out + 1] = recv .. ":" .. method end
  end
  return out
end

local function add(entries, name, text, path)
  entries[name] = entries[name] or {}
  local list = entries[name]
  for _, e in ipairs(list) do
    if e.text == text then return end
  end
  list[#list + 1] = {text = text, path = path}
end

local function trim_block(lines, from, to)
  while to >= from and lines[to]:match("^%s*$") do to = to - 1 end
  return table.concat(lines, "\n", from, to)
end

-- The names a bullet or a table row starts with: one or more `code` spans joined by "/", ",",
-- "and" or "or" ("- `rlx.db.encode(v)` / `rlx.db.decode(text)`: ...").
local function leading_names(rest)
  local out = {}
  while true do
    local code, after = rest:match("^`([^`]+)`(.*)$")
    local name = code and code:match("^[%a_][%w_]*[%.:][%w_%.:]*[%w_]")
    -- "rlx.train: option 'batch' ..." is an error message, not a name being documented.
    local next_char = name and code:sub(#name + 1, #name + 1)
    if not name or not (next_char == "" or next_char:match("[%({%[%s]")) then break end
    for _, n in ipairs(names_in(name)) do out[#out + 1] = n end
    local sep = after:match("^%s*[/,]%s*") or after:match("^%s+and%s+") or after:match("^%s+or%s+")
    if not sep then break end
    rest = after:sub(#sep + 1)
  end
  return out
end

-- Cuts one page into entries and, when its title names a table, a page entry. Sections are also
-- kept (idx.sections) for the names they only mention (see mentions()).
local function parse_page(path, text, idx)
  local lines = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = line end
  local heads, in_code = {}, false
  for i, line in ipairs(lines) do
    if line:match("^```") then in_code = not in_code end
    local hashes = not in_code and line:match("^(#+) ")
    if hashes then heads[#heads + 1] = {line = i, level = #hashes, text = line:sub(#hashes + 2)} end
  end
  for h, head in ipairs(heads) do
    local stop = #lines
    for k = h + 1, #heads do
      if heads[k].level <= head.level then stop = heads[k].line - 1 break end
    end
    local body = trim_block(lines, head.line, stop)
    local names = names_in(head.text)
    if head.level >= 2 then
      for _, name in ipairs(names) do add(idx.entries, name, body, path) end
    end
    idx.sections[#idx.sections + 1] = {text = body, path = path, names = names}
  end
  for i, line in ipairs(lines) do
    -- A bullet that starts with names: the bullet and its indented continuation lines.
    local rest = line:match("^%- (`.*)$")
    if rest then
      local stop = i
      while lines[stop + 1] and lines[stop + 1]:match("^  +%S") do stop = stop + 1 end
      local body = table.concat(lines, "\n", i, stop)
      for _, name in ipairs(leading_names(rest)) do add(idx.entries, name, body, path) end
    end
    -- A table row that starts with a call ("| `rlx.experiment.pick(dir, kind, labels)` | ..."): the
    -- call and the row's other cells below it.
    local first, cells = line:match("^| (`[^|]*) |(.*)|%s*$")
    if first and first:match("^`[^`]*[%({]") then
      local names = leading_names(first)
      if #names > 0 then
        local body = first:gsub("`", "") .. "\n  " .. cells:gsub("^%s+", ""):gsub("%s*|%s*", "; ")
        for _, name in ipairs(names) do add(idx.entries, name, body, path) end
      end
    end
  end
  local title = heads[1] and heads[1].level == 1 and heads[1].text
  local page_name = title and title:match("^(rlx%.[%a_][%w_]*)$")
  if path == "docs/lua-api.md" then page_name = "rlx" end
  if page_name then
    local first_section = heads[2] and heads[2].line - 1 or #lines
    local sections = {}
    for _, head in ipairs(heads) do
      if head.level == 2 then sections[#sections + 1] = head.text end
    end
    idx.pages[page_name] = {intro = trim_block(lines, heads[1].line, first_section), sections = sections, path = path}
  end
  if path == "docs/lua-api.md" then
    for _, line in ipairs(lines) do
      local names, what = line:match("^| (`rlx[^|]*) | ([^|]+) |")
      if names then
        for name in names:gmatch("`(rlx%.[%a_][%w_]*)`") do idx.tables[#idx.tables + 1] = {name = name, what = what} end
      end
    end
  end
end

-- A name with no section or bullet of its own but written as a call in a section's text
-- ("`rlx.peaks.reset()` forgets ...") gets that section: preferably one whose heading names its
-- table (rlx.errors for rlx.errors.text), else one on its table's page, else the first.
local function mentions(idx)
  local best = {}
  for _, sec in ipairs(idx.sections) do
    for code in sec.text:gmatch("`([^`]+)`") do
      local name = code:match("^([%a_][%w_]*[%.:][%w_%.:]*[%w_])[%({]")
      if name and not idx.entries[name] then
        for _, n in ipairs(names_in(name)) do
          if n == name then
            local table_name = name:match("^(rlx%.[%a_][%w_]*)%.") or name:match("^([%a_][%w_]*):")
            local score = 0
            for _, h in ipairs(sec.names) do
              if h == table_name or h:sub(1, #table_name + 1) == table_name .. ":" then score = 2 end
            end
            if score == 0 and table_name and sec.path:find("/" .. table_name:gsub("^rlx%.", "") .. ".md", 1, true) then
              score = 1
            end
            if not best[name] or score > best[name].score then best[name] = {score = score, sec = sec} end
          end
        end
      end
    end
  end
  for name, b in pairs(best) do add(idx.entries, name, b.sec.text, b.sec.path) end
end

-- Other names of documented functions (the docs say they are the same call).
M.ALIASES = {["rlx.train.run"] = "rlx.train", ["rlx.study.open"] = "rlx.study"}

-- The parsed reference: {entries = {name = {{text =, path =}, ...}}, pages = {name = {intro =,
-- sections =, path =}}, tables = {{name =, what =}, ...}}.
local function get_index()
  if index then return index end
  index = {entries = {}, pages = {}, tables = {}, sections = {}}
  for _, doc in ipairs(rlx._core.host.docs()) do parse_page(doc.path, doc.text, index) end
  mentions(index)
  for alias, name in pairs(M.ALIASES) do index.entries[alias] = index.entries[alias] or index.entries[name] end
  return index
end

-- The value a documented name stands for, or nil.
local function resolve(name)
  local recv, method = name:match("^([%a_][%w_]*):([%a_][%w_]*)$")
  if recv then
    local ok, methods = pcall(RECEIVERS[recv])
    return ok and type(methods) == "table" and rawget(methods, method) or nil
  end
  local v = _G
  for part in name:gmatch("[^%.]+") do
    if type(v) ~= "table" then return nil end
    local ok, nxt = pcall(function() return v[part] end)
    if not ok then return nil end
    v = nxt
  end
  return v
end

local by_value  -- value -> documented name

local function name_of(value)
  if not by_value then
    by_value = {}
    local idx = get_index()
    local names = {}
    for name in pairs(idx.entries) do names[#names + 1] = name end
    for name in pairs(idx.pages) do names[#names + 1] = name end
    -- Shorter names first, so rlx.train wins over an alias such as rlx.train.run.
    table.sort(names, function(a, b) return #a < #b or (#a == #b and a < b) end)
    for _, name in ipairs(names) do
      local v = resolve(name)
      if (type(v) == "function" or type(v) == "table") and by_value[v] == nil then by_value[v] = name end
    end
  end
  return by_value[value]
end

local function lookup_name(text)
  local name = text:gsub("^%s+", ""):gsub("%s+$", ""):gsub("%b()$", ""):gsub("%b{}$", "")
  return name
end

-- Entries whose last part is `word` (help("agg") finds grouped:agg and rows:agg).
local function candidates(word)
  local out = {}
  for name in pairs(get_index().entries) do
    if name:match("[%.:]" .. word:gsub("%p", "%%%0") .. "$") then out[#out + 1] = name end
  end
  table.sort(out)
  return out
end

local function page_text(name, page)
  local lines = {page.intro, "", "Sections (help(\"" .. name .. ".NAME\") or ?" .. name .. ".NAME for one):"}
  for _, s in ipairs(page.sections) do lines[#lines + 1] = "  " .. s end
  lines[#lines + 1] = "(" .. page.path .. ")"
  return table.concat(lines, "\n")
end

-- What help() prints: the tables, one line each.
local function overview()
  local idx = get_index()
  local lines = {"rlx: the Lua API (docs/lua-api.md). help(rlx.train) or ?rlx.train shows one function;",
    "help(rlx.plot) lists a table's functions; help(rows) the frame methods (rows:where, :group_by, ...).", ""}
  local seen = {}
  local function row(name, what)
    if seen[name] then return end
    seen[name] = true
    lines[#lines + 1] = string.format("  %-16s %s", name, what)
  end
  for _, t in ipairs(idx.tables) do row(t.name, t.what) end
  row("rlx.json", "JSON text <-> Lua values")
  row("rlx.errors", "structured errors")
  row("rlx.options", "option checking for your own functions")
  return table.concat(lines, "\n")
end

--- The help text for a name ("rlx.train", "study:runs", "rows:where"), or nil and a message.
function M.text(name)
  local idx = get_index()
  local entries, page = idx.entries[name], idx.pages[name]
  if name == "rlx" then return overview() end
  if entries then
    local parts = {}
    for _, e in ipairs(entries) do parts[#parts + 1] = e.text .. "\n(" .. e.path .. ")" end
    if page then
      local others = {}
      for _, sec in ipairs(page.sections) do
        if not sec:find(name .. "(", 1, true) and not sec:find(name .. "{", 1, true) then others[#others + 1] = sec end
      end
      if #others > 0 then
        parts[#parts + 1] = "Also in " .. page.path .. " (?NAME for one):\n  " .. table.concat(others, "\n  ")
      end
    end
    return table.concat(parts, "\n\n")
  end
  if page then return page_text(name, page) end
  local found = candidates(name:match("[%w_]+$") or name)
  if #found > 0 then
    return nil, string.format("no help for '%s'; did you mean %s?", name, table.concat(found, ", "))
  end
  return nil, string.format("no help for '%s': help() lists the tables", name)
end

local function display_for(x)
  if x == nil then return overview() end
  if type(x) == "string" then
    local name = lookup_name(x:gsub("^%?", ""))
    if name == "" then return overview() end
    return M.text(name)
  end
  if x == rlx then return overview() end
  if frame.is(x) then return M.text("rlx.frame") end
  if type(x) == "table" and getmetatable(x) == frame.grouped_metatable then return M.text("grouped:agg") end
  if type(x) == "table" and getmetatable(x) == study.methods then return M.text("rlx.study") end
  local name = name_of(x)
  if name then return M.text(name) end
  if type(x) == "function" then
    return nil, "no documentation for this function (one of your own, or internal): help() lists the tables"
  end
  return nil, "help: give a function, a table or a name such as \"rlx.train\" or \"study:runs\"; got a " .. type(x)
end

--- help([x]): prints the documentation of x (a function, a table or a name); see the top.
-- Words of text in lines of at most width columns, later lines indented by `indent`.
local function wrap(text, width, indent)
  local lines, line = {}, ""
  for word in text:gmatch("%S+") do
    if line ~= "" and #line + 1 + #word > width then
      lines[#lines + 1] = line
      line = indent .. word
    else
      line = line == "" and word or (line .. " " .. word)
    end
  end
  lines[#lines + 1] = line
  return table.concat(lines, "\n")
end

local function cells(row)
  local out = {}
  row = row:gsub("\\|", "\0"):gsub("^%s*|", ""):gsub("|%s*$", "")
  for cell in (row .. "|"):gmatch("([^|]*)|") do out[#out + 1] = (cell:gsub("%z", "|"):match("^%s*(.-)%s*$")) end
  return out
end

--- The text as help prints it on a terminal `width` columns wide: Markdown tables, whose rows are
--- too long for a terminal, become one wrapped item per row ("- `batch` (default `32`): images
--- per iteration (integer >= 1)"); code blocks and other lines are kept as written.
function M.render(text, width)
  local out, head, in_code = {}, nil, false
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    if line:match("^```") then in_code = not in_code end
    if not in_code and line:match("^|") then
      local row = cells(line)
      if not head then
        head = row
      elseif not line:match("^|[%s%-:|]+$") then
        -- The first cell, the middle ones with their headers in brackets, the last after ":".
        local middle = {}
        for i = 2, #row - 1 do middle[#middle + 1] = (head[i] and head[i] ~= "" and (head[i] .. " ") or "") .. row[i] end
        local item = "- " .. row[1] .. (#middle > 0 and (" (" .. table.concat(middle, "; ") .. ")") or "") ..
          (#row > 1 and (": " .. row[#row]) or "")
        out[#out + 1] = wrap(item, width, "    ")
      end
    else
      head = nil
      out[#out + 1] = line
    end
  end
  return table.concat(out, "\n")
end

function M.help(...)
  local x = ...
  local text, err
  if x == nil and select("#", ...) > 0 then
    -- help(rlx.trian): a misspelt name is nil, which is not help() (issue 35 item 11).
    err = "help: the value given is nil (a misspelt name, or a variable that is not set); help() lists the " ..
      "tables, help(\"rlx.train\") takes a name"
  else
    text, err = display_for(x)
  end
  io.write(text and M.render(text, show.terminal_width() or 100) or err, "\n")
  io.stdout:flush()
end

--- Public functions (those of the tables documented in docs/lua-api.md, their methods, rlx.*) with
--- no help entry. A name that starts with "_" (a module rlx._x, a function t._f) is internal.
function M.missing()
  local idx = get_index()
  local tables = {}
  for _, t in ipairs(idx.tables) do tables[#tables + 1] = t.name end
  for _, t in ipairs(EXTRA_TABLES) do tables[#tables + 1] = t end
  local modules = {}
  for name in pairs(package.preload) do
    if name:match("^rlx%.[%a][%w_]*$") then modules[#modules + 1] = name end
  end
  table.sort(modules)
  for _, name in ipairs(modules) do tables[#tables + 1] = name end
  local want = {}
  local function need(name) want[name] = true end
  local function public(k, v) return type(k) == "string" and type(v) == "function" and k:sub(1, 1) ~= "_" end
  for k, v in pairs(rlx) do
    if public(k, v) then need("rlx." .. k) end
  end
  for _, tname in ipairs(tables) do
    local t = resolve(tname)
    if type(t) == "table" then
      local meta = getmetatable(t)
      if meta and meta.__call then need(tname) end
      for k, v in pairs(t) do
        if public(k, v) then need(tname .. "." .. k) end
      end
    end
  end
  for recv, get in pairs(RECEIVERS) do
    for k, v in pairs(get()) do
      if public(k, v) then need(recv .. ":" .. k) end
    end
  end
  local missing = {}
  for name in pairs(want) do
    if not idx.entries[name] then missing[#missing + 1] = name end
  end
  table.sort(missing)
  return missing
end

return setmetatable(M, {__call = function(_, ...) return M.help(...) end})
