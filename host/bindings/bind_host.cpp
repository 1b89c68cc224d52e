// bind_host.cpp: rlx._core.host: what this binary is (versions of rlx and every library it was
// built with, whether CUDA and CUPTI support are compiled in) and which Lua modules it embeds.
#include <cairo.h>
#include <fmt/format.h>
#include <sqlite3.h>
#include <torch/version.h>

#include "embedded_scripts.h"
#include "lua_bind.h"
#include "registry.h"
#include "rlx_build_info.h"

extern "C" {
#include <luajit.h>
}

#ifdef RLX_HAVE_CUPTI
#include <cuda.h>
#include <cupti_version.h>
#endif

namespace rlx::bindings {
namespace {

int versions(lua_State* L) {
  nlohmann::json v = {
      {"rlx", RLX_VERSION},
      {"torch", fmt::format("{}.{}.{}", TORCH_VERSION_MAJOR, TORCH_VERSION_MINOR, TORCH_VERSION_PATCH)},
      {"luajit", LUAJIT_VERSION},
      {"lua", LUA_RELEASE},
      {"sqlite", sqlite3_libversion()},
      {"cairo", cairo_version_string()},
      {"fmt", fmt::format("{}.{}.{}", FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100)},
      {"compiler", RLX_COMPILER},
      {"build_type", RLX_BUILD_TYPE},
      {"torch_cuda", RLX_TORCH_CUDA != 0},
  };
#ifdef RLX_HAVE_CUPTI
  v["cuda"] = fmt::format("{}.{}", CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
  v["cupti"] = fmt::format("{}", CUPTI_API_VERSION);
#endif
  lua::push_json(L, v);
  return 1;
}

int modules(lua_State* L) {
  lua_newtable(L);
  int i = 1;
  for (const auto& s : host::embedded_scripts()) {
    lua_pushstring(L, s.module);
    lua_rawseti(L, -2, i++);
  }
  return 1;
}

}  // namespace

void open_host(lua_State* L) {
  lua::register_module(L, "host", {{"versions", lua::guarded<versions>}, {"modules", lua::guarded<modules>}});
}

}  // namespace rlx::bindings
