// startup.h: process start-up, one owner (docs/training.md, "Start-up"). Everything rlx decides
// about its own process: huge pages for the heap and glibc's malloc settings when it starts
// (prepare_process); how OpenMP threads wait, the OpenBLAS kernel set and OpenBLAS's threads when
// LibTorch's libraries load, on first use (load_tensor_libraries, tensor_library.h). Each is
// decided here, from the command's traits (traits.h), the machine and the user's environment; what
// was decided is one struct, which `rlx version`, `rlx env` and every training result record as
// fields (`startup = {openmp_wait = {...}, huge_pages = {...}, blas = {...}, allocator = {...}}`)
// and the Lua side renders; no text is parsed on the way.
//
// The failure rule (one for every setting): a setting rlx cannot apply (a restart that fails, a
// load it cannot read, a kernel that fails its check, a child process that does not answer) leaves
// the library's own default in place; rlx carries on and the record says what was in force and why
// (`choice`, `error`, `reason`). A value of the user's that a library would refuse (OMP_WAIT_POLICY
// =banana) is treated as unset, with one warning. Only a value the user gave that rlx cannot use
// stops it, before any work, with a one-line error and exit status 2 (RLX_HUGE_PAGES=yes,
// OMP_NUM_THREADS=999 on a 2-core machine).
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "startup/traits.h"

namespace rlx::startup {

// How LibTorch's OpenMP threads wait at the end of a parallel region (openmp_choice.cpp).
struct OpenMpWait {
  // "libgomp_default" (other processes used less than kSharedCores at start), "short_spin" (rlx set
  // GOMP_SPINCOUNT = spin_count), "environment" (the user's OMP_WAIT_POLICY / GOMP_SPINCOUNT, in
  // `environment`), "load_unknown" (/proc/stat could not be read: libgomp's default), "not_chosen"
  // (this command does not train), "failed" (`error`: libgomp's default).
  std::string choice = "not_chosen";
  double other_cores = -1;  // other processes' CPU use over the sample, in cores; -1: not sampled
  int sample_ms = 0;        // how long the load was sampled
  double spin_ns = 0;       // one spin of libgomp's wait loop timed on this core; 0: not timed
  long spin_count = 0;      // short_spin: the GOMP_SPINCOUNT rlx set
  std::map<std::string, std::string> environment;  // the user's settings in force, by variable
  std::map<std::string, std::string> ignored;      // the user's invalid settings, treated as unset
  std::string error;                               // why the choice could not be applied
};

// Transparent huge pages for the training heap (huge_pages.h).
struct HugePages {
  // "asked" (RLX_HUGE_PAGES=1, kernel mode madvise: GLIBC_TUNABLES=glibc.malloc.hugetlb=1 for the
  // commands that train), "not_asked" (madvise without RLX_HUGE_PAGES=1), "always" (given
  // unasked), "never", "environment" (the user's allocator setting, in `environment`),
  // "mode_unknown" (the kernel's mode file unreadable), "failed" (asked, the restart failed).
  std::string choice;
  std::string kernel_mode;  // the bracketed word of /sys/kernel/mm/transparent_hugepage/enabled
  std::string environment;  // "GLIBC_TUNABLES=...", "jemalloc preloaded", ...
  std::string error;
};

// glibc's malloc (process_settings.cpp).
struct Allocator {
  std::string name;         // "glibc", or a preloaded "jemalloc" / "tcmalloc"
  std::string choice;       // "tuned" (no mmap'd chunks, no trimming), "environment", "preloaded", "refused"
  std::string environment;  // the user's MALLOC_*_ or GLIBC_TUNABLES variable, "NAME=value"
};

// The BLAS behind LibTorch's fp32 products, its kernel set and its threads (blas_choice.cpp).
struct Blas {
  std::string name;             // "OpenBLAS", or "unknown"
  std::string config;           // openblas_get_config()
  std::string version;          // OpenBLAS's version ("0.3.21"), from its config; "" when unknown
  std::string threading;        // "openmp", "pthreads", "sequential", "unknown"
  std::string core;             // openblas_get_corename() now; "" when not OpenBLAS
  std::string openblas_choice;  // what OpenBLAS chose by itself, when known
  std::string set_by;           // who chose the kernel: "openblas", "user", "rlx", "none"
  bool checked = false;         // rlx's kernel passed the numerical check
  std::string check;            // the check's worst error against its bound
  std::string reason;           // the kernel and why, in words (part of the environment's id)
  // OpenBLAS's threads: "training_threads" (OpenMP build: LibTorch's threads), "one" (pthreads
  // build, set to 1 thread), "environment" (`threads_environment`), "left" (another build or BLAS).
  std::string threads_choice;
  std::string threads_environment;  // "OPENBLAS_NUM_THREADS=4" when the user set it
};

struct Startup {
  std::string command;  // argv[1], "" without one
  CommandTraits traits;
  // Why this process image was started again by rlx, in order ("huge_pages", "openmp_wait",
  // "blas_kernel"); empty when it was not.
  std::vector<std::string> restarts;
  OpenMpWait openmp_wait;
  HugePages huge_pages;
  Allocator allocator;
  Blas blas;
};

// Decides and applies what must be settled before any work for the command argv[1] (call first
// thing in main, before any thread exists): checks the user's variables, decides huge pages (which
// may start this program again: execv of /proc/self/exe, same pid, same arguments; the call then
// does not return) and sets malloc. Throws std::invalid_argument with the one-line message for a
// user's value it cannot use (main prints it and exits 2), util::Interrupted after a Ctrl-C that
// came before a restart.
const Startup& prepare_process(int argc, char** argv);

// Called by tensor_library() around its dlopen (`load`): decides and sets what LibTorch's
// libraries read as they load (how OpenMP threads wait, the OpenBLAS kernel set), loads them, takes
// rlx's settings out of the environment again and records the BLAS they run with. With no `load`
// (the libraries linked in, as in the unit tests) it only records.
void load_tensor_libraries(const std::function<void()>& load);

// What prepare_process and load_tensor_libraries decided (before them, the defaults: nothing
// chosen).
const Startup& current();

// The struct as JSON (the `startup` field of results and of rlx.version()).
nlohmann::json to_json(const Startup& s);

// The process settings that are part of the environment's id, one line each, as rlx has always
// worded them ("malloc: ...", "thp: ...", "blas: ..."); rendered from the struct, never parsed.
std::vector<std::string> tuning_notes(const Startup& s);

}  // namespace rlx::startup
