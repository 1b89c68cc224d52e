// interrupt.cpp: the SIGINT flag described in interrupt.h (async-signal-safe: the handler only
// stores to lock-free atomics, calls the host's async-signal-safe callback and, on a second
// signal, restores the default action and re-raises it).
#include "util/interrupt.h"

#include <atomic>
#include <csignal>

namespace rlx::util {
namespace {
std::atomic<bool> g_interrupted{false};
std::atomic<int> g_count{0};
std::atomic<SignalCallback> g_callback{nullptr};
static_assert(std::atomic<bool>::is_always_lock_free);
static_assert(std::atomic<int>::is_always_lock_free);
static_assert(std::atomic<SignalCallback>::is_always_lock_free);

void on_sigint(int) {
  g_interrupted.store(true);
  if (SignalCallback cb = g_callback.load()) cb();
  if (g_count.fetch_add(1) >= 1) {  // a second Ctrl-C before anything cleared the first: force
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
}
}  // namespace

void install_sigint_handler(SignalCallback on_signal) {
  g_callback.store(on_signal);
  std::signal(SIGINT, on_sigint);
}
bool interrupted() { return g_interrupted.load(); }
void clear_interrupt() {
  g_interrupted.store(false);
  g_count.store(0);
}
void check_interrupt() {
  if (interrupted()) throw Interrupted();
}
}  // namespace rlx::util
