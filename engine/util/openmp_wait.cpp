// openmp_wait.cpp: libgomp's waiting chosen from the machine's load at start (openmp_wait.h).
//
// libgomp has read its variables by the time main() runs, so a choice other than the one it read
// means starting the program again (util/restart_self.h, as the BLAS kernel choice and huge pages
// do). The marker RLX_OMP_WAIT=<pid> says the spin count came from rlx: the same
// pid (execv keeps it) is the restart, which takes it; another pid is a process rlx started (a
// Slurm task, a script's `rlx` call), which decides again from the load it sees.
#include "util/openmp_wait.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "util/cpu_stat.h"
#include "util/env_value.h"
#include "util/restart_self.h"

namespace rlx::util {
namespace {

enum class Choice { not_run, user, idle, shared, unknown, no_restart };
constinit Choice g_choice = Choice::not_run;
constinit double g_other_cores = -1;
constinit char g_user_setting[96] = {};
constinit double g_spin_ns = 0;
constinit long g_spin_count = 0;
constexpr const char* kMarker = "RLX_OMP_WAIT";
constexpr const char* kSpin = "GOMP_SPINCOUNT";
constexpr const char* kCores = "RLX_OMP_WAIT_CORES";
constexpr const char* kSpinNs = "RLX_OMP_SPIN_NS";  // the measured spin, for the restart's note

// Cores other processes used over `sample_ms` (this process sleeps meanwhile), or -1: on the CPUs
// this process may run on (util/cpu_stat.h), the whole machine when its mask cannot be read.
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

// "0.27 ms at 27.12 ns a spin, measured" or, where no spin was measured, the fallback's origin.
std::string spin_text() {
  char text[96];
  if (g_spin_ns > 0)
    std::snprintf(text, sizeof text, "%.2f ms at %.2f ns a spin, measured",
                  static_cast<double>(g_spin_count) * g_spin_ns / 1e6, g_spin_ns);
  else
    std::snprintf(text, sizeof text, "a spin not measurable here: the count chosen on a 2-core EPYC");
  return text;
}

}  // namespace

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

void choose_openmp_wait(char** argv, int sample_ms) noexcept {
  const std::string pid = std::to_string(getpid());
  const char* mine = env_value(kMarker);
  if (mine != nullptr && pid == mine) {  // this is the restart
    const char* seen = env_value(kCores);
    const char* spin = env_value(kSpinNs);
    const char* count = env_value(kSpin);
    g_other_cores = seen != nullptr ? std::atof(seen) : -1;
    g_spin_ns = spin != nullptr ? std::atof(spin) : 0;
    g_spin_count = count != nullptr ? std::atol(count) : 0;
    g_choice = Choice::shared;
    return;
  }
  const char* policy = env_value("OMP_WAIT_POLICY");
  const char* count = mine != nullptr ? nullptr : env_value(kSpin);  // a parent rlx's is not the user's
  if (policy != nullptr || count != nullptr) {
    std::snprintf(g_user_setting, sizeof g_user_setting, "%s%s%s%s%s", policy ? "OMP_WAIT_POLICY=" : "",
                  policy ? policy : "", policy && count ? ", " : "", count ? "GOMP_SPINCOUNT=" : "",
                  count ? count : "");
    g_choice = Choice::user;
    return;
  }
  g_other_cores = other_cores(sample_ms);
  if (g_other_cores < 0) {
    g_choice = Choice::unknown;
  } else if (g_other_cores < kSharedCores) {
    g_choice = Choice::idle;
    if (mine != nullptr) {  // drop a parent rlx's spin count, which libgomp has read
      unsetenv(kSpin);
      unsetenv(kMarker);
      unsetenv(kCores);
      unsetenv(kSpinNs);
      restart_self(argv);
    }
  } else {
    char cores[32], spin[32], count[32];
    g_spin_ns = spin_ns();
    g_spin_count = shared_spin_count(kSharedSpinWaitNs, g_spin_ns);
    std::snprintf(cores, sizeof cores, "%.1f", g_other_cores);
    std::snprintf(spin, sizeof spin, "%.2f", g_spin_ns);
    std::snprintf(count, sizeof count, "%ld", g_spin_count);
    setenv(kSpin, count, 1);
    setenv(kMarker, pid.c_str(), 1);
    setenv(kCores, cores, 1);
    setenv(kSpinNs, spin, 1);
    restart_self(argv);
    g_choice = Choice::no_restart;
  }
}

std::string openmp_wait_note() {
  char load[64];
  std::snprintf(load, sizeof load, "%.1f other cores busy at start", g_other_cores);
  switch (g_choice) {
    case Choice::user:
      return std::string("openmp: waiting left as the environment sets it (") + g_user_setting + ")";
    case Choice::idle:
      return std::string("openmp: libgomp's default waiting (spin, then sleep): ") + load;
    case Choice::shared:
      return "openmp: GOMP_SPINCOUNT=" + std::to_string(g_spin_count) + ", a short spin before sleeping (" +
             spin_text() + "): " + load + " (a long spin holds a core the other thread needs)";
    case Choice::unknown:
      return "openmp: libgomp's default waiting (the machine's load could not be read)";
    case Choice::no_restart:
      return std::string("openmp: libgomp's default waiting: ") + load +
             ", but restarting with GOMP_SPINCOUNT failed (execv of /proc/self/exe)";
    case Choice::not_run:
      break;
  }
  return "openmp: libgomp's default waiting (not chosen in this program)";
}

}  // namespace rlx::util
