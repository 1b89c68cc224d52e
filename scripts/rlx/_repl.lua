-- rlx._repl: what `rlx repl` does with each chunk of input (host/repl.cpp reads the lines).
-- eval(chunk) returns "ok", "error" or "incomplete" (the statement is unfinished: read more).
-- A chunk is first tried as an expression ("return " .. chunk) so a bare expression prints its
-- value. Lists of records (query results, study:runs, frames) print as tables (rlx.show), other
-- values with rlx._pretty. "?name" prints name's documentation (rlx.help). complete(prefix) returns
-- completions of names, fields and methods (frames' included).
local pretty = require("rlx._pretty")
local show = require("rlx.show")
local M = {}

--- How the REPL prints one value: a table for records, the summary of a group_by, nothing for a
--- chart's info (rows:plot printed the path), else pretty. nil: print nothing.
function M.display(v)
  if show.is_records(v) then return show.format(v) end
  local meta = type(v) == "table" and getmetatable(v) or nil
  local frame, plot = package.loaded["rlx.frame"], package.loaded["rlx.plot"]
  if meta and frame and meta == frame.grouped_metatable then return tostring(v) end
  if meta and plot and meta == plot.info_metatable then return nil end
  return pretty.format(v)
end

local function is_incomplete(err)
  return err:find("'<eof>'$") ~= nil or err:find("<eof>$") ~= nil
end

-- What an error prints at the prompt. An rlx error: "fn: message" (rlx.errors.text: the function
-- that failed, without the position, which is always the line just typed). Anything else: the
-- value and a traceback that stops at the REPL's own xpcall (frames below it are rlx's, not the
-- user's), without frames of builtins that name no line; no traceback when none is left.
local function handler(err)
  local errors = require("rlx.errors")
  if errors.is(err) then return errors.text(err) end
  if type(err) == "table" and err.message then return tostring(err.message) end
  local tb = debug.traceback(tostring(err), 2)
  local cut = tb:find("\n%s*%[C%]: in function 'xpcall'")
  tb = cut and tb:sub(1, cut - 1) or tb
  local lines = {}
  for line in (tb .. "\n"):gmatch("([^\n]*)\n") do
    if not line:match("^%s*%[builtin#%d+%]: at 0x%x+$") then lines[#lines + 1] = line end
  end
  if lines[#lines] == "stack traceback:" then lines[#lines] = nil end
  return table.concat(lines, "\n")
end

function M.eval(chunk)
  local topic = chunk:match("^%s*%?(.*)$")
  if topic then
    rlx.help(topic:match("^%s*(.-)%s*$"))
    return "ok"
  end
  local f, err = loadstring("return " .. chunk, "=stdin")
  if not f then f, err = loadstring(chunk, "=stdin") end
  if not f then
    if is_incomplete(err) then return "incomplete" end
    io.stderr:write(err, "\n")
    return "error"
  end
  local results = {xpcall(f, handler)}
  if not results[1] then
    io.stderr:write(tostring(results[2]), "\n")
    return "error"
  end
  local n = table.maxn(results)
  local texts, multi = {}, false
  for i = 2, n do
    local text = M.display(results[i])
    if text then
      texts[#texts + 1] = text
      multi = multi or text:find("\n") ~= nil
    end
  end
  -- Several values print on one line, tab-separated, unless one of them is a table of lines.
  if #texts > 0 then io.write(table.concat(texts, multi and "\n" or "\t"), "\n") end
  io.stdout:flush()
  return "ok"
end

--- Before the first line: with `rlx repl --db PATH`, `db` is that database (rlx.db.open, never
--- created) and, when it holds exactly one study, `study` is that study (rlx.study{name=, db=}).
--- Says what it opened on stderr when interactive (mode "tty"). Returns "ok" or "error".
function M.start(mode)
  -- help(x) and ?x: documentation at the prompt (rlx.help).
  if rawget(_G, "help") == nil then _G.help = rlx.help end
  local path = rlx.params and rlx.params.db
  if path == nil then return "ok" end
  local ok, conn = pcall(rlx.db.open, path, {create = false})
  if not ok then
    io.stderr:write("rlx repl: --db ", tostring(path), ": ", require("rlx.errors").message(conn), "\n")
    return "error"
  end
  _G.db = conn
  local studies = conn:query("SELECT name FROM studies ORDER BY name")
  local runs = conn:first("SELECT count(*) AS n FROM runs").n
  local names = {}
  for i, s in ipairs(studies) do names[i] = s.name end
  local said = string.format("db = %s (%d runs; studies: %s)", path, runs, #names > 0 and table.concat(names, ", ") or "none")
  if #names == 1 then
    local ok2, st = pcall(rlx.study, {name = names[1], db = path})
    if ok2 then
      _G.study = st
      said = said .. string.format("; study = rlx.study{name = %q}: try study:runs{}, study:figures{}", names[1])
    end
  end
  if mode == "tty" then io.stderr:write(said, "\n") end
  return "ok"
end

--- Input ended inside an unfinished statement: print the compiler's message.
function M.finish(chunk)
  local _, err = loadstring(chunk, "=stdin")
  io.stderr:write(err or "unfinished input", "\n")
  return "error"
end

--- Completions of a dotted or colon name such as "rlx.mo" or "s:ru", newline-separated.
function M.complete(text)
  local base, sep, partial = text:match("^(.-)([%.:])([%w_]*)$")
  local t, prefix = _G, ""
  if base then
    for part in base:gmatch("[^%.:]+") do
      if type(t) ~= "table" and type(t) ~= "userdata" then return "" end
      local ok, v = pcall(function() return t[part] end)
      if not ok then return "" end
      t = v
    end
    prefix = base .. sep
  else
    partial = text
  end
  local names, seen = {}, {}
  local function add(k)
    if type(k) == "string" and k:sub(1, #partial) == partial and not seen[k] and k:sub(1, 1) ~= "_" then
      seen[k] = true
      names[#names + 1] = prefix .. k
    end
  end
  if type(t) == "table" then
    for k in pairs(t) do add(k) end
    if t == rlx then
      for name in pairs(package.preload) do
        local sub = name:match("^rlx%.([%w_]+)$")
        if sub then add(sub) end
      end
    end
  end
  local mt = getmetatable(t)
  if mt and type(mt.__index) == "table" then
    for k in pairs(mt.__index) do add(k) end
  end
  table.sort(names)
  return table.concat(names, "\n")
end

return M
