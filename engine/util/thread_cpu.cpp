// thread_cpu.cpp: see thread_cpu.h.
#include "util/thread_cpu.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rlx::util {
namespace {

// Seconds on the CPU of thread `task` (a /proc/self/task/<tid> folder), or -1.
double task_cpu_seconds(const std::filesystem::path& task) {
  std::ifstream schedstat(task / "schedstat");
  double ns = 0;
  if (schedstat >> ns) return ns * 1e-9;
  std::ifstream stat(task / "stat");
  std::string line;
  if (!std::getline(stat, line)) return -1;
  const auto close = line.rfind(')');  // the thread's name may hold spaces
  if (close == std::string::npos) return -1;
  std::istringstream fields(line.substr(close + 2));
  std::string f;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> f; ++i)
    if (i == 14 || i == 15) ticks += std::stod(f);  // utime, stime
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace

std::map<long, double> thread_cpu_seconds() {
  std::map<long, double> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    char* end = nullptr;
    const std::string name = entry.path().filename().string();
    const long tid = std::strtol(name.c_str(), &end, 10);
    if (end == name.c_str() || *end != '\0') continue;
    const double s = task_cpu_seconds(entry.path());
    if (s >= 0) out[tid] = s;
  }
  return out;
}

int busy_threads(const std::map<long, double>& before, const std::map<long, double>& after, double wall_s,
                 double min_share) {
  int n = 0;
  for (const auto& [tid, seconds] : after) {
    const auto was = before.find(tid);
    const double used = seconds - (was == before.end() ? 0.0 : was->second);
    if (used >= min_share * wall_s) ++n;
  }
  return n;
}

}  // namespace rlx::util
