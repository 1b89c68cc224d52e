// process_settings.cpp: glibc malloc settings and OpenBLAS's threads (process_settings.h).
//
// malloc: a training step frees and reallocates the same activation and gradient buffers every
// iteration. With glibc's defaults the large ones are mmap'd and unmapped (above the mmap
// threshold, 32 MiB at most with the dynamic threshold), and the heap's top is trimmed: each step
// faults them in again. ResNet-50 at 224x224, batch 16, has activations of 51 MB, so a threshold
// alone is never "large enough" for every model and batch; instead the main arena never mmaps
// (M_MMAP_MAX 0: every size comes from the heap and is reused) and the heap is never trimmed
// (M_TRIM_THRESHOLD -1). Memory freed by one run is given back before the next
// (util::release_free_memory), so a sweep does not keep the largest run's footprint. Measured
// against jemalloc and tcmalloc in docs/benchmarks.md ("Allocator").
//
// OpenBLAS: LibTorch's fp32 matrix products (Linear layers) go to the BLAS behind libblas.so.3 /
// libopenblas.so.0 (setup.sh selects Debian's OpenMP build). That build runs on the OpenMP threads
// LibTorch itself uses, as many as at::set_num_threads asked for, and nothing needs setting. The
// pthreads build keeps its own threads, which spin in sched_yield after each call and take the
// cores from LibTorch's OpenMP threads: there it is set to one thread. OpenBLAS reads
// OPENBLAS_NUM_THREADS when it is loaded, so its own call is used, not setenv.
#include "startup/process_settings.h"

#include <dlfcn.h>
#include <malloc.h>

#include "util/env_value.h"
#include "util/process_tuning.h"

namespace rlx::startup {

Allocator tune_malloc() {
  Allocator a;
  a.name = util::preloaded_allocator();
  if (!a.name.empty()) {
    a.choice = "preloaded";
    return a;
  }
  a.name = "glibc";
  a.environment = util::user_malloc_variable();
  if (!a.environment.empty()) {
    a.choice = "environment";
    return a;
  }
  // -1: "disables trimming completely" (mallopt(3)).
  const bool ok = mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_TRIM_THRESHOLD, -1) == 1;
  a.choice = ok ? "tuned" : "refused";
  return a;
}

void tune_blas_threads(Blas& b) {
  const char* user = util::env_value("OPENBLAS_NUM_THREADS");
  if (b.name != "OpenBLAS") {
    b.threads_choice = "left";
  } else if (b.threading == "openmp") {
    b.threads_choice = "training_threads";
  } else if (user != nullptr) {
    b.threads_choice = "environment";
    b.threads_environment = std::string("OPENBLAS_NUM_THREADS=") + user;
  } else if (b.threading != "pthreads") {
    b.threads_choice = "left";
  } else {
    auto* set_threads = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    if (set_threads != nullptr) set_threads(1);
    b.threads_choice = "one";
  }
}

std::string malloc_note(const Allocator& a) {
  if (a.choice == "preloaded") return "malloc: " + a.name + " (preloaded); left as it is";
  if (a.choice == "environment")
    return "malloc: glibc, left as the environment sets it (MALLOC_*_ or GLIBC_TUNABLES)";
  if (a.choice == "tuned")
    return "malloc: glibc, no mmap'd chunks, no heap trimming (freed buffers are reused, not refaulted)";
  return "malloc: glibc refused the settings (mallopt); its defaults are in use";
}

std::string blas_threads_note(const Blas& b) {
  if (b.name != "OpenBLAS") return "blas: not OpenBLAS (no openblas_get_parallel); nothing to do";
  if (b.threads_choice == "training_threads")
    return "blas: OpenBLAS, OpenMP build: runs on LibTorch's OpenMP threads (the training's thread count)";
  if (b.threads_choice == "environment")
    return "blas: OpenBLAS, " + b.threading + " build, threads left at " + b.threads_environment;
  if (b.threads_choice == "one")
    return "blas: OpenBLAS, pthreads build: set to 1 thread (its threads would compete with LibTorch's; "
           "the OpenMP build uses every thread, see scripts/setup.sh)";
  return "blas: OpenBLAS, " + b.threading + " build; nothing to do";
}

}  // namespace rlx::startup
