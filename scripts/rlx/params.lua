-- rlx.params.declare: a study script says which --set keys it takes, so a bad value fails at once
-- with exit 2 and a message naming the key and what it must be, and `rlx run SCRIPT --help` lists
-- them. rlx.params itself stays the plain table of --set values (the host fills it).
--
--   local P = rlx.params.declare{
--     scale = {one_of = {"smoke", "default", "full"}, default = "default", help = "fidelity vs time"},
--     iters = {type = "integer", min = 1, help = "measured iterations (overrides the scale)"},
--     label = {type = "string", help = "environment label"},
--   }
-- The spec is rlx.options' format (type, required, default, min, max, one_of, help) with the types
-- a command line can give: string (the default; the text as typed, so --set label=4090 is "4090"),
-- integer, number, boolean (true/false). Keys not declared are refused, naming the declared ones.
local errors = require("rlx.errors")
local options = require("rlx.options")
local sorted_keys = require("rlx._pretty").sorted_keys
local M = {}

local TYPES = {string = true, integer = true, number = true, boolean = true}

local function script_name()
  return (rlx.args and rlx.args[0]) or "script"
end

-- A usage error (exit 2, one line): "SCRIPT: ..." and how to list its parameters; for `rlx -e`
-- code, which has no --help of its own, "rlx -e: ..." alone (it advised 'rlx run -e --help').
local function usage(msg)
  if script_name() == "-e" then rlx.fail(2, "rlx -e: " .. msg) end
  errors._usage(script_name(), msg, "run " .. script_name())
end

local function print_help(spec)
  print(string.format("usage: rlx run %s [--set key=value]...\n\nParameters:", script_name()))
  for _, k in ipairs(sorted_keys(spec)) do
    local s = spec[k]
    local what = s.one_of and table.concat(s.one_of, "|") or (s.type or "string")
    print(options._help_line(k .. "=" .. what:upper(), s))
  end
end

-- The value of one declared key, checked; its default when not given.
local function value_of(key, s)
  -- The text as typed; values set from Lua (a Slurm shard replays its --set values into rlx.params)
  -- have no text and are read as their text.
  local text = rlx.params_text and rlx.params_text[key]
  if text == nil and rawget(rlx.params, key) ~= nil then text = tostring(rawget(rlx.params, key)) end
  if text == nil then
    if s.required then usage(string.format("--set %s= is required (%s)", key, options._requirement(s))) end
    return s.default
  end
  local v, why = options._from_text(s, text)
  if why then usage(string.format("--set %s= %s", key, why)) end
  return v
end

--- Checks rlx.params against spec and returns the values (defaults filled in). With
--- `rlx run SCRIPT --help` it prints the parameters and ends the program (status 0, through the
--- host's exit path: rlx.errors.exit_ok).
function M.declare(spec)
  errors.expect("rlx.params.declare", spec, "table", "a table of parameters")
  options._check_spec("rlx.params.declare", spec, {entry = "parameter", types = TYPES})
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
