// bind_fs.cpp: rlx._core.fs, file outputs that are never lost or half-written
// (engine/util/atomic_file.h). scripts/rlx/fs.lua publishes it as rlx.fs.
#include "lua_bind.h"
#include "registry.h"
#include "util/atomic_file.h"

namespace rlx::bindings {
namespace {

// write_atomic(path, text [, {not_same_as = path or {paths}}]) -> path
int write_atomic(lua_State* L) {
  const std::string path = lua::check_string(L, 1);
  if (path.empty()) throw lua::Error("argument 1 (the path) is empty: give a file name");
  const std::string text = lua::check_string(L, 2);
  const auto o = lua::Options::optional(L, 3, {"not_same_as"});
  util::write_file_atomic(path, text, o.str_list("not_same_as"));
  lua_pushlstring(L, path.data(), path.size());
  return 1;
}

// same_file(a, b) -> boolean
int same_file(lua_State* L) {
  const std::string a = lua::check_string(L, 1);
  const std::string b = lua::check_string(L, 2);
  lua_pushboolean(L, util::same_file(a, b));
  return 1;
}

}  // namespace

void open_fs(lua_State* L) {
  lua::register_module(
      L, "fs", {{"write_atomic", lua::guarded<write_atomic>}, {"same_file", lua::guarded<same_file>}});
}

}  // namespace rlx::bindings
