// bind_model.cpp: rlx._core.model (placeholder until its issue lands: registers an empty table).
#include "lua_bind.h"
#include "registry.h"

namespace rlx::bindings {
void open_model(lua_State* L) { lua::register_module(L, "model", {}); }
}  // namespace rlx::bindings
