// interrupt.cpp: the interrupt flag described in interrupt.h (async-signal-safe: the handler only
// stores to lock-free atomics, calls the host's async-signal-safe callback and, on a second
// Ctrl-C, restores the default action and re-raises it).
#include "util/interrupt.h"

#include "util/supervisor.h"

#include <signal.h>

#include <atomic>
#include <csignal>

namespace rlx::util {
namespace {
std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signal{0};
std::atomic<int> g_count{0};
std::atomic<SignalCallback> g_callback{nullptr};
std::atomic<pid_t> g_forwarder{0};
std::atomic<bool> g_from_terminal{false};
static_assert(std::atomic<bool>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);
static_assert(std::atomic<pid_t>::is_always_lock_free);
static_assert(std::atomic<SignalCallback>::is_always_lock_free);

void on_signal(int sig, siginfo_t* info, void*) {
  int none = 0;
  if (g_signal.compare_exchange_strong(none, sig))
    g_from_terminal.store(info != nullptr && info->si_code > 0);
  // The callback (which stops running Lua) runs for the first signal only: a SIGTERM that arrives
  // twice (from `timeout` to the process group, and forwarded by rlx's parent) must not stop the
  // cleanup the first one started (withdrawing a claim).
  if (!g_interrupted.exchange(true)) {
    if (SignalCallback cb = g_callback.load()) cb();
  }
  if (sig != SIGINT) return;
  // Sent by the supervising parent (si_code <= 0: by a process, not the terminal): a copy of a
  // signal this process may also have got directly, never the "second Ctrl-C".
  const pid_t fwd = g_forwarder.load();
  if (fwd != 0 && info != nullptr && info->si_code <= 0 && info->si_pid == fwd) return;
  if (g_count.fetch_add(1) >= 1) {  // a second Ctrl-C before anything cleared the first: force
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
}

void install(int sig) {
  struct sigaction sa {};
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(sig, &sa, nullptr);
}
}  // namespace

// signal_name's name, with what the signal usually means for the two a user causes.
std::string interrupt_signal_text(int sig) {
  if (sig == SIGINT) return signal_name(sig) + " (Ctrl-C)";
  if (sig == SIGHUP) return signal_name(sig) + " (the terminal or the ssh session closed)";
  return signal_name(sig);
}

Interrupted::Interrupted(int sig)
    : std::runtime_error(sig == SIGINT ? "interrupted by SIGINT (Ctrl-C)"
                                       : "stopped by " + interrupt_signal_text(sig)),
      signal(sig) {}

void install_interrupt_handlers(SignalCallback on_signal_cb) {
  g_callback.store(on_signal_cb);
  install(SIGINT);
  install(SIGTERM);
  struct sigaction old {};
  // nohup: a SIGHUP ignored at start stays ignored.
  if (sigaction(SIGHUP, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) return;
  install(SIGHUP);
}
bool interrupted() {
  return g_interrupted.load();
}
int interrupt_signal() {
  return g_signal.load();
}
bool interrupt_from_terminal() {
  return g_from_terminal.load();
}
int interrupt_exit_code() {
  const int sig = g_signal.load();
  return 128 + (sig == 0 ? SIGINT : sig);
}
void clear_interrupt() {
  g_interrupted.store(false);
  g_signal.store(0);
  g_from_terminal.store(false);
  g_count.store(0);
}
void check_interrupt() {
  if (interrupted()) throw Interrupted(g_signal.load() == 0 ? SIGINT : g_signal.load());
}
void set_signal_forwarder(pid_t pid) {
  g_forwarder.store(pid);
}
}  // namespace rlx::util
