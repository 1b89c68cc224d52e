// interrupt.h: Ctrl-C, SIGTERM and SIGHUP as data. The host installs handlers that only set a
// flag (and remember which signal came first); long loops (training iterations, sweeps, peak
// benchmarks) poll interrupted() at safe points and throw Interrupted, so a run is either finished
// and stored or discarded, never half-written, and a sweep withdraws the claim of the slot it was
// training (issue 25 finding 2: `timeout`, an ssh drop, a service stop and a Slurm time limit
// send TERM or HUP, which used to kill rlx on the spot and leave the claim behind). The host also
// passes a callback that the handler calls on every such signal: it must be async-signal-safe
// (rlx's sets a Lua debug hook, as the standalone lua interpreter does, so running Lua code stops
// too). A second Ctrl-C while the flag is still set restores the default action and re-raises the
// signal, so the process ends at once (status 130 in the shell) even where nothing polls; a Ctrl-C
// forwarded by rlx's supervising parent (util/supervisor.h) never counts as that second one, since
// a signal sent to the whole process group reaches this process twice. TERM and HUP never force:
// what follows them when the work does not stop is SIGKILL (Slurm's KillWait, `timeout -k`).
// SIGHUP that is ignored at start (nohup) stays ignored.
#pragma once

#include <sys/types.h>

#include <csignal>
#include <stdexcept>
#include <string>

namespace rlx::util {

// "SIGINT (Ctrl-C)", "SIGTERM", "SIGHUP (the terminal or the ssh session closed)".
std::string interrupt_signal_text(int signal);

struct Interrupted : std::runtime_error {
  explicit Interrupted(int sig = SIGINT);
  int signal;  // SIGINT, SIGTERM or SIGHUP; the exit status is 128 + signal
};

using SignalCallback = void (*)();

// Installs the handlers of SIGINT, SIGTERM and SIGHUP; on_signal (may be null) runs inside the
// signal handler.
void install_interrupt_handlers(SignalCallback on_signal = nullptr);
// The old name: the same handlers.
inline void install_sigint_handler(SignalCallback on_signal = nullptr) {
  install_interrupt_handlers(on_signal);
}
bool interrupted();
// The signal that set the flag first (SIGINT, SIGTERM, SIGHUP), 0 when none did.
int interrupt_signal();
// Whether that signal came from the terminal (Ctrl-C: the kernel sends it to the whole foreground
// process group, so a child in it has its own), not from another process.
bool interrupt_from_terminal();
// 128 + interrupt_signal() (130 for Ctrl-C), or 130 when the flag is not set.
int interrupt_exit_code();
// Clears the flag (and the count of signals), for a REPL that goes back to its prompt.
void clear_interrupt();
// Throws Interrupted when the flag is set.
void check_interrupt();
// The process that forwards signals to this one (util/supervisor.h); 0 = none.
void set_signal_forwarder(pid_t pid);

}  // namespace rlx::util
