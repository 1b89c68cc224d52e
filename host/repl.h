// repl.h: the interactive loop of `rlx repl` (libedit when stdin is a terminal, plain lines
// otherwise). Evaluation, printing and completion are in scripts/rlx/_repl.lua.
#pragma once
#include "lua_host.h"

namespace rlx::host {
int run_repl(LuaHost& host);
}
