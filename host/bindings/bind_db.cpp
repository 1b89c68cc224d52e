// bind_db.cpp: rlx._core.db (placeholder until its issue lands: registers an empty table).
#include "lua_bind.h"
#include "registry.h"

namespace rlx::bindings {
void open_db(lua_State* L) { lua::register_module(L, "db", {}); }
}  // namespace rlx::bindings
