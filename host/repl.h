// repl.h: the interactive loop of `rlx repl` (libedit when stdin is a terminal, plain lines
// otherwise). Evaluation, printing and completion are in scripts/rlx/_repl.lua. write_db
// (--write): open rlx.params.db for writing; without it the database is opened read-only.
#pragma once
#include "lua_host.h"

namespace rlx::host {
int run_repl(LuaHost& host, bool write_db);
}
