// interrupt.cpp: the interrupt flag described in interrupt.h (async-signal-safe: the handlers only
// store to lock-free atomics, read the monotonic clock, arm alarm(2), call the host's
// async-signal-safe callback and, to end the process at once, write(2) one line and _exit).
#include "util/interrupt.h"

#include "util/supervisor.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace rlx::util {
namespace {
std::atomic<bool> g_interrupted{false};
std::atomic<int> g_signal{0};
std::atomic<bool> g_must_end{false};
std::atomic<bool> g_end_raised{false};
std::atomic<long long> g_first_ns{0};
std::atomic<SignalCallback> g_callback{nullptr};
std::atomic<pid_t> g_forwarder{0};
std::atomic<bool> g_from_terminal{false};
static_assert(std::atomic<bool>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);
static_assert(std::atomic<long long>::is_always_lock_free);
static_assert(std::atomic<pid_t>::is_always_lock_free);
static_assert(std::atomic<SignalCallback>::is_always_lock_free);

// Copies of one SIGINT sent by a process to a whole process group (`kill -INT -PGID`, `timeout
// -s INT`, which signals its child and then its group) reach this process directly and again
// through rlx's supervising parent, microseconds to milliseconds apart; a person or a script that
// means "again" takes longer. A SIGINT from a process counts as the second one only after this.
constexpr long long kRepeatAfterNs = 500'000'000;

long long now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);  // async-signal-safe (POSIX)
  return static_cast<long long>(t.tv_sec) * 1'000'000'000LL + t.tv_nsec;
}

// write(2) of a C string: async-signal-safe, unlike stdio.
void say(const char* text) {
  size_t n = 0;
  while (text[n] != '\0') ++n;
  while (n > 0) {
    const ssize_t w = write(STDERR_FILENO, text, n);
    if (w <= 0) return;
    text += w;
    n -= static_cast<size_t>(w);
  }
}

// The process ends now, with the status a finished interrupt would have had (128 + the signal):
// rlx's supervising parent then withdraws the claims this process held, as this process would
// have (host/supervise.cpp), and SQLite rolls back any transaction left open, so stored data stays
// whole. No destructor, stdio flush or Lua runs: they are what did not finish.
[[noreturn]] void end_now(int sig, const char* why) {
  say("rlx: ");
  say(why);
  say(": stopped at once; the run being trained, if any, is not stored\n");
  _exit(128 + sig);
}

// The deadline's words, made when the handlers are installed (no formatting in a handler).
char g_late_term[96];
char g_late_hup[96];

// SIGALRM, armed by the first SIGTERM or SIGHUP: the grace is over.
void on_deadline(int) {
  if (!g_must_end.load()) return;  // an alarm from before a restart (exec keeps it): not ours
  const int sig = g_signal.load();
  end_now(sig == SIGHUP ? SIGHUP : SIGTERM, sig == SIGHUP ? g_late_hup : g_late_term);
}

void on_signal(int sig, siginfo_t* info, void*) {
  const bool from_process = info == nullptr || info->si_code <= 0;
  const bool first = !g_interrupted.exchange(true);
  if (first) {
    g_signal.store(sig);
    g_from_terminal.store(!from_process);
    g_first_ns.store(now_ns());
  }
  if (sig != SIGINT) {
    // SIGTERM and SIGHUP end the process: the Lua hook stops a script again at every instruction
    // (a pcall cannot keep it), and after the grace the process ends where it is. Their exit
    // status wins over an earlier Ctrl-C's. Once only: `timeout` and rlx's parent both deliver
    // a SIGTERM, and the second must not cut the cleanup the first started.
    if (g_must_end.exchange(true)) return;
    int was = g_signal.load();
    if (was == SIGINT) g_signal.compare_exchange_strong(was, sig);
    alarm(kInterruptGraceS);
    if (SignalCallback cb = g_callback.load()) cb();
    return;
  }
  // The callback (which stops running Lua) runs for the first signal only.
  if (first) {
    if (SignalCallback cb = g_callback.load()) cb();
    return;
  }
  // A second SIGINT ends the process, unless it is a copy of the first: forwarded by the
  // supervising parent, or sent by a process, within kRepeatAfterNs of it.
  const pid_t fwd = g_forwarder.load();
  const bool forwarded = fwd != 0 && info != nullptr && from_process && info->si_pid == fwd;
  if ((forwarded || from_process) && now_ns() - g_first_ns.load() < kRepeatAfterNs) return;
  end_now(SIGINT, "SIGINT again");
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
  std::snprintf(g_late_term, sizeof g_late_term, "SIGTERM, and still running %d s later", kInterruptGraceS);
  std::snprintf(g_late_hup, sizeof g_late_hup, "SIGHUP, and still running %d s later", kInterruptGraceS);
  struct sigaction deadline {};
  deadline.sa_handler = on_deadline;
  sigemptyset(&deadline.sa_mask);
  sigaction(SIGALRM, &deadline, nullptr);
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
bool interrupt_must_end() {
  return g_must_end.load();
}
bool note_end_raised() {
  return g_end_raised.exchange(true);
}
bool interrupt_from_terminal() {
  return g_from_terminal.load();
}
int interrupt_exit_code() {
  const int sig = g_signal.load();
  return 128 + (sig == 0 ? SIGINT : sig);
}
void clear_interrupt() {
  alarm(0);
  g_must_end.store(false);
  g_end_raised.store(false);
  g_interrupted.store(false);
  g_signal.store(0);
  g_from_terminal.store(false);
  g_first_ns.store(0);
}
void check_interrupt() {
  if (interrupted()) throw Interrupted(g_signal.load() == 0 ? SIGINT : g_signal.load());
}
void set_signal_forwarder(pid_t pid) {
  g_forwarder.store(pid);
}
}  // namespace rlx::util
