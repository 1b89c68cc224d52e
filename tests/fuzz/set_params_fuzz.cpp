// set_params_fuzz.cpp: libFuzzer target for `--set key=value` from argv to a study's checked
// parameters: host/set_args.cpp (argument parsing, number/boolean typing, rlx.params and
// rlx.params_text) and scripts/rlx/params.lua's rlx.params.declare, run in LuaJIT against
// experiments/all.lua's declarations. The input is argv, NUL-separated. Every outcome must be either
// a usage refusal (rlx.fail(2, ...), what the CLI prints and exits 2 with) or values of the declared
// types; a crash, a sanitizer report or any other Lua error (a bug in the checker) is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" {
#include <lauxlib.h>
#include <lualib.h>
}

#include "set_args.h"

namespace {

// The parts of the rlx global and rlx.errors that params.lua uses, then all.lua's declarations. A usage error
// becomes {exit_code = 2}; "ok" means the returned values have the declared types.
const char* kCheck = R"(
local params_lua, params, text = ...
rlx = {params = params, params_text = text, flags = {}, args = {[0] = "fuzz.lua"},
       fail = function(code, m) error({exit_code = code, message = m}, 0) end}
-- rlx.errors, as far as params.lua uses it: any raise is a bug in the checker (not a refusal).
package.preload["rlx.errors"] = function()
  return {raise = function(fn, m) error("raise: " .. fn .. ": " .. m, 0) end,
          expect = function(_, v) return v end, exit_ok = function() error("exit_ok", 0) end}
end
local M = dofile(params_lua)
-- As scripts/rlx/init.lua: rlx.params is the table of values, and declare is found through it.
setmetatable(params, {__index = function(_, key) if key == "declare" then return M.declare end end})
local P = rlx.params.declare{
  scale = {one_of = {"smoke", "default", "full"}, default = "default"},
  warmup = {type = "integer", min = 0}, iters = {type = "integer", min = 1},
  ratio = {type = "number"}, counters = {type = "boolean", default = true},
  label = {}, env = {help = "label"},
}
assert(P.scale == "smoke" or P.scale == "default" or P.scale == "full")
for _, k in ipairs{"warmup", "iters"} do
  local v = P[k]
  assert(v == nil or (type(v) == "number" and v == math.floor(v) and v >= 0), k)
end
assert(P.ratio == nil or type(P.ratio) == "number")
assert(type(P.counters) == "boolean")
for _, k in ipairs{"label", "env"} do
  assert(P[k] == nil or (type(P[k]) == "string" and P[k] == text[k]), k)
end
return "ok"
)";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args(1);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0)
      args.emplace_back();
    else
      args.back().push_back(static_cast<char>(data[i]));
  }
  rlx::host::SetPairs pairs;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string err;
    if ((args[i] == "--set" || args[i].rfind("--set=", 0) == 0) &&
        !rlx::host::take_set_arg(args, i, pairs, err)) {
      if (err.empty()) std::abort();
      return 0;  // the CLI's usage error
    }
  }
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  if (luaL_loadstring(L, kCheck) != 0) std::abort();
  lua_pushstring(L, RLX_SOURCE_DIR "/scripts/rlx/params.lua");
  lua_newtable(L);
  lua_newtable(L);
  rlx::host::push_set_params(L, -2, -1, pairs);
  if (lua_pcall(L, 3, 1, 0) != 0) {
    // Only a usage refusal is an acceptable failure.
    bool usage = false;
    if (lua_istable(L, -1)) {
      lua_getfield(L, -1, "exit_code");
      usage = lua_tointeger(L, -1) == 2;
    }
    if (!usage) {
      lua_settop(L, 1);
      std::fprintf(stderr, "set_params_fuzz: %s\n",
                   lua_isstring(L, 1) ? lua_tostring(L, 1) : "(error value)");
      std::abort();
    }
  }
  lua_close(L);
  return 0;
}
