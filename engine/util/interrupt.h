// interrupt.h: Ctrl-C, SIGTERM and SIGHUP as data. The host installs handlers that only set a
// flag (and remember which signal came first); long loops (training iterations, sweeps, peak
// benchmarks) poll interrupted() at safe points and throw Interrupted, so a run is either finished
// and stored or discarded, never half-written, and a sweep withdraws the claim of the slot it was
// training (issue 25 finding 2: `timeout`, an ssh drop, a service stop and a Slurm time limit
// send TERM or HUP, which used to kill rlx on the spot and leave the claim behind). The host also
// passes a callback that the handler calls: it must be async-signal-safe (rlx's sets a Lua debug
// hook, as the standalone lua interpreter does, so running Lua code stops too).
//
// How long each signal may take (issue 56 item 3: a user's `while true do pcall(f) end` swallowed
// every signal, since pcall caught the interrupt each time):
//   - SIGINT (Ctrl-C) stops running Lua once: a script may catch it with pcall and go on (the
//     REPL goes back to its prompt). A second SIGINT ends the process at once with 130. A SIGINT
//     forwarded by rlx's supervising parent (util/supervisor.h), or sent by any process, within
//     0.5 s of the first is a copy of it (a signal to the whole process group arrives twice) and
//     does not count.
//   - SIGTERM and SIGHUP must end the process: interrupt_must_end() turns true, the host's hook
//     stops user Lua code again at every instruction (so no pcall keeps it), and after
//     kInterruptGraceS seconds the process ends where it is, with 128 + the signal. A second
//     SIGTERM never shortens that: `timeout` and rlx's parent deliver one each.
// Ending at once (_exit) keeps stored data whole (SQLite rolls back an open transaction), and the
// supervising parent withdraws the claims the process held, as it would have: it reads the same
// 128 + signal status. SIGHUP that is ignored at start (nohup) stays ignored.
#pragma once

#include <sys/types.h>

#include <csignal>
#include <stdexcept>
#include <string>

namespace rlx::util {

// Seconds a SIGTERM or SIGHUP leaves rlx to finish its cleanup (withdrawing a claim, closing the
// databases) before it ends where it is (docs/cli.md, "Signals").
constexpr int kInterruptGraceS = 2;

// "SIGINT (Ctrl-C)", "SIGTERM", "SIGHUP (the terminal or the ssh session closed)".
std::string interrupt_signal_text(int signal);

struct Interrupted : std::runtime_error {
  explicit Interrupted(int sig = SIGINT);
  int signal;  // SIGINT, SIGTERM or SIGHUP; the exit status is 128 + signal
};

using SignalCallback = void (*)();

// Installs the handlers of SIGINT, SIGTERM and SIGHUP (and SIGALRM, the deadline); on_signal (may
// be null) runs inside the signal handler, for the first signal and again for the first SIGTERM or
// SIGHUP after a Ctrl-C.
void install_interrupt_handlers(SignalCallback on_signal = nullptr);
// The old name: the same handlers.
inline void install_sigint_handler(SignalCallback on_signal = nullptr) {
  install_interrupt_handlers(on_signal);
}
bool interrupted();
// The signal that set the flag first (SIGINT, SIGTERM, SIGHUP), 0 when none did; a SIGTERM or
// SIGHUP after a Ctrl-C replaces it (it decides the exit status).
int interrupt_signal();
// True once a SIGTERM or SIGHUP came: the process must end (running Lua is stopped at every
// instruction, and the deadline is armed); never true after a Ctrl-C alone.
bool interrupt_must_end();
// Records that the interrupt that must end the process has been raised once (by the Lua hook, or
// as a C++ Interrupted turned into a Lua error); returns whether it already had been. After the
// first, the hook stops only code that is not rlx's own (host/lua_host.cpp).
bool note_end_raised();
// Whether that signal came from the terminal (Ctrl-C: the kernel sends it to the whole foreground
// process group, so a child in it has its own), not from another process.
bool interrupt_from_terminal();
// 128 + interrupt_signal() (130 for Ctrl-C), or 130 when the flag is not set.
int interrupt_exit_code();
// Clears the flag (and disarms the deadline), for a REPL that goes back to its prompt.
void clear_interrupt();
// Throws Interrupted when the flag is set.
void check_interrupt();
// The process that forwards signals to this one (util/supervisor.h); 0 = none.
void set_signal_forwarder(pid_t pid);

}  // namespace rlx::util
