// process_usage.cpp: getrusage and /proc/self readers (see process_usage.h).
#include "train/process_usage.h"

#include <sys/resource.h>

#include <fstream>
#include <string>

namespace rlx::train {

CpuTimes cpu_times() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  CpuTimes t;
  t.user_s = static_cast<double>(ru.ru_utime.tv_sec) + static_cast<double>(ru.ru_utime.tv_usec) / 1e6;
  t.sys_s = static_cast<double>(ru.ru_stime.tv_sec) + static_cast<double>(ru.ru_stime.tv_usec) / 1e6;
  t.maxrss_bytes = static_cast<int64_t>(ru.ru_maxrss) * 1024;
  t.page_faults = static_cast<int64_t>(ru.ru_minflt + ru.ru_majflt);
  return t;
}

bool reset_peak_rss() {
  std::ofstream f("/proc/self/clear_refs");
  if (!f) return false;
  f << "5";
  f.flush();
  return static_cast<bool>(f);
}

int64_t peak_rss_bytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;  // kB
  return -1;
}

}  // namespace rlx::train
