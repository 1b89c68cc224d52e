// process_tuning.h: process-wide settings rlx applies once at start, before any training, so a
// training loop is not slowed by the C library or a BLAS it did not choose. Each setting is
// skipped when the user already chose one through the environment. See docs/benchmarks.md
// ("Allocator and BLAS threads") for the measurements behind them.
#pragma once

#include <string>
#include <vector>

namespace rlx::util {

// Applies the settings (call once, at start, before LibTorch runs anything).
void tune_process_for_training();

// One line per setting, applied or skipped and why, for `rlx version` and the environment (empty
// before tune_process_for_training()).
const std::vector<std::string>& process_tuning_notes();

}  // namespace rlx::util
