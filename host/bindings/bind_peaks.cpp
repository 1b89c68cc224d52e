// bind_peaks.cpp: rlx._core.peaks (placeholder until its issue lands: registers an empty table).
#include "lua_bind.h"
#include "registry.h"

namespace rlx::bindings {
void open_peaks(lua_State* L) { lua::register_module(L, "peaks", {}); }
}  // namespace rlx::bindings
