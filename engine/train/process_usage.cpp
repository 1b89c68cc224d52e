// process_usage.cpp: getrusage and /proc/self readers (see process_usage.h).
#include "train/process_usage.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
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

SystemCpu parse_proc_stat(const std::string& text, double ticks_per_s, const std::vector<int>& cpus) {
  return system_cpu_of(util::parse_cpu_ticks(text, cpus), ticks_per_s);
}

SystemCpu system_cpu_of(const util::CpuTicks& t, double ticks_per_s) {
  SystemCpu s;
  if (!t.ok() || ticks_per_s <= 0) return s;
  // user nice system idle iowait irq softirq steal
  const auto& v = t.column;
  s.busy_s = static_cast<double>(v[0] + v[1] + v[2] + v[5] + v[6]) / ticks_per_s;
  s.steal_s = static_cast<double>(v[7]) / ticks_per_s;
  s.ok = true;
  return s;
}

SystemCpu system_cpu() {
  static const std::vector<int> cpus = util::allowed_cpus();
  return system_cpu_of(util::read_cpu_ticks(cpus), static_cast<double>(sysconf(_SC_CLK_TCK)));
}

Contention contention_of(double wall_s, double own_cpu_s, const SystemCpu& before, const SystemCpu& after,
                         int64_t threads) {
  Contention c;
  if (!before.ok || !after.ok || wall_s <= 0 || threads < 1) return c;
  c.known = true;
  c.other_cpu = std::max(0.0, (after.busy_s - before.busy_s - own_cpu_s) / wall_s);
  c.steal_cpu = std::max(0.0, (after.steal_s - before.steal_s) / wall_s);
  c.cpu_share = own_cpu_s / (wall_s * static_cast<double>(threads));
  c.contended =
      c.other_cpu >= kContendedOtherPerThread * static_cast<double>(threads) || c.cpu_share < kContendedShare;
  return c;
}

}  // namespace rlx::train
