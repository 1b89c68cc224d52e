-- rlx.options: checking option tables of functions written in Lua. The checking itself is the
-- C++ option reader every native binding uses (lua::Options in host/bindings/lua_bind.cpp,
-- reached as rlx._core.host.check_options), so an error reads the same whichever layer raised it;
-- this module checks the spec and raises errors that point at the user's script.
--
--   local o = options.check("study:sweep", opts, {
--     models = {type = "string_list", required = true},
--     repeats = {type = "integer", min = 1, default = 1},
--   })
-- Types: number, integer, string, boolean, table, function, any, int_list and string_list (a
-- single value or an array), and one_of = {...} for strings and string lists.
local errors = require("rlx.errors")
local core = rlx._core.host
local M = {}

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

-- What a spec entry may say, and the types it may name.
local SPEC_KEYS = {type = true, required = true, default = true, min = true, one_of = true}
local TYPES = {number = true, integer = true, string = true, boolean = true, table = true, ["function"] = true,
  any = true, int_list = true, string_list = true}

-- A misspelt spec ({typ = "string"}) would silently accept anything: reject it, naming the fix.
local function check_spec(fname, spec)
  local function bad(what) errors.raise("rlx.options.check", what) end
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
  return core.check_options(fname, opts, spec)
end

return M
