-- rlx: the global table every script sees, also returned by require("rlx").
--
-- The host creates `rlx` with `rlx._core` (the native bindings, one table per binding file) and
-- `rlx.params` (values of --set). This module adds the small helpers that belong to no table and
-- makes the public tables lazy: the first use of rlx.<name> requires scripts/rlx/<name>.lua, so a
-- script pays only for what it touches and every public table lives in one file named after it.
local rlx = _G.rlx
package.loaded["rlx"] = rlx

local options = require("rlx.options")

--- Versions of rlx and the libraries it was built with; cuda/cupti are nil when not compiled in.
function rlx.version()
  local v = rlx._core.host.versions()
  v.gpus = {}
  local ok, devices = pcall(function() return rlx.devices() end)
  if ok and type(devices) == "table" then
    for _, d in ipairs(devices) do
      if d.kind == "cuda" then v.gpus[#v.gpus + 1] = d.name .. " (" .. d.id .. ")" end
    end
  end
  return v
end

--- The devices this machine can train on: {kind = "cpu"|"cuda", id = "cpu"|"cuda:0", name, ...}.
function rlx.devices()
  local core = rlx._core.train
  if core.devices then return core.devices() end
  return {{kind = "cpu", id = "cpu", name = "cpu"}}
end

--- Raises an error that ends the program with `code` and prints `message` without a traceback.
function rlx.fail(code, message)
  if type(code) ~= "number" or code ~= math.floor(code) or code < 0 or code > 255 then
    options.raise("rlx.fail: the exit status (argument 1) must be an integer from 0 to 255, got " ..
      (type(code) == "number" and tostring(code) or type(code)) .. " (usage errors use 2)")
  end
  if type(message) ~= "string" then
    options.raise("rlx.fail: the message (argument 2) must be a string, got " .. type(message))
  end
  error({exit_code = code, message = message}, 0)
end

local INSPECT_SPEC = {
  depth = {type = "integer", min = 0, default = 4},
  max_items = {type = "integer", min = 0, default = 20},
  width = {type = "integer", min = 1, default = 100},
}

--- Formats any value for people (tables nested and length-capped); see rlx.pretty.
function rlx.inspect(value, opts)
  return require("rlx.pretty").format(value, options.check("rlx.inspect", opts, INSPECT_SPEC))
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

rlx.options = options
return rlx
