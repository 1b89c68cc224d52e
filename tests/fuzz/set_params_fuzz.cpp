// set_params_fuzz.cpp: libFuzzer target for `--set key=value` from argv to a study's checked
// parameters: host/set_args.cpp (argument parsing, number/boolean typing, rlx.params and
// rlx.params_text) and scripts/rlx/params.lua's rlx.params.declare with the modules it uses
// (rlx.options, rlx.errors, rlx._pretty from the source tree, over the option checker of
// host/bindings/lua_options.cpp), run in LuaJIT against experiments/all.lua's declarations. The input is
// argv, NUL-separated. Every outcome must be either a usage refusal (rlx.fail(2, ...), what the CLI prints
// and exits 2 with) or values of the declared types; a crash, a sanitizer report or any other Lua error (a
// bug in the checker) is a finding.
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

#include "lua_bind.h"
#include "set_args.h"

namespace {

// The parts of the rlx global that params.lua uses, then all.lua's declarations. A usage error
// is {exit_code = 2}; "ok" means the returned values have the declared types.
const char* kCheck = R"(
local scripts, params, text = ...
package.path = scripts .. "/?.lua"
rlx.params, rlx.params_text, rlx.flags, rlx.args = params, text, {}, {[0] = "fuzz.lua"}
local M = require("rlx.params")
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

// rlx._core.host as far as rlx.errors and rlx.options use it (host/bindings/bind_host.cpp).
int where(lua_State* L) {
  const std::string w = rlx::lua::caller_where(L);
  if (w.size() < 2) return 0;
  lua_pushlstring(L, w.data(), w.size() - 2);
  return 1;
}
int error_metatable(lua_State* L) {
  rlx::lua::push_error_metatable(L);
  return 1;
}
int exit_ok(lua_State* L) {
  rlx::lua::push_exit_ok(L);
  return 1;
}
// As host/bindings/bind_host.cpp: rlx.options reads decimal numbers with the host's reader.
int parse_decimal(lua_State* L) {
  double v = 0;
  if (!rlx::host::parse_number(luaL_checkstring(L, 1), &v)) return 0;
  lua_pushnumber(L, v);
  return 1;
}

void open_host(lua_State* L) {
  lua_newtable(L);
  lua_newtable(L);
  lua_setfield(L, -2, "_core");
  lua_setglobal(L, "rlx");
  rlx::lua::register_module(L, "host",
                            {{"where", rlx::lua::guarded<where>},
                             {"error_metatable", rlx::lua::guarded<error_metatable>},
                             {"exit_ok", rlx::lua::guarded<exit_ok>},
                             {"check_options", rlx::lua::guarded<rlx::lua::check_options>},
                             {"option_requirement", rlx::lua::guarded<rlx::lua::option_requirement>},
                             {"parse_decimal", rlx::lua::guarded<parse_decimal>}});
}

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
  open_host(L);
  if (luaL_loadstring(L, kCheck) != 0) std::abort();
  lua_pushstring(L, RLX_SOURCE_DIR "/scripts");
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
