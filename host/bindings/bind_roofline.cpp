// bind_roofline.cpp: rlx._core.roofline (placeholder until its issue lands: registers an empty table).
#include "lua_bind.h"
#include "registry.h"

namespace rlx::bindings {
void open_roofline(lua_State* L) { lua::register_module(L, "roofline", {}); }
}  // namespace rlx::bindings
