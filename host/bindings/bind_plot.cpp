// bind_plot.cpp: rlx._core.plot (placeholder until its issue lands: registers an empty table).
#include "lua_bind.h"
#include "registry.h"

namespace rlx::bindings {
void open_plot(lua_State* L) { lua::register_module(L, "plot", {}); }
}  // namespace rlx::bindings
