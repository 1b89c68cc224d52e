// process_tuning.h: facts about this process's allocator and BLAS, which the start-up settings
// (engine/startup: malloc settings, OpenBLAS's threads and kernel) and the training read. What rlx
// sets is decided in engine/startup/process_settings.cpp; docs/benchmarks.md ("Allocator and BLAS
// threads") has the measurements behind it.
#pragma once

#include <string>

namespace rlx::util {

// The allocator the user chose instead of glibc's, "jemalloc" or "tcmalloc" (preloaded), or "".
std::string preloaded_allocator();

// The user's variable that sets glibc's malloc ("GLIBC_TUNABLES=glibc.malloc.hugetlb=0"), or "":
// with one set, rlx leaves malloc as it is. (rlx's own GLIBC_TUNABLES for huge pages is removed from
// the environment once glibc has read it: engine/startup/startup.cpp.)
std::string user_malloc_variable();

// Gives the C library's free memory back to the kernel (glibc malloc_trim; nothing with another
// allocator). With rlx's malloc settings freed memory otherwise stays in the process for reuse, so
// a training run calls this first: a previous, larger run does not inflate its peak RSS.
void release_free_memory();

// The BLAS LibTorch's fp32 matrix products run on, as far as it can be seen at run time.
struct BlasInfo {
  std::string name;       // "OpenBLAS", or "unknown" (not OpenBLAS: no openblas_* symbols)
  std::string config;     // openblas_get_config(), e.g. "OpenBLAS 0.3.21 DYNAMIC_ARCH ... MAX_THREADS=64"
  std::string version;    // its second word, "0.3.21"; "" when the config does not start "OpenBLAS "
  std::string threading;  // "openmp", "pthreads", "sequential" or "unknown"
  std::string core;       // openblas_get_corename(), the kernel set in use ("Haswell"); "" when not OpenBLAS
  int threads = -1;       // threads OpenBLAS runs a large product on now, from this thread; -1 = unknown
};
BlasInfo blas_info();

}  // namespace rlx::util
