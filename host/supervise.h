// supervise.h: which rlx commands run under a supervising parent (util/supervisor.h) and what
// that parent does when its child died holding claims: it records the death, with its cause,
// over every claim still `running` in the databases the child claimed slots in.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "util/supervisor.h"

namespace rlx::host {

// Called first in main (after the start-up settings, before any thread): the commands whose traits
// say `supervised` (engine/startup/traits.cpp: run, -e, shard, the ones that run sweeps) fork
// here; others return at once.
void supervise_command(const std::string& command);

// The death entry for how the child ended (store::death_entry's fields): cause "oom" when it was
// killed by SIGKILL and the memory cgroup's OOM kill count rose from oom_before to oom_after (or
// the kernel log names its pid), else "signal" or "exit". Counts of -1 are unknown.
nlohmann::json death_of(const util::ChildEnd& end, long long oom_before, long long oom_after);

// Tells the supervising parent that this process claimed a slot in the database at path.
void tell_claim(const std::string& db_path);

}  // namespace rlx::host
