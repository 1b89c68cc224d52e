-- rlx.options: checking option tables of functions written in Lua, with the same messages as the
-- native bindings (host/bindings/lua_bind.cpp), and errors that point at the user's script.
--
--   local o = options.check("study:sweep", opts, {
--     models = {type = "string_list", required = true},
--     repeats = {type = "integer", min = 1, default = 1},
--   })
-- Types: number, integer, string, boolean, table, function, any, int_list and string_list (a
-- single value or an array), and one_of = {...} for strings.
local M = {}

local function is_builtin(source)
  return type(source) == "string" and source:sub(1, 1) == "@" and
    (source:find("^@scripts/rlx/") ~= nil or source:find("/scripts/rlx/") ~= nil)
end

--- "file:line: " of the first stack frame outside rlx's own modules (the user's call site).
function M.where()
  local first
  for level = 2, 64 do
    local info = debug.getinfo(level, "Sl")
    if not info then break end
    if info.currentline and info.currentline > 0 then
      local here = info.short_src .. ":" .. info.currentline .. ": "
      first = first or here
      if not is_builtin(info.source) then return here end
    end
  end
  return first or ""
end

--- Raises msg as an error located at the user's call site.
function M.raise(msg)
  if type(msg) ~= "string" then
    msg = "rlx.options.raise: the message (argument 1) must be a string, got " .. type(msg)
  end
  error(M.where() .. msg, 0)
end

local function describe(v)
  if type(v) == "string" then return string.format("%q", v) end
  if type(v) == "number" or type(v) == "boolean" then return tostring(v) end
  return "a " .. type(v)
end

local function sorted_keys(spec)
  local keys = {}
  for k in pairs(spec) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

local function is_int(v) return type(v) == "number" and v == math.floor(v) and v == v and v ~= math.huge and v ~= -math.huge end

local function check_value(fname, key, v, s)
  local function bad(what) M.raise(string.format("%s: option '%s' %s, got %s", fname, key, what, describe(v))) end
  local t = s.type or "any"
  if t == "integer" then
    if not is_int(v) or (s.min and v < s.min) then bad(s.min and ("must be an integer >= " .. s.min) or "must be an integer") end
  elseif t == "number" then
    if type(v) ~= "number" or (s.min and v < s.min) then bad(s.min and ("must be a number >= " .. s.min) or "must be a number") end
  elseif t == "int_list" then
    if type(v) == "number" then v = {v} end
    if type(v) ~= "table" then bad("must be an integer or an array of integers") end
    for i, x in ipairs(v) do
      if not is_int(x) or (s.min and x < s.min) then
        M.raise(string.format("%s: option '%s' element %d must be an integer%s, got %s", fname, key, i,
          s.min and (" >= " .. s.min) or "", describe(x)))
      end
    end
  elseif t == "string_list" then
    if type(v) == "string" then v = {v} end
    if type(v) ~= "table" then bad("must be a string or an array of strings") end
    for i, x in ipairs(v) do
      if type(x) ~= "string" then
        M.raise(string.format("%s: option '%s' element %d must be a string, got %s", fname, key, i, describe(x)))
      end
      if s.one_of then check_value(fname, key, x, {type = "string", one_of = s.one_of}) end
    end
  elseif t ~= "any" and type(v) ~= t then
    -- Same wording as the C++ Options reader, so an error reads alike whichever layer raised it.
    bad(t == "boolean" and "must be true or false" or ("must be a " .. t))
  end
  if s.one_of and type(v) == "string" then
    local ok = false
    for _, a in ipairs(s.one_of) do ok = ok or a == v end
    if not ok then bad("must be one of " .. table.concat(s.one_of, ", ")) end
  end
  return v
end

-- What a spec entry may say, and the types it may name.
local SPEC_KEYS = {type = true, required = true, default = true, min = true, one_of = true}
local TYPES = {number = true, integer = true, string = true, boolean = true, table = true, ["function"] = true,
  any = true, int_list = true, string_list = true}

-- A misspelt spec ({typ = "string"}) would silently accept anything: reject it, naming the fix.
local function check_spec(fname, spec)
  local function bad(what) M.raise("rlx.options.check: " .. what) end
  if type(fname) ~= "string" then
    bad("the function name (argument 1) must be a string, got " .. type(fname))
  end
  if type(spec) ~= "table" then
    bad("the spec (argument 3) must be a table mapping each option name to {type = ...}, got " .. type(spec))
  end
  for key, s in pairs(spec) do
    if type(key) ~= "string" then bad("spec keys must be option names (strings), got " .. describe(key)) end
    if type(s) ~= "table" then
      bad(string.format("spec entry '%s' must be a table such as {type = \"string\"}, got %s", key, type(s)))
    end
    for k in pairs(s) do
      if not SPEC_KEYS[k] then
        bad(string.format("spec entry '%s' has unknown key '%s' (valid keys: %s)", key, tostring(k),
          table.concat(sorted_keys(SPEC_KEYS), ", ")))
      end
    end
    if s.type ~= nil and not TYPES[s.type] then
      bad(string.format("spec entry '%s' has unknown type %s (valid types: %s)", key, describe(s.type),
        table.concat(sorted_keys(TYPES), ", ")))
    end
    if s.min ~= nil and type(s.min) ~= "number" then
      bad(string.format("spec entry '%s': min must be a number, got %s", key, describe(s.min)))
    end
    if s.one_of ~= nil and type(s.one_of) ~= "table" then
      bad(string.format("spec entry '%s': one_of must be an array of strings, got %s", key, describe(s.one_of)))
    end
  end
end

--- Validates opts against spec and returns a new table with defaults filled in.
function M.check(fname, opts, spec)
  check_spec(fname, spec)
  if opts == nil then opts = {} end
  if type(opts) ~= "table" then
    M.raise(string.format("%s: expected a table of options, got %s", fname, type(opts)))
  end
  for k in pairs(opts) do
    if type(k) ~= "string" or spec[k] == nil then
      M.raise(string.format("%s: unknown option '%s' (valid options: %s)", fname, tostring(k),
        table.concat(sorted_keys(spec), ", ")))
    end
  end
  local out = {}
  for _, key in ipairs(sorted_keys(spec)) do
    local s = spec[key]
    local v = opts[key]
    if v == nil then
      if s.required then
        M.raise(string.format("%s: option '%s' is required (%s)", fname, key, s.type or "a value"))
      end
      v = s.default
    else
      v = check_value(fname, key, v, s)
    end
    out[key] = v
  end
  return out
end

return M
