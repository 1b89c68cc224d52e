// startup.cpp: the start-up's two moments (startup.h). At start, prepare_process: what must be
// decided before any work (the user's variables checked, huge pages, malloc). Just before LibTorch
// loads (tensor_library.h), load_tensor_libraries: what its libraries read as they load (how OpenMP
// threads wait, the OpenBLAS kernel set), so neither needs a restart.
//
// The one restart (execv of /proc/self/exe: same pid, open files and signal mask, so a shell, Slurm
// or a pipe sees one process) is for huge pages, which glibc reads before main(). It is marked
// RLX_STARTUP=<pid>:<why>; the restarted image takes the marker and rlx's GLIBC_TUNABLES out of
// its environment, and the load takes out what it set for libgomp and OpenBLAS once they have read
// it: none of rlx's own settings reaches another program, and a child rlx decides for itself.
#include "startup/startup.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "startup/blas_choice.h"
#include "startup/huge_pages.h"
#include "startup/openmp_choice.h"
#include "startup/process_settings.h"
#include "startup/restart_self.h"
#include "util/cpu_stat.h"
#include "util/env_value.h"
#include "util/interrupt.h"
#include "util/process_tuning.h"

namespace rlx::startup {
namespace {

constexpr const char* kMarker = "RLX_STARTUP";

// The BLAS as loaded in this process (name, build, version), without the kernel choice.
void read_blas(Blas& b) {
  const util::BlasInfo info = util::blas_info();
  b.name = info.name;
  b.config = info.config;
  b.version = info.version;
  b.threading = info.threading;
}

Startup& state() {
  static Startup s = [] {
    Startup u;
    u.huge_pages = decide_huge_pages();
    u.allocator.name = util::preloaded_allocator().empty() ? "glibc" : util::preloaded_allocator();
    u.allocator.choice = "not_chosen";
    u.blas.name = "unknown";
    u.blas.threads_choice = "not_chosen";
    return u;
  }();
  return s;
}

// "<pid>:<why>" set by this process before its execv (the pid is the same after it): the reason.
// A marker with another pid came from elsewhere (an environment copied into a job) and is dropped.
std::string take_marker() {
  const char* m = util::env_value(kMarker);
  std::string why;
  const std::string pid = std::to_string(getpid()) + ":";
  if (m != nullptr && std::strncmp(m, pid.c_str(), pid.size()) == 0) why = m + pid.size();
  unsetenv(kMarker);
  return why;
}

// Asked for huge pages, glibc must read GLIBC_TUNABLES at its start: start again with it set.
// Returns only when the restart failed (execv returned).
void restart_for_huge_pages(char** argv) {
  setenv("GLIBC_TUNABLES", kHugePagesTunables, 1);
  setenv(kMarker, (std::to_string(getpid()) + ":huge_pages").c_str(), 1);
  restart_self(argv);
  unsetenv("GLIBC_TUNABLES");
  unsetenv(kMarker);
}

// OMP_NUM_THREADS with a count above util::max_threads() is refused as --threads is (issue 48);
// an invalid one is left to the load, which ignores it with a warning (openmp_choice.h).
void check_thread_counts() {
  const char* v = util::env_value("OMP_NUM_THREADS");
  if (v == nullptr) return;
  for (long long n : thread_counts(v))
    if (n > util::max_threads())
      throw std::invalid_argument("OMP_NUM_THREADS " + util::too_many_threads(n) +
                                  "; set it to a smaller count or unset it");
}

}  // namespace

const Startup& prepare_process(int argc, char** argv) {
  Startup& s = state();
  s.command = argc > 1 ? argv[1] : "";
  s.traits = traits_of(s.command);
  const std::string restarted_for = take_marker();
  if (restarted_for == "huge_pages") {
    s.restarts.push_back(restarted_for);
    unsetenv("GLIBC_TUNABLES");  // glibc has read it; rlx's own, not the user's
  }
  bool huge_pages_failed = false;
  if (s.traits.trains) {
    check_huge_pages_variable();
    check_thread_counts();
    if (restarted_for.empty() && decide_huge_pages().choice == "asked") {
      // A Ctrl-C that came before the restart ends the process, as it would have without one.
      util::check_interrupt();
      restart_for_huge_pages(argv);
      huge_pages_failed = true;
    }
  }
  s.huge_pages = decide_huge_pages(huge_pages_failed);
  s.allocator = tune_malloc();
  return s;
}

void load_tensor_libraries(const std::function<void()>& load) {
  Startup& s = state();
  BlasDecision blas;
  if (load) {
    std::string omp_set;
    s.openmp_wait = choose_openmp_wait(s.traits.trains, omp_set);
    blas = choose_blas_kernel();
    load();
    // The libraries have read them: take rlx's settings out of the environment again.
    if (!omp_set.empty()) unsetenv(omp_set.c_str());
    if (!blas.coretype.empty()) unsetenv("OPENBLAS_CORETYPE");
  }
  read_blas(s.blas);
  describe_blas_kernel(blas, s.blas);
  tune_blas_threads(s.blas);
}

const Startup& current() {
  return state();
}

nlohmann::json to_json(const Startup& s) {
  const OpenMpWait& w = s.openmp_wait;
  nlohmann::json omp = {{"choice", w.choice}};
  if (w.sample_ms > 0) omp["sample_ms"] = w.sample_ms;
  if (w.other_cores >= 0) omp["other_cores"] = w.other_cores;
  if (w.spin_ns > 0) omp["spin_ns"] = w.spin_ns;
  if (w.spin_count > 0) omp["spin_count"] = w.spin_count;
  if (!w.environment.empty()) omp["environment"] = w.environment;
  if (!w.ignored.empty()) omp["ignored"] = w.ignored;
  if (!w.error.empty()) omp["error"] = w.error;
  const HugePages& h = s.huge_pages;
  nlohmann::json thp = {{"choice", h.choice}, {"kernel_mode", h.kernel_mode}};
  if (!h.environment.empty()) thp["environment"] = h.environment;
  if (!h.error.empty()) thp["error"] = h.error;
  nlohmann::json alloc = {{"name", s.allocator.name}, {"choice", s.allocator.choice}};
  if (!s.allocator.environment.empty()) alloc["environment"] = s.allocator.environment;
  const Blas& b = s.blas;
  nlohmann::json blas = {{"name", b.name},
                         {"config", b.config},
                         {"version", b.version},
                         {"threading", b.threading},
                         {"core", b.core},
                         {"set_by", b.set_by},
                         {"openblas_choice", b.openblas_choice},
                         {"checked", b.checked},
                         {"check", b.check},
                         {"reason", b.reason},
                         {"threads_choice", b.threads_choice}};
  if (!b.threads_environment.empty()) blas["threads_environment"] = b.threads_environment;
  return {{"command", s.command}, {"trains", s.traits.trains}, {"restarts", s.restarts},
          {"openmp_wait", omp},   {"huge_pages", thp},         {"allocator", alloc},
          {"blas", blas}};
}

std::vector<std::string> tuning_notes(const Startup& s) {
  return {malloc_note(s.allocator), huge_pages_note(s.huge_pages), blas_threads_note(s.blas)};
}

}  // namespace rlx::startup
