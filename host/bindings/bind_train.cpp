// bind_train.cpp: rlx._core.train (placeholder until its issue lands: registers an empty table).
#include "lua_bind.h"
#include "registry.h"

namespace rlx::bindings {
void open_train(lua_State* L) { lua::register_module(L, "train", {}); }
}  // namespace rlx::bindings
