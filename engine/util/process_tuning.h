// process_tuning.h: process-wide settings rlx applies once at start, before any training, so a
// training loop is not slowed by the C library or a BLAS it did not choose. Each setting is
// skipped when the user already chose one through the environment. See docs/benchmarks.md
// ("Allocator and BLAS threads") for the measurements behind them.
#pragma once

#include <string>
#include <vector>

namespace rlx::util {

// Applies the settings and returns one line per setting applied or skipped, for `rlx version`.
std::vector<std::string> tune_process_for_training();

// The lines of the last tune_process_for_training() call (empty before it).
const std::vector<std::string>& process_tuning_notes();

}  // namespace rlx::util
