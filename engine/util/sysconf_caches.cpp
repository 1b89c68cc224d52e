// sysconf_caches.cpp: see sysconf_caches.h.
#include "util/sysconf_caches.h"

#include <unistd.h>

namespace rlx::util {

std::vector<SysconfCache> sysconf_caches() {
  const struct {
    int level;
    const char* type;
    int name;
  } levels[] = {{1, "Data", _SC_LEVEL1_DCACHE_SIZE},
                {1, "Instruction", _SC_LEVEL1_ICACHE_SIZE},
                {2, "Unified", _SC_LEVEL2_CACHE_SIZE},
                {3, "Unified", _SC_LEVEL3_CACHE_SIZE}};
  std::vector<SysconfCache> out;
  for (const auto& l : levels) {
    const long bytes = sysconf(l.name);
    if (bytes > 0) out.push_back({l.level, l.type, static_cast<std::size_t>(bytes)});
  }
  return out;
}

}  // namespace rlx::util
