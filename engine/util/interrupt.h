// interrupt.h: Ctrl-C as data. The host installs a SIGINT handler that only sets a flag; long
// loops (training iterations, sweeps, peak benchmarks) poll interrupted() at safe points and throw
// Interrupted, so a run is either finished and stored or discarded, never half-written. A second
// Ctrl-C while the flag is already set restores the default action and kills the process.
#pragma once

#include <stdexcept>

namespace rlx::util {

struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted by SIGINT (Ctrl-C)") {}
};

void install_sigint_handler();
bool interrupted();
void clear_interrupt();
// Throws Interrupted when the flag is set.
void check_interrupt();

}  // namespace rlx::util
