// bind_fs.cpp: rlx._core.fs, file outputs that are never lost or half-written
// (engine/util/atomic_file.h). scripts/rlx/fs.lua publishes it as rlx.fs.
#include "lua_bind.h"
#include "registry.h"
#include "util/atomic_file.h"

namespace rlx::bindings {
namespace {

constexpr const char* kWriteAtomic = "rlx.fs.write_atomic";

// write_atomic(path, text [, {not_same_as = path or {paths}}]) -> path
int write_atomic(lua_State* L) {
  const std::string path = lua::check_string(L, 1, kWriteAtomic);
  if (path.empty())
    throw lua::Error(std::string(kWriteAtomic) + ": argument 1 (the path) is empty: give a file name");
  const std::string text = lua::check_string(L, 2, kWriteAtomic);
  const auto o = lua::Options::optional(L, 3, kWriteAtomic, {"not_same_as"});
  const auto inputs = o.str_list("not_same_as");
  try {
    util::write_file_atomic(path, text, inputs);
  } catch (const std::runtime_error& e) {
    throw lua::Error(std::string(kWriteAtomic) + ": " + e.what());
  }
  lua_pushlstring(L, path.data(), path.size());
  return 1;
}

// same_file(a, b) -> boolean
int same_file(lua_State* L) {
  const std::string a = lua::check_string(L, 1, "rlx.fs.same_file");
  const std::string b = lua::check_string(L, 2, "rlx.fs.same_file");
  lua_pushboolean(L, util::same_file(a, b));
  return 1;
}

}  // namespace

void open_fs(lua_State* L) {
  lua::register_module(
      L, "fs", {{"write_atomic", lua::guarded<write_atomic>}, {"same_file", lua::guarded<same_file>}});
}

}  // namespace rlx::bindings
