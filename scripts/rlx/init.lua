-- rlx: the global table every script sees, also returned by require("rlx").
--
-- The host creates `rlx` with `rlx._core` (the native bindings, one table per binding file) and
-- `rlx.params` (values of --set). This module adds the small helpers that belong to no table and
-- makes the public tables lazy: the first use of rlx.<name> requires scripts/rlx/<name>.lua, so a
-- script pays only for what it touches and every public table lives in one file named after it.
local rlx = _G.rlx
package.loaded["rlx"] = rlx

local errors = require("rlx.errors")
local options = require("rlx.options")
local startup_text = require("rlx._startup_text")
local pretty = require("rlx._pretty")
local params = require("rlx.params")

--- Versions of rlx and the libraries it was built with; cuda/cupti are nil when not compiled in.
--- With what the training libraries run with here (which loads them): `tuning`, `blas`, `cudnn`,
--- and `startup`, what this process chose when it started (docs/training.md, "Start-up"), as
--- fields; `openmp_wait`: its OpenMP waiting in words.
function rlx.version()
  local v = rlx._core.host.versions()
  -- A LibTorch part that does not load is rlx.version's failure, said at the caller's line, not
  -- at this file's (issue 56 item 7); Ctrl-C passes through.
  local loaded, runtime = pcall(rlx._core.host.runtime)
  if not loaded then errors.raise("rlx.version", errors.message(errors.pass_exits(runtime))) end
  for k, x in pairs(runtime) do v[k] = x end
  v.openmp_wait = startup_text.openmp(v.startup.openmp_wait)
  v.gpus = {}
  for _, d in ipairs(rlx.devices()) do
    if d.kind == "cuda" then v.gpus[#v.gpus + 1] = d.name .. " (" .. d.id .. ")" end
  end
  return v
end

--- The devices this machine can train on: {kind = "cpu"|"cuda", id = "cpu"|"cuda:0", name, ...}.
function rlx.devices() return rlx._core.train.devices() end

--- Raises an error that ends the program with `code` (1-255) and prints `message` alone, without
--- a traceback (a structured error with exit_code set: see rlx.errors).
function rlx.fail(code, message)
  if type(code) ~= "number" or code ~= math.floor(code) or code < 1 or code > 255 then
    errors.raise("rlx.fail", "the exit status (argument 1) must be an integer from 1 to 255, got " ..
      (type(code) == "number" and tostring(code) or type(code)) .. " (usage errors use 2)")
  end
  if type(message) ~= "string" then
    errors.raise("rlx.fail", "the message (argument 2) must be a string, got " .. type(message))
  end
  error(errors._new{message = message, where = errors._where(), exit_code = code}, 0)
end

local INSPECT_SPEC = {
  depth = {type = "integer", min = 0, default = 4},
  max_items = {type = "integer", min = 0, default = 20},
  width = {type = "integer", min = 1, default = 100},
}

--- Formats any value for people (tables nested and length-capped); see rlx._pretty.
function rlx.inspect(value, opts)
  return pretty.format(value, options.check("rlx.inspect", opts, INSPECT_SPEC))
end

setmetatable(rlx, {
  __index = function(t, key)
    if type(key) ~= "string" then return nil end
    local name = "rlx." .. key
    if package.preload[name] == nil then return nil end
    local mod = require(name)
    rawset(t, key, mod)
    return mod
  end,
})

-- rlx.params holds the --set values; rlx.params.declare (scripts/rlx/params.lua) checks them.
setmetatable(rlx.params, {__index = function(_, key)
  if key == "declare" then return params.declare end
end})

rlx.options = options
rlx.errors = errors
return rlx
