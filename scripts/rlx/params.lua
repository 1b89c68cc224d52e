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

-- `rlx run SCRIPT --help` is answered by the parameters the script declares: the script runs with
-- every action disarmed (M._guard_help) until it calls declare, which prints them. A script that
-- acts first (prints, writes a file, trains, opens a database, measures, draws, runs a program) or
-- ends without declaring is stopped there, and told so: it was not run.
local help = {armed = false, answered = false}

local function not_run()
  help.armed, help.answered = false, true
  local name = script_name()
  io.stdout:write("usage: rlx run ", name, " [--set key=value]... [--dry-run] [-- script args]\n\n", name,
    " declares no parameters (rlx.params.declare lists them here); its comments\n" ..
    "may say which --set keys it reads. It was not run.\n")
  errors.exit_ok()
end

-- f, disarmed while help is armed: calling it answers the help instead.
local function disarmed(f)
  return function(...)
    if help.armed then not_run() end
    return f(...)
  end
end

-- The natives that act on the world (the others compute or read); and Lua's own actions. Of
-- rlx.train's, all but the option declarations (rlx._core.train.options: data a script's
-- parameters are built from).
local ACTIONS = {["train.train"] = true, ["train.devices"] = true, ["train.dataset"] = true, db = true, fs = true,
  plot = true, counters = true, report = true, ["peaks.measure"] = true, ["host.run"] = true}

--- Arms `rlx run SCRIPT --help` (the host calls it before the script, then M._help_end after).
function M._guard_help()
  help.armed = true
  for tname, t in pairs(rlx._core) do
    if type(t) == "table" then
      for fname, f in pairs(t) do
        if type(f) == "function" and (ACTIONS[tname] or ACTIONS[tname .. "." .. fname]) then t[fname] = disarmed(f) end
      end
    end
  end
  -- Lua's own actions are disarmed in place: the script calls them through the globals.
  -- luacheck: push ignore 122
  _G.print, io.write, io.popen = disarmed(print), disarmed(io.write), disarmed(io.popen)
  os.execute, os.remove, os.rename = disarmed(os.execute), disarmed(os.remove), disarmed(os.rename)
  local open = io.open
  io.open = function(path, mode, ...)
    if help.armed and mode and tostring(mode):find("[wa+]") then not_run() end
    return open(path, mode, ...)
  end
  -- luacheck: pop
  local methods = getmetatable(io.stdout).__index
  local write = methods.write
  methods.write = function(f, ...)
    if help.armed and (f == io.stdout or f == io.stderr) then not_run() end
    return write(f, ...)
  end
end

--- After the script of `rlx run SCRIPT --help`: a script that ended without declaring was not run.
function M._help_end()
  if not help.answered then not_run() end
end

--- Checks rlx.params against spec and returns the values (defaults filled in). With
--- `rlx run SCRIPT --help` it prints the parameters and ends the program (status 0, through the
--- host's exit path: rlx.errors.exit_ok).
function M.declare(spec)
  errors.expect("rlx.params.declare", spec, "table", "a table of parameters")
  options._check_spec("rlx.params.declare", spec, {entry = "parameter", types = TYPES})
  if rlx.flags and rlx.flags.help then
    help.armed, help.answered = false, true
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
