// luajit_unwinding.cpp: configure-time check (cmake/CheckLuaJITUnwinding.cmake). rlx's bindings
// call the Lua API with C++ objects alive, and the API may raise a Lua error (out of memory, a
// metamethod, a callback that fails). That is only safe when LuaJIT unwinds with the C++ ABI
// ("external unwinding", LuaJIT's default on x86-64 and arm64 Linux): the objects' destructors then
// run. This program exits 0 when they do, for a direct error and for one raised in a callback.
extern "C" {
#include <lauxlib.h>
#include <lualib.h>
}

static int destroyed = 0;
struct Counted {
  ~Counted() { ++destroyed; }
};

static int raises(lua_State* L) {
  Counted c;
  (void)c;
  return luaL_error(L, "raised with a C++ object alive");
}

static int calls(lua_State* L) {
  Counted c;
  (void)c;
  lua_pushvalue(L, 1);
  lua_call(L, 0, 0);
  return 0;
}

int main() {
  lua_State* L = luaL_newstate();
  luaL_openlibs(L);
  lua_register(L, "raises", raises);
  lua_register(L, "calls", calls);
  int bad = luaL_dostring(L, "raises()") == 0;
  bad |= luaL_dostring(L, "calls(function() error('inner') end)") == 0;
  lua_close(L);
  return (bad || destroyed != 2) ? 1 : 0;
}
