// interrupt.cpp: the SIGINT flag described in interrupt.h (async-signal-safe: the handler only
// stores to a lock-free atomic and, on the second signal, resets the disposition).
#include "util/interrupt.h"

#include <atomic>
#include <csignal>

namespace rlx::util {
namespace {
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

void on_sigint(int) {
  if (g_interrupted.exchange(true)) std::signal(SIGINT, SIG_DFL);
}
}  // namespace

void install_sigint_handler() { std::signal(SIGINT, on_sigint); }
bool interrupted() { return g_interrupted.load(); }
void clear_interrupt() { g_interrupted.store(false); }
void check_interrupt() {
  if (interrupted()) throw Interrupted();
}
}  // namespace rlx::util
