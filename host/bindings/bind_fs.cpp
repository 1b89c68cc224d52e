// bind_fs.cpp: rlx._core.fs, file outputs that are never lost or half-written
// (engine/util/atomic_file.h). scripts/rlx/fs.lua publishes it as rlx.fs.
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lua_bind.h"
#include "registry.h"
#include "util/atomic_file.h"
#include "util/dir_list.h"
#include "util/output_check.h"
#include "util/text_file.h"

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

// write_atomic_all({{path, text}, ...} [, {not_same_as = path or {paths}}]) -> number of files.
// Every file is written to its temporary before any replaces its target, so a failure (a full
// disk, an unwritable target) leaves every target as it was: report.md new beside an old
// report.html told two different stories.
int write_atomic_all(lua_State* L) {
  if (lua_type(L, 1) != LUA_TTABLE)
    throw lua::Error(std::string("argument 1 must be an array of {path, text}, got ") + luaL_typename(L, 1));
  const auto o = lua::Options::optional(L, 2, {"not_same_as"});
  const std::vector<std::string> inputs = o.str_list("not_same_as");
  std::vector<std::pair<std::string, std::string>> files;
  for (int i = 1;; ++i) {
    lua_rawgeti(L, 1, i);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      break;
    }
    if (lua_type(L, -1) != LUA_TTABLE)
      throw lua::Error("file " + std::to_string(i) + " must be a table {path, text}");
    lua_rawgeti(L, -1, 1);
    lua_rawgeti(L, -2, 2);
    if (lua_type(L, -2) != LUA_TSTRING || lua_type(L, -1) != LUA_TSTRING)
      throw lua::Error("file " + std::to_string(i) + " must be {path, text}, two strings");
    size_t np = 0, nt = 0;
    const char* p = lua_tolstring(L, -2, &np);
    const char* t = lua_tolstring(L, -1, &nt);
    files.emplace_back(std::string(p, np), std::string(t, nt));
    lua_pop(L, 3);
  }
  std::vector<std::unique_ptr<util::AtomicFile>> out;
  for (const auto& [path, text] : files) {
    out.push_back(std::make_unique<util::AtomicFile>(path, inputs));
    out.back()->write(text);
  }
  for (auto& f : out) f->commit();
  lua_pushinteger(L, static_cast<lua_Integer>(files.size()));
  return 1;
}

// same_file(a, b) -> boolean
int same_file(lua_State* L) {
  const std::string a = lua::check_string(L, 1);
  const std::string b = lua::check_string(L, 2);
  lua_pushboolean(L, util::same_file(a, b));
  return 1;
}

// check_output(path, kind [, {create=, create_parent=, allow_sqlite=}]) -> path; kind is
// "folder", "file", "append" or "database" (util/output_check.h).
int check_output(lua_State* L) {
  const std::string path = lua::check_string(L, 1);
  const std::string kind = lua::check_string(L, 2);
  const auto o = lua::Options::optional(L, 3, {"create", "create_parent", "allow_sqlite"});
  util::OutputKind k;
  if (kind == "folder") {
    k = util::OutputKind::Folder;
  } else if (kind == "file") {
    k = util::OutputKind::File;
  } else if (kind == "append") {
    k = util::OutputKind::Append;
  } else if (kind == "database") {
    k = util::OutputKind::Database;
  } else {
    throw lua::Error("argument 2 (the kind) must be one of folder, file, append, database, got \"" + kind +
                     "\"");
  }
  util::OutputCheck c;
  c.create = o.boolean("create", true);
  c.create_parent = o.boolean("create_parent", false);
  c.allow_sqlite = o.boolean("allow_sqlite", false);
  util::check_output(path, k, c);
  lua_pushlstring(L, path.data(), path.size());
  return 1;
}

// is_sqlite(path) -> boolean: the file starts with SQLite's header.
int is_sqlite(lua_State* L) {
  lua_pushboolean(L, util::is_sqlite_file(lua::check_string(L, 1)));
  return 1;
}

