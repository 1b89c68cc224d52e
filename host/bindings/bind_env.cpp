// bind_env.cpp: rlx._core.env, the machine's environment as a Lua table (engine/env/env.h).
// The Lua layer (scripts/rlx/env.lua) adds what only Lua knows: rlx.version() and rlx.devices().
#include "env/env.h"
#include "env/memory.h"
#include "lua_bind.h"
#include "registry.h"
#include "util/cpu_stat.h"

namespace rlx::bindings {
namespace {

int capture(lua_State* L) {
  std::string label = lua_isnoneornil(L, 1) ? std::string() : lua::check_string(L, 1);
  env::Sources src;
  if (!lua_isnoneornil(L, 2)) src.root = lua::check_string(L, 2);
  lua::push_json(L, env::capture(label, src));
  return 1;
}

// memory_available([root]) -> {available_bytes, mem_available_bytes, cgroup, ...} (env/memory.h).
int memory_available(lua_State* L) {
  lua::push_json(
      L, env::to_json(env::memory_room(lua_isnoneornil(L, 1) ? std::string() : lua::check_string(L, 1))));
  return 1;
}

// usable_cpus() -> the CPUs this process may run on (util/cpu_stat.h): rlx.train's default threads
// unless OMP_NUM_THREADS is set (default_threads).
int usable_cpus(lua_State* L) {
  lua_pushinteger(L, util::usable_cpus());
  return 1;
}

// default_threads() -> {threads=, from=}: rlx.train's default intra-op threads (util/cpu_stat.h):
// OMP_NUM_THREADS when set to a count ("OMP_NUM_THREADS"), else usable_cpus ("cpus").
int default_threads(lua_State* L) {
  const util::DefaultThreads d = util::default_threads(util::cpu_quota());
  lua::push_json(L, {{"threads", d.threads}, {"from", d.from}});
  return 1;
}

// cpu_quota() -> {cpus=, source=} or nil: the cgroup's CPU quota (util/cpu_quota.h), which caps
// usable_cpus.
int cpu_quota(lua_State* L) {
  const auto q = util::cpu_quota();
  if (!q) {
    lua_pushnil(L);
    return 1;
  }
  lua::push_json(L, {{"cpus", q->cpus}, {"source", q->source}});
  return 1;
}

}  // namespace

void open_env(lua_State* L) {
  lua::register_module(L, "env",
                       {{"capture", lua::guarded<capture>},
                        {"usable_cpus", lua::guarded<usable_cpus>},
                        {"default_threads", lua::guarded<default_threads>},
                        {"cpu_quota", lua::guarded<cpu_quota>},
                        {"memory_available", lua::guarded<memory_available>, "rlx.memory.available"}});
}

}  // namespace rlx::bindings
