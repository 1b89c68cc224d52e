// process_tuning.cpp: the allocator and the BLAS as this process sees them (process_tuning.h).
#include "util/process_tuning.h"

#include <dlfcn.h>
#include <malloc.h>

#include <cstdlib>

#include "util/env_value.h"

namespace rlx::util {
namespace {

template <typename Fn>
Fn symbol(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
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
    if (v != nullptr) return std::string(name) + "=" + v;
  }
  return "";
}

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
  if (b.config.rfind("OpenBLAS ", 0) == 0) b.version = b.config.substr(9, b.config.find(' ', 9) - 9);
  auto* core = symbol<char* (*)()>("openblas_get_corename");
  if (core != nullptr && core() != nullptr) b.core = core();
  const int p = parallel();
  b.threading = p == 0 ? "sequential" : p == 1 ? "pthreads" : p == 2 ? "openmp" : "unknown";
  // The OpenMP build runs a product on the calling thread's OpenMP thread count (what
  // at::set_num_threads set); its own count is only updated by calls that use more than one.
  auto* threads = symbol<int (*)()>(p == 2 ? "omp_get_max_threads" : "openblas_get_num_threads");
  if (threads != nullptr) b.threads = threads();
  return b;
}

}  // namespace rlx::util
