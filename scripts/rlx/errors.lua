-- rlx.errors: the one shape of an rlx error, raised and caught the same way in C++ and Lua.
--
-- A structured error is a table {fn =, message =, where =, exit_code =} with a shared metatable
-- whose __tostring gives "where: fn: message" (the metatable and its __tostring live in
-- host/bindings/lua_bind.cpp, so native and Lua errors are one kind of value):
--   fn         the public function that failed ("rlx.train", "study:sweep"), or nil;
--   message    what is wrong and how to fix it;
--   where      "file:line" of the user's call (the first frame outside scripts/rlx/), or nil;
--   exit_code  nil for a script error (uncaught: exit status 1, with a traceback), or the status of
--              a deliberate exit, 1-255, printed as the message alone (usage errors 2, Ctrl-C 130).
--
--   local errors = require("rlx.errors")
--   errors.raise("rlx.thing", "option 'x' must be ...")     -- located at the user's call
--   errors.expect("rlx.thing", path, "string", "a path (a string)")  -- argument checks
--   local ok, err = pcall(f)
--   if not ok then errors.pass_exits(err); print(errors.text(err)) end
local core = rlx._core.host

local M = {}

local mt = core.error_metatable()
M.metatable = mt

--- "file:line" of the first caller outside rlx's own modules (the same helper the bindings use).
M._where = core.where

--- A new structured error (not raised).
function M._new(fields)
  if type(fields) ~= "table" then
    M.raise("rlx.errors._new", "expected a table {fn =, message =, where =, exit_code =}, got " .. type(fields))
  end
  return setmetatable({fn = fields.fn, message = fields.message, where = fields.where, exit_code = fields.exit_code}, mt)
end

--- Whether err is a structured error.
function M.is(err) return getmetatable(err) == mt end

--- Raises a structured error at the user's call site: fn is the public function that failed
--- ("rlx.study", "study:sweep"), message what is wrong and how to fix it (no "fn: " in it).
--- opts.exit_code makes it a deliberate exit.
function M.raise(fn, message, opts)
  if fn ~= nil and type(fn) ~= "string" then
    M.raise("rlx.errors.raise", "the function name (argument 1) must be a string or nil, got " .. type(fn))
  elseif type(message) ~= "string" then
    M.raise("rlx.errors.raise", "the message (argument 2) must be a string, got " .. type(message))
  end
  error(M._new{fn = fn, message = message, where = M._where(), exit_code = opts and opts.exit_code}, 0)
end

--- Ends the program with a usage error (exit 2, no traceback): "<who>: <message>" and the line
--- "Try 'rlx <cmd> --help'." (who: "rlx models", or a script's path; cmd: "models", "run x.lua").
function M._usage(who, message, cmd)
  -- Checked, not assumed: a nil here failed inside this file, naming scripts/rlx/errors.lua.
  local args = {who, message, cmd}
  for i = 1, 3 do
    local v = args[i]
    if type(v) ~= "string" then
      M.raise("rlx.errors._usage", string.format("argument %d (%s) must be a string, got %s", i,
        ({"who", "the message", "the command"})[i], type(v)))
    end
  end
  error(M._new{message = string.format("%s: %s\nTry 'rlx %s --help'.", who, message, cmd), where = M._where(),
    exit_code = 2}, 0)
end

-- "string|nil" -> {string = true, ["nil"] = true}, memoized: expect runs on every call of an API.
local wanted = {}
local function want_set(types)
  local set = wanted[types]
  if not set then
    set = {}
    for t in types:gmatch("[^|]+") do set[t] = true end
    wanted[types] = set
  end
  return set
end

--- The one argument checker of the Lua API, as vim.validate is Neovim's: unless type(value) is
--- one of `types` ("table", or several as "string|nil"), raises "fn: expected <what>, got <type>"
--- at the user's call. Returns value.
---   errors.expect("rlx.db.open", path, "string", "a database path (a string)")
function M.expect(fn, value, types, what)
  if type(fn) ~= "string" or type(types) ~= "string" or type(what) ~= "string" then
    M.raise("rlx.errors.expect", string.format("expected (function name, value, types, what) with strings for the " ..
      "name, the types (\"string|nil\") and what, got %s, %s and %s", type(fn), type(types), type(what)))
  end
  if not want_set(types)[type(value)] then M.raise(fn, "expected " .. what .. ", got " .. type(value)) end
  return value
end

-- The value that ends the program with status 0 (host/bindings/lua_bind.h, push_exit_ok).
local EXIT_OK = core.exit_ok()

--- Ends the program with status 0, printing nothing, through the host's exit path (databases are
--- closed, Lua is shut down: os.exit would skip both). It is an exit: pass_exits lets it through.
function M.exit_ok() error(EXIT_OK, 0) end

--- Whether err ends the program rather than failing one operation: a deliberate exit (rlx.fail,
--- usage errors, exit_ok) or Ctrl-C. Code that catches errors with pcall must let these through.
function M._is_exit(err)
  if rawequal(err, EXIT_OK) then return true end
  if type(err) ~= "table" then return false end
  local code = rawget(err, "exit_code")
  return type(code) == "number" and code >= 1 and code <= 255 and code == math.floor(code)
end

--- Re-raises err unchanged when it is an exit (see is_exit); otherwise returns it.
function M.pass_exits(err)
  if M._is_exit(err) then error(err, 0) end
  return err
end

--- The error's text without its position: "fn: message" for structured errors, the message of
--- other tables, the string itself for strings (a Lua runtime error keeps its own position: that
--- is a bug in a script, and its line is the useful part).
function M.text(err)
  if M.is(err) then
    return (err.fn and (err.fn .. ": ") or "") .. tostring(err.message)
  end
  if type(err) == "table" then
    local m = rawget(err, "message")
    if type(m) == "string" then return m end
    local meta = getmetatable(err)
    if type(meta) == "table" and meta.__tostring then return tostring(err) end
    return "error object: " .. rlx.inspect(err)
  end
  return tostring(err)
end

--- The message alone for structured errors (no function, no position), else text(err). A CLI
--- command says what failed itself ("rlx train: option 'batch' ..."): the library function it
--- called is an internal detail of the command.
function M.message(err)
  if M.is(err) then return tostring(err.message) end
  return M.text(err)
end

return M
