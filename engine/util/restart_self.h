// restart_self.h: start this program again, the way rlx applies settings that a library reads
// before main() (libgomp's GOMP_SPINCOUNT, glibc's tunables, OpenBLAS's core type): set the
// variables, then replace the process image with /proc/self/exe and the same arguments. execv keeps
// the pid, the open files and the signal mask, so callers see one process.
#pragma once

#include <unistd.h>

#include <cstdio>

namespace rlx::util {

// Flushes every C stream (and so std::cout and std::cerr, which are synced with them) and re-executes
// this program with `argv`; returns only when execv failed (errno says why).
inline void restart_self(char** argv) {
  std::fflush(nullptr);
  execv("/proc/self/exe", argv);
}

}  // namespace rlx::util
