// bind_csv.cpp: rlx._core.csv, a user's CSV file read one record at a time
// (engine/util/csv_reader.h). scripts/rlx/csv.lua publishes it as rlx.csv.reader.
#include <memory>
#include <string>

#include "lua_bind.h"
#include "registry.h"
#include "util/csv_reader.h"

namespace rlx::bindings {
namespace {

constexpr const char* kReaderMeta = "rlx.csv.reader";

struct Reader {
  util::CsvReader* reader;
};

util::CsvReader& reader_of(lua_State* L) {
  auto* r = static_cast<Reader*>(luaL_testudata(L, 1, kReaderMeta));
  if (!r) throw lua::Error("called with '.' instead of ':' (use reader:next())");
  if (!r->reader) throw lua::Error("the reader is closed");
  return *r->reader;
}

// open(path [, {what = "the CSV", max_bytes = N}]) -> reader. max_bytes has no default: the
// caller states the bound its file has.
int open(lua_State* L) {
  const std::string path = lua::check_string(L, 1);
  auto o = lua::Options::optional(L, 2, {"what", "max_bytes"});
  const std::string what = o.str("what", "the CSV");
  const auto max_bytes = static_cast<uint64_t>(o.required_integer("max_bytes", 1));
  auto reader = std::make_unique<util::CsvReader>(path, what, max_bytes);
  auto* r = static_cast<Reader*>(lua_newuserdata(L, sizeof(Reader)));
  r->reader = reader.release();
  luaL_getmetatable(L, kReaderMeta);
  lua_setmetatable(L, -2);
  return 1;
}

// reader:next() -> {fields = {...}, cols = {...}, line = N}, or nil at the end.
int next(lua_State* L) {
  util::CsvRecord rec;
  if (!reader_of(L).next(rec)) {
    lua_pushnil(L);
    return 1;
  }
  lua_createtable(L, 0, 3);
  lua_createtable(L, static_cast<int>(rec.fields.size()), 0);
  for (size_t i = 0; i < rec.fields.size(); ++i) {
    lua_pushlstring(L, rec.fields[i].data(), rec.fields[i].size());
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
  lua_setfield(L, -2, "fields");
  lua_createtable(L, static_cast<int>(rec.cols.size()), 0);
  for (size_t i = 0; i < rec.cols.size(); ++i) {
    lua_pushinteger(L, rec.cols[i]);
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
  lua_setfield(L, -2, "cols");
  lua_pushinteger(L, rec.line);
  lua_setfield(L, -2, "line");
  return 1;
}

int close(lua_State* L) {
  auto* r = static_cast<Reader*>(luaL_testudata(L, 1, kReaderMeta));
  if (r && r->reader) {
    delete r->reader;
    r->reader = nullptr;
  }
  return 0;
}

}  // namespace

void open_csv(lua_State* L) {
  if (luaL_newmetatable(L, kReaderMeta)) {
    lua_newtable(L);
    lua::set_functions(L, lua_gettop(L),
                       "reader:", {{"next", lua::guarded<next>}, {"close", lua::guarded<close>}});
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, lua::guarded<close>);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
  lua::register_module(L, "csv", {{"open", lua::guarded<open>}});
}

}  // namespace rlx::bindings
