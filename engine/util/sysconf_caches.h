// sysconf_caches.h: CPU cache sizes from glibc's sysconf, which reads them from CPUID. For machines
// (some VMs) whose /sys has no cache directory; sysconf does not say which CPUs share a level.
#pragma once

#include <cstddef>
#include <vector>

namespace rlx::util {

struct SysconfCache {
  int level;         // 1, 2, 3
  const char* type;  // "Data", "Instruction" or "Unified", as /sys names them
  std::size_t bytes;
};

// L1d, L1i, L2, L3 in that order, each only when sysconf knows it (size > 0).
std::vector<SysconfCache> sysconf_caches();

}  // namespace rlx::util
