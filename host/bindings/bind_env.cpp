// bind_env.cpp: rlx._core.env (placeholder until its issue lands: registers an empty table).
#include "lua_bind.h"
#include "registry.h"

namespace rlx::bindings {
void open_env(lua_State* L) { lua::register_module(L, "env", {}); }
}  // namespace rlx::bindings
