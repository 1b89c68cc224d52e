// process_settings.h: glibc's malloc settings and OpenBLAS's threads, applied at start before any
// training (process_settings.cpp says why). Each is skipped when the user already chose one through
// the environment (or preloaded another allocator).
#pragma once

#include <string>

#include "startup/startup.h"

namespace rlx::startup {

// Applies rlx's malloc settings unless the user chose theirs; says what is in force.
Allocator tune_malloc();
// Sets OpenBLAS's threads where needed (its pthreads build); fills b.threads_choice from the BLAS
// loaded in this process (b.name, b.threading).
void tune_blas_threads(Blas& b);

// The lines of tuning_notes() ("malloc: ...", "blas: ..."), worded as rlx always has.
std::string malloc_note(const Allocator& a);
std::string blas_threads_note(const Blas& b);

}  // namespace rlx::startup
