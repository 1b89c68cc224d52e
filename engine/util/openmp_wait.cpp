// openmp_wait.cpp: the machine's load and the time of one spin, from which the start-up chooses
// libgomp's waiting (openmp_wait.h; the choice: engine/startup/openmp_choice.cpp).
#include "util/openmp_wait.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "platform/platform.h"
#include "util/cpu_stat.h"

namespace rlx::util {

double other_cores(int sample_ms) noexcept {
  try {
    const std::vector<int> cpus = allowed_cpus();
    const CpuTicks t0 = read_cpu_ticks(cpus);
    timespec pause{sample_ms / 1000, (sample_ms % 1000) * 1000000L};
    if (!t0.ok() || nanosleep(&pause, nullptr) != 0) return -1;
    const CpuTicks t1 = read_cpu_ticks(cpus);
    const long cores = t1.whole_machine ? sysconf(_SC_NPROCESSORS_ONLN) : t1.cpus;
    // Busy = all but idle (column 3) and iowait (4).
    auto busy = [](const CpuTicks& t) { return t.total() - t.column[3] - t.column[4]; };
    // The same lines twice (a CPU going offline in between would make the sums fall).
    if (!t1.ok() || t1.cpus != t0.cpus || t1.whole_machine != t0.whole_machine || t1.total() <= t0.total() ||
        busy(t1) < busy(t0) || cores < 1)
      return -1;
    return static_cast<double>(busy(t1) - busy(t0)) / static_cast<double>(t1.total() - t0.total()) *
           static_cast<double>(cores);
  } catch (...) {
    return -1;
  }
}

double spin_ns() noexcept {
  // libgomp's loop (config/linux/wait.h, do_spin): a relaxed load of the flag it waits on, then
  // cpu_relax(): PAUSE on x86-64, YIELD on arm64 (platform::relax). 8 bursts of 2,000 take about
  // 0.45 ms on the EPYC.
  if (!platform::relax_is_instruction()) return 0;
  constexpr int kBursts = 8, kSpins = 2000;
  static int flag = 0;
  double best = 0;
  for (int b = 0; b < kBursts; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kSpins; ++i) {
      if (__atomic_load_n(&flag, __ATOMIC_RELAXED) != 0) break;
      platform::relax();
    }
    const double ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / kSpins;
    if (ns > 0 && (best == 0 || ns < best)) best = ns;
  }
  return best;
}

long shared_spin_count(double wait_ns, double spin_ns) noexcept {
  if (!(spin_ns > 0) || !(wait_ns > 0)) return kFallbackSpinCount;
  return std::clamp(std::lround(wait_ns / spin_ns), 100L, 300'000L);
}

}  // namespace rlx::util
