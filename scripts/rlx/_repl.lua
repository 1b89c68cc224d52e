-- rlx._repl: what `rlx repl` does with each chunk of input (host/repl.cpp reads the lines).
-- eval(chunk) returns "ok", "error", "incomplete" (the statement is unfinished: read more) or
-- "exit N" (a deliberate exit, rlx.fail, with input from a pipe: the repl ends with status N).
-- A chunk is first tried as an expression (its values returned) so a bare expression prints its
-- value. Lists of records (query results, study:runs, frames) print as tables (rlx.show), other
-- values with rlx._pretty. "?name" prints name's documentation (rlx.help). complete(prefix) returns
-- completions of names, fields and methods (frames' included).
local pretty = require("rlx._pretty")
local show = require("rlx.show")
local errors = require("rlx.errors")
local M = {}

-- Set by M.start: whether a person types at a terminal (deliberate exits then do not end the
-- session), and the path of the database `--db` opened read-only (writes to it name --write).
local interactive, read_only_path = false, nil

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
  if errors._is_exit(err) then return err end  -- rlx.fail, Ctrl-C: M.eval decides
  if errors.is(err) then
    local text = errors.text(err)
    if read_only_path and err.code == "SQLITE_READONLY" then
      text = text .. string.format(" (rlx repl opened '%s' read-only; to change it start the repl with --write: " ..
        "rlx repl --write --db %s)", read_only_path, read_only_path)
    end
    return text
  end
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
  -- An expression's values are passed to a function that returns them, not returned directly:
  -- `return error("x")` would be a tail call, which loses the chunk's frame, so the error would
  -- name no line (stdin:1:) and have no traceback. The newline ends a trailing comment. ("1;"
  -- compiles only unwrapped.)
  local f, err = loadstring("return (function(...) return ... end)(" .. chunk .. "\n)", "=stdin")
  if not f then f = loadstring("return " .. chunk, "=stdin") end
  if not f then f, err = loadstring(chunk, "=stdin") end
  if not f then
    if is_incomplete(err) then return "incomplete" end
    io.stderr:write(err, "\n")
    return "error"
  end
  local results = {xpcall(f, handler)}
  if not results[1] then
    local e = results[2]
    if errors._is_exit(e) then
      -- A deliberate exit (rlx.fail, a usage error, rlx.errors.exit_ok) ends input from a pipe
      -- with its status, as it ends a script; at a terminal it is reported and the prompt goes on
      -- (so is Ctrl-C, which host/repl.cpp tells apart: it only stops the evaluation).
      local code = type(e) == "table" and rawget(e, "exit_code") or 0
      local text = code ~= 0 and errors.text(e) or ""
      if text ~= "" then io.stderr:write(text, "\n") end
      if interactive then return code == 0 and "ok" or "error" end
      return "exit " .. code
    end
    io.stderr:write(tostring(e), "\n")
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

-- study:<method>s that write: in a read-only repl they fail at once, before any training.
local WRITING_METHODS = {"sweep", "store_run", "store_peaks", "ensure_peaks", "attach_counters"}

-- The study `name` of the database at `path` over the read-only connection conn, without writing:
-- rlx.study records this machine's environment and the study as it opens, so it opens a dry run's
-- in-memory copy (rlx.flags.dry_run) and then reads through conn. nil when it cannot be opened.
local function read_only_study(name, path, conn)
  local flags = rlx.flags
  local was = flags.dry_run
  flags.dry_run = true
  local ok, st = pcall(rlx.study, {name = name, db = path})
  flags.dry_run = was
  if not ok then
    errors.pass_exits(st)
    return nil
  end
  st.db:close()
  st.db = conn
  for _, method in ipairs(WRITING_METHODS) do
    st[method] = function()
      errors.raise("study:" .. method, string.format("rlx repl opened '%s' read-only; to write to it start the " ..
        "repl with --write (rlx repl --write --db %s)", path, path))
    end
  end
  return st
end

--- Before the first line: with `rlx repl --db PATH`, `db` is that database (rlx.db.open, never
--- created) and, when it holds exactly one study, `study` is that study (rlx.study{name=, db=}).
--- mode holds the words "tty" (interactive: say what was opened on stderr) and "write" (--write:
--- open for writing, migrating an older schema and recording this machine as rlx.study does);
--- without "write" the database is opened read-only and the file is not changed in any way.
--- Returns "ok" or "error".
function M.start(mode)
  interactive = mode:find("tty", 1, true) ~= nil
  local write = mode:find("write", 1, true) ~= nil
  -- help(x) and ?x: documentation at the prompt (rlx.help).
  if rawget(_G, "help") == nil then _G.help = rlx.help end
  local path = rlx.params and rlx.params.db
  if path == nil then return "ok" end
  local ok, conn = pcall(rlx.db.open, path, write and {create = false} or {readonly = true})
  if not ok then
    errors.pass_exits(conn)
    -- The store's advice is the Lua API's (readonly=true); here it is the repl's flag. `cause` is the
    -- message without that advice, set where the store gives it.
    local why = errors.message(conn)
    if type(conn) == "table" and conn.cause then
      why = conn.cause .. "; leave out --write to query it"
    end
    io.stderr:write("rlx repl: --db ", tostring(path), ": ", why, "\n")
    return "error"
  end
  if not write then read_only_path = path end
  _G.db = conn
  local studies = conn:query("SELECT name FROM studies ORDER BY name")
  local runs = conn:first("SELECT count(*) AS n FROM runs").n
  local names = {}
  for i, s in ipairs(studies) do names[i] = s.name end
  local said = string.format("db = %s (%d runs; studies: %s; %s)", path, runs,
    #names > 0 and table.concat(names, ", ") or "none", write and "open for writing" or "read-only, --write to change it")
  if #names == 1 then
    local st
    if write then
      local ok2, opened = pcall(rlx.study, {name = names[1], db = path})
      if ok2 then st = opened else errors.pass_exits(opened) end
    else
      st = read_only_study(names[1], path, conn)
    end
    if st then
      _G.study = st
      said = said .. string.format("; study = rlx.study{name = %q}: try study:runs{}, study:figures{}", names[1])
    end
  end
  if interactive then io.stderr:write(said, "\n") end
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
