// process_tuning.cpp: glibc malloc settings and OpenBLAS's threads (process_tuning.h).
//
// malloc: a training step frees and reallocates the same activation and gradient buffers every
// iteration. With glibc's defaults the large ones are mmap'd and unmapped (above the mmap
// threshold, 32 MiB at most with the dynamic threshold), and the heap's top is trimmed: each step
// faults them in again. ResNet-50 at 224x224, batch 16, has activations of 51 MB, so a threshold
// alone is never "large enough" for every model and batch; instead the main arena never mmaps
// (M_MMAP_MAX 0: every size comes from the heap and is reused) and the heap is never trimmed
// (M_TRIM_THRESHOLD -1). Memory freed by one run is given back before the next
// (release_free_memory), so a sweep does not keep the largest run's footprint. Measured against
// jemalloc and tcmalloc in docs/benchmarks.md ("Allocator").
//
// OpenBLAS: LibTorch's fp32 matrix products (Linear layers) go to the BLAS behind libblas.so.3 /
// libopenblas.so.0 (setup.sh selects Debian's OpenMP build). That build runs on the OpenMP threads
// LibTorch itself uses, as many as at::set_num_threads asked for, and nothing needs setting. The
// pthreads build keeps its own threads, which spin in sched_yield after each call and take the
// cores from LibTorch's OpenMP threads: there it is set to one thread. OpenBLAS reads
// OPENBLAS_NUM_THREADS when it is loaded, before main(), so its own call is used, not setenv.
#include "util/process_tuning.h"

#include <dlfcn.h>
#include <malloc.h>

#include <cstdlib>

#include "util/env_value.h"
#include "util/huge_pages.h"

namespace rlx::util {
namespace {

std::vector<std::string>& notes() {
  static std::vector<std::string> n;
  return n;
}

bool env_set(const char* name) {
  return env_value(name) != nullptr;
}

template <typename Fn>
Fn symbol(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
}

std::string tune_malloc() {
  const std::string other = preloaded_allocator();
  if (!other.empty()) return "malloc: " + other + " (preloaded); left as it is";
  if (!user_malloc_variable().empty())
    return "malloc: glibc, left as the environment sets it (MALLOC_*_ or GLIBC_TUNABLES)";
  // -1: "disables trimming completely" (mallopt(3)).
  const bool ok = mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_TRIM_THRESHOLD, -1) == 1;
  return ok ? "malloc: glibc, no mmap'd chunks, no heap trimming (freed buffers are reused, not refaulted)"
            : "malloc: glibc refused the settings (mallopt); its defaults are in use";
}

std::string tune_blas() {
  const BlasInfo b = blas_info();
  if (b.name != "OpenBLAS") return "blas: not OpenBLAS (no openblas_get_parallel); nothing to do";
  if (b.threading == "openmp")
    return "blas: OpenBLAS, OpenMP build: runs on LibTorch's OpenMP threads (the training's thread count)";
  if (env_set("OPENBLAS_NUM_THREADS"))
    return "blas: OpenBLAS, " + b.threading + " build, threads left at OPENBLAS_NUM_THREADS=" +
           std::getenv("OPENBLAS_NUM_THREADS");
  if (b.threading != "pthreads") return "blas: OpenBLAS, " + b.threading + " build; nothing to do";
  auto* set_threads = symbol<void (*)(int)>("openblas_set_num_threads");
  if (set_threads != nullptr) set_threads(1);
  return "blas: OpenBLAS, pthreads build: set to 1 thread (its threads would compete with LibTorch's; "
         "the OpenMP build uses every thread, see scripts/setup.sh)";
}

}  // namespace

// Another allocator in the process (LD_PRELOAD) replaces glibc's malloc; mallopt would then tune
// an allocator nobody uses.
std::string preloaded_allocator() {
  if (symbol<void*>("mallctl") != nullptr) return "jemalloc";
  if (symbol<void*>("tc_malloc") != nullptr) return "tcmalloc";
  return "";
}

std::string user_malloc_variable() {
  for (const char* name :
       {"MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_MAX_", "GLIBC_TUNABLES"}) {
    const char* v = env_value(name);
    if (v != nullptr && !(std::string(name) == "GLIBC_TUNABLES" && glibc_tunables_from_rlx()))
      return std::string(name) + "=" + v;
  }
  return "";
}

void tune_process_for_training() {
  auto& n = notes();
  n.clear();
  n.push_back(tune_malloc());
  n.push_back(huge_pages_note());  // chosen before main's other work (huge_pages.h)
  n.push_back(tune_blas());
}

const std::vector<std::string>& process_tuning_notes() { return notes(); }

void release_free_memory() {
  if (preloaded_allocator().empty()) malloc_trim(0);
}

BlasInfo blas_info() {
  BlasInfo b;
  auto* parallel = symbol<int (*)()>("openblas_get_parallel");
  if (parallel == nullptr) {
    b.name = b.threading = "unknown";
    return b;
  }
  b.name = "OpenBLAS";
  auto* config = symbol<char* (*)()>("openblas_get_config");
  if (config != nullptr && config() != nullptr) b.config = config();
  const int p = parallel();
  b.threading = p == 0 ? "sequential" : p == 1 ? "pthreads" : p == 2 ? "openmp" : "unknown";
  // The OpenMP build runs a product on the calling thread's OpenMP thread count (what
  // at::set_num_threads set); its own count is only updated by calls that use more than one.
  auto* threads = symbol<int (*)()>(p == 2 ? "omp_get_max_threads" : "openblas_get_num_threads");
  if (threads != nullptr) b.threads = threads();
  return b;
}

}  // namespace rlx::util
