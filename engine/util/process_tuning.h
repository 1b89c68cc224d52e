// process_tuning.h: process-wide settings rlx applies once at start, before any training, so a
// training loop is not slowed by the C library or a BLAS it did not choose. Each setting is
// skipped when the user already chose one through the environment (or preloaded another
// allocator). See docs/benchmarks.md ("Allocator and BLAS threads") for the measurements behind
// them.
#pragma once

#include <string>
#include <vector>

namespace rlx::util {

// Applies the settings (call once, at start, before LibTorch runs anything).
void tune_process_for_training();

// One line per setting, applied or skipped and why, for `rlx version` and the environment (empty
// before tune_process_for_training()).
const std::vector<std::string>& process_tuning_notes();

// The allocator the user chose instead of glibc's, "jemalloc" or "tcmalloc" (preloaded), or "".
std::string preloaded_allocator();

// The user's variable that sets glibc's malloc ("GLIBC_TUNABLES=glibc.malloc.hugetlb=0"), or "":
// with one set, rlx leaves malloc as it is. GLIBC_TUNABLES that rlx set itself (huge_pages.h) is
// not the user's.
std::string user_malloc_variable();

// Gives the C library's free memory back to the kernel (glibc malloc_trim; nothing with another
// allocator). With the settings above freed memory otherwise stays in the process for reuse, so a
// training run calls this first: a previous, larger run does not inflate its peak RSS.
void release_free_memory();

// The BLAS LibTorch's fp32 matrix products run on, as far as it can be seen at run time.
struct BlasInfo {
  std::string name;     // "OpenBLAS", or "unknown" (not OpenBLAS: no openblas_* symbols)
  std::string config;   // openblas_get_config(), e.g. "OpenBLAS 0.3.21 DYNAMIC_ARCH ... MAX_THREADS=64"
  std::string threading;  // "openmp", "pthreads", "sequential" or "unknown"
  int threads = -1;     // threads OpenBLAS runs a large product on now, from this thread; -1 = unknown
};
BlasInfo blas_info();

}  // namespace rlx::util
