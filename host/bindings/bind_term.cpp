// bind_term.cpp: rlx._core.term: the terminal on stdout, for the table printer (scripts/rlx/show.lua)
// and inline images (scripts/rlx/_termimg.lua), and the one escaping rule for a user's string
// (engine/util/printable.h; rlx.show.printable). The work is in host/terminal.cpp.
#include "lua_bind.h"
#include "registry.h"
#include "terminal.h"
#include "util/printable.h"

namespace rlx::bindings {
namespace {

// width() -> columns of the terminal on stdout, or nil when stdout is not a terminal.
int width(lua_State* L) {
  const auto w = host::terminal_width();
  if (!w) return 0;
  lua_pushinteger(L, *w);
  return 1;
}

// query(sequence, end_char, timeout_ms) -> the terminal's reply up to end_char, or nil.
int query(lua_State* L) {
  const std::string seq = lua::check_string(L, 1);
  const std::string end = lua::check_string(L, 2);
  const int timeout = static_cast<int>(lua::check_number(L, 3));
  if (end.size() != 1) throw lua::Error("the end (argument 2) must be one character");
  const auto reply = host::terminal_query(seq, end[0], timeout);
  if (!reply) return 0;
  lua_pushlstring(L, reply->data(), reply->size());
  return 1;
}

// printable(s [, keep_lines]) -> s with its control characters as \ddd (util::printable).
int printable(lua_State* L) {
  const std::string s = lua::check_string(L, 1);
  const std::string out = util::printable(s, lua_toboolean(L, 2) != 0);
  lua_pushlstring(L, out.data(), out.size());
  return 1;
}

// has_control(s) -> whether printable(s) would change s.
int has_control(lua_State* L) {
  lua_pushboolean(L, util::has_control_characters(lua::check_string(L, 1)));
  return 1;
}

}  // namespace

void open_term(lua_State* L) {
  lua::register_module(L, "term",
                       {{"width", lua::guarded<width>},
                        {"query", lua::guarded<query>},
                        {"printable", lua::guarded<printable>},
                        {"has_control", lua::guarded<has_control>}});
}

}  // namespace rlx::bindings
