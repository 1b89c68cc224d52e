// bind_counters.cpp: rlx._core.counters (placeholder until its issue lands: registers an empty table).
#include "lua_bind.h"
#include "registry.h"

namespace rlx::bindings {
void open_counters(lua_State* L) { lua::register_module(L, "counters", {}); }
}  // namespace rlx::bindings
