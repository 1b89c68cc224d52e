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
--   local ok, err = pcall(f)
--   if not ok then errors.pass_exits(err); print(errors.text(err)) end
local core = rlx._core.host

local M = {}

local mt = core.error_metatable()
M.metatable = mt

--- "file:line" of the first caller outside rlx's own modules (the same helper the bindings use).
M.where = core.where

--- A new structured error (not raised).
function M.new(fields)
  return setmetatable({fn = fields.fn, message = fields.message, where = fields.where, exit_code = fields.exit_code}, mt)
end

--- Whether err is a structured error.
function M.is(err) return getmetatable(err) == mt end

--- Raises a structured error at the user's call site. opts.exit_code makes it a deliberate exit.
function M.raise(fn, message, opts)
  error(M.new{fn = fn, message = tostring(message), where = M.where(), exit_code = opts and opts.exit_code}, 0)
end

--- Splits "name: message" the way lua::split_fn does (C++), for messages written as one string.
function M.split(text)
  local fn, message = text:match("^([%w_%.:]+): (.*)$")
  if fn then return fn, message end
  return nil, text
end

--- Whether err ends the program rather than failing one operation: a deliberate exit (rlx.fail,
--- usage errors) or Ctrl-C. Code that catches errors with pcall must let these through.
function M.is_exit(err)
  if type(err) ~= "table" then return false end
  local code = rawget(err, "exit_code")
  return type(code) == "number" and code >= 1 and code <= 255 and code == math.floor(code)
end

--- Re-raises err unchanged when it is an exit (see is_exit); otherwise returns it.
function M.pass_exits(err)
  if M.is_exit(err) then error(err, 0) end
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

--- Like text, but without the function name when it is fn (a CLI command that called fn says so
--- itself: "rlx train: option 'batch' ..." rather than "rlx train: rlx.train: option ...").
function M.text_without(err, fn)
  if M.is(err) and err.fn == fn then return tostring(err.message) end
  return M.text(err)
end

return M
