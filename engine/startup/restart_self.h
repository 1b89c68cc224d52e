// restart_self.h: start this program again, the way rlx applies settings that a library reads
// before main() (libgomp's GOMP_SPINCOUNT, glibc's tunables, OpenBLAS's core type): set the
// variables, then replace the process image with /proc/self/exe and the same arguments. execv keeps
// the pid, the open files and the signal mask, so callers see one process.
#pragma once

#include <unistd.h>

#include <cstdio>

#include "util/cpu_stat.h"

namespace rlx::startup {

// Flushes every C stream (and so std::cout and std::cerr, which are synced with them), gives the
// main thread back the CPUs libgomp pinned it away from, and re-executes this program with `argv`;
// returns only when execv failed (errno says why).
inline void restart_self(char** argv) {
  std::fflush(nullptr);
  util::unpin_for_restart();
  execv("/proc/self/exe", argv);
}

}  // namespace rlx::startup