// list(dir [, {suffix = ".csv", missing_ok = bool, not_only_regular = bool}]) -> sorted names of
// the regular files in dir (with not_only_regular: of every entry that is not a folder)
int list(lua_State* L) {
  const std::string dir = lua::check_string(L, 1);
  const auto o = lua::Options::optional(L, 2, {"suffix", "missing_ok", "not_only_regular"});
  const auto names = util::list_files(dir, o.str("suffix", ""), o.boolean("missing_ok", false),
                                      o.boolean("not_only_regular", false));
  lua_createtable(L, static_cast<int>(names.size()), 0);
  for (size_t i = 0; i < names.size(); ++i) {
    lua_pushlstring(L, names[i].data(), names[i].size());
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
  return 1;
}

// A user's file's size when it may be read (util/text_file.h's rule); nil for a missing one with
// missing_ok. Shared by read and check_file.
std::optional<uint64_t> checked(const std::string& path, const std::string& what, bool missing_ok) {
  if (path.empty()) throw lua::Error("argument 1 (the path) is empty: give a file name");
  return util::check_user_file(path, what, missing_ok);
}

// read(path [, {what = "the CSV", max_bytes = N, missing_ok = bool}]) -> text, or nil for a missing
// file with missing_ok. max_bytes defaults to kDefaultReadBytes.
constexpr long long kDefaultReadBytes = 64LL << 20;
int read(lua_State* L) {
  const std::string path = lua::check_string(L, 1);
  const auto o = lua::Options::optional(L, 2, {"what", "max_bytes", "missing_ok"});
  const std::string what = o.str("what", "");
  const auto max_bytes = static_cast<uint64_t>(o.integer("max_bytes", kDefaultReadBytes, 1));
  if (!checked(path, what, o.boolean("missing_ok", false))) {
    lua_pushnil(L);
    return 1;
  }
  const std::string text = util::read_user_file(path, what, max_bytes);
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

// read_ends(path [, {what =, head_bytes = N, tail_bytes = N, missing_ok =}]) -> head, tail, size in
// bytes (nil: missing, with missing_ok). head_bytes defaults to 64 KiB, tail_bytes to 1.
int read_ends(lua_State* L) {
  const std::string path = lua::check_string(L, 1);
  const auto o = lua::Options::optional(L, 2, {"what", "head_bytes", "tail_bytes", "missing_ok"});
  const std::string what = o.str("what", "");
  const auto bytes = [&](const char* key, long long def) {
    const long long n = o.integer(key, def, 0);
    if (n > kDefaultReadBytes)
      throw lua::Error(fmt::format("option '{}' is at most {} (64 MiB), got {}", key, kDefaultReadBytes, n));
    return static_cast<size_t>(n);
  };
  const size_t head_bytes = bytes("head_bytes", 64 << 10), tail_bytes = bytes("tail_bytes", 1);
  if (!checked(path, what, o.boolean("missing_ok", false))) {
    lua_pushnil(L);
    return 1;
  }
  const util::FileEnds ends = util::read_user_file_ends(path, what, head_bytes, tail_bytes);
  lua_pushlstring(L, ends.head.data(), ends.head.size());
  lua_pushlstring(L, ends.tail.data(), ends.tail.size());
  lua_pushnumber(L, static_cast<double>(ends.size));
  return 3;
}

// check_file(path [, {what =, missing_ok =}]) -> size in bytes (nil: missing, with missing_ok).
int check_file(lua_State* L) {
  const std::string path = lua::check_string(L, 1);
  const auto o = lua::Options::optional(L, 2, {"what", "missing_ok"});
  const auto size = checked(path, o.str("what", ""), o.boolean("missing_ok", false));
  if (size)
    lua_pushnumber(L, static_cast<double>(*size));
  else
    lua_pushnil(L);
  return 1;
}

}  // namespace

void open_fs(lua_State* L) {
  lua::register_module(L, "fs",
                       {{"write_atomic", lua::guarded<write_atomic>},
                        {"write_atomic_all", lua::guarded<write_atomic_all>},
                        {"same_file", lua::guarded<same_file>},
                        {"check_output", lua::guarded<check_output>},
                        {"is_sqlite", lua::guarded<is_sqlite>},
                        {"list", lua::guarded<list>},
                        {"read", lua::guarded<read>},
                        {"read_ends", lua::guarded<read_ends>},
                        {"check_file", lua::guarded<check_file>}});
}

}  // namespace rlx::bindings
