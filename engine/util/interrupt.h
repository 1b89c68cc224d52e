// interrupt.h: Ctrl-C as data. The host installs a SIGINT handler that only sets a flag; long
// loops (training iterations, sweeps, peak benchmarks) poll interrupted() at safe points and throw
// Interrupted, so a run is either finished and stored or discarded, never half-written. The host
// also passes a callback that the handler calls on every SIGINT: it must be async-signal-safe
// (rlx's sets a Lua debug hook, as the standalone lua interpreter does, so running Lua code stops
// too). A second Ctrl-C while the flag is still set restores the default action and re-raises the
// signal, so the process ends at once (status 130 in the shell) even where nothing polls.
#pragma once

#include <stdexcept>

namespace rlx::util {

struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted by SIGINT (Ctrl-C)") {}
};

using SignalCallback = void (*)();

// Installs the handler; on_signal (may be null) runs inside the signal handler.
void install_sigint_handler(SignalCallback on_signal = nullptr);
bool interrupted();
// Clears the flag (and the count of signals), for a REPL that goes back to its prompt.
void clear_interrupt();
// Throws Interrupted when the flag is set.
void check_interrupt();

}  // namespace rlx::util
