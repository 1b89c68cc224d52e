-- rlx.params.declare: a study script says which --set keys it takes, so a bad value fails at once
-- with exit 2 and a message naming the key and what it must be, and `rlx run SCRIPT --help` lists
-- them. rlx.params itself stays the plain table of --set values (the host fills it).
--
--   local P = rlx.params.declare{
--     scale = {one_of = {"smoke", "default", "full"}, default = "default", help = "fidelity vs time"},
--     iters = {type = "integer", min = 1, help = "measured iterations (overrides the scale)"},
--     label = {type = "string", help = "environment label"},
--   }
-- Types: string (the default; the text as typed, so --set label=4090 is "4090"), integer, number,
-- boolean (true/false). Keys not declared are refused, naming the declared ones.
local errors = require("rlx.errors")
local M = {}

local SPEC_KEYS = {type = true, one_of = true, default = true, min = true, help = true}

local function script_name()
  return (rlx.args and rlx.args[0]) or "script"
end

local function usage(msg)
  rlx.fail(2, string.format("%s: %s\nTry 'rlx run %s --help'.", script_name(), msg, script_name()))
end

local function sorted_keys(t)
  local keys = {}
  for k in pairs(t) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

local function print_help(spec)
  print(string.format("usage: rlx run %s [--set key=value]...\n\nParameters:", script_name()))
  for _, k in ipairs(sorted_keys(spec)) do
    local s = spec[k]
    local what = s.one_of and table.concat(s.one_of, "|") or (s.type or "string")
    local default = s.default ~= nil and (" (default " .. tostring(s.default) .. ")") or ""
    print(string.format("  %-28s %s%s", k .. "=" .. what:upper():gsub("|", "|"), s.help or "", default))
  end
end

-- The value of one declared key, checked; nil when not given.
local function value_of(key, s)
  -- The text as typed; values set from Lua (a Slurm shard replays its --set values into rlx.params)
  -- have no text and are read as they are.
  local text = rlx.params_text and rlx.params_text[key]
  if text == nil and rawget(rlx.params, key) ~= nil then text = tostring(rawget(rlx.params, key)) end
  if text == nil then return s.default end
  local t = s.type or "string"
  local v
  if t == "string" then
    v = text
    if s.one_of then
      local ok = false
      for _, c in ipairs(s.one_of) do ok = ok or c == v end
      if not ok then usage(string.format("--set %s= must be one of %s, got '%s'", key, table.concat(s.one_of, ", "), text)) end
    end
  elseif t == "boolean" then
    v = rlx.params[key]
    if type(v) ~= "boolean" then usage(string.format("--set %s= must be true or false, got '%s'", key, text)) end
  else
    v = rlx.params[key]
    local whole = t ~= "integer" or (type(v) == "number" and v == math.floor(v) and math.abs(v) <= 2 ^ 53)
    if type(v) ~= "number" or not whole or (s.min and v < s.min) then
      usage(string.format("--set %s= must be %s%s, got '%s'", key, t == "integer" and "an integer" or "a number",
        s.min and (" >= " .. s.min) or "", text))
    end
  end
  return v
end

--- Checks rlx.params against spec and returns the values (defaults filled in). With
--- `rlx run SCRIPT --help` it prints the parameters and ends the program (status 0, through the
--- host's exit path: rlx.errors.exit_ok).
function M.declare(spec)
  errors.expect("rlx.params.declare", spec, "table", "a table of parameters")
  for k, s in pairs(spec) do
    if type(s) ~= "table" then
      errors.raise("rlx.params.declare", string.format("parameter '%s' must be a table such as {type = \"integer\"}", tostring(k)))
    end
    for sk in pairs(s) do
      if not SPEC_KEYS[sk] then
        errors.raise("rlx.params.declare", string.format("parameter '%s' has unknown key '%s' (valid keys: %s)",
          tostring(k), tostring(sk), table.concat(sorted_keys(SPEC_KEYS), ", ")))
      end
    end
  end
  if rlx.flags and rlx.flags.help then
    print_help(spec)
    errors.exit_ok()
  end
  local given = {}
  for k in pairs(rlx.params_text or {}) do given[k] = true end
  for k in pairs(rlx.params) do given[k] = true end
  for k in pairs(given) do
    if spec[k] == nil then
      usage(string.format("unknown parameter '%s' (valid: %s)", k, table.concat(sorted_keys(spec), ", ")))
    end
  end
  local out = {}
  for _, k in ipairs(sorted_keys(spec)) do out[k] = value_of(k, spec[k]) end
  return out
end

return M
