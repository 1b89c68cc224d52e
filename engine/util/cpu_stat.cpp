// cpu_stat.cpp: see cpu_stat.h.
#include "util/cpu_stat.h"

#include <sched.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string_view>
#include <thread>

namespace rlx::util {

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return out;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) out.push_back(cpu);
  return out;
}

int usable_cpus() {
  const auto n = static_cast<int>(allowed_cpus().size());
  if (n > 0) return n;
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

unsigned long long CpuTicks::total() const {
  unsigned long long t = 0;
  for (auto v : column) t += v;
  return t;
}

CpuTicks parse_cpu_ticks(const std::string& proc_stat, const std::vector<int>& cpus) {
  CpuTicks out;
  std::istringstream in(proc_stat);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu", 0) != 0) break;  // the CPU lines come first
    const bool total_line = line.size() > 3 && line[3] == ' ';
    int cpu = -1;
    if (!total_line && (line.size() < 4 || !std::isdigit(static_cast<unsigned char>(line[3])))) continue;
    if (!total_line) cpu = std::atoi(line.c_str() + 3);
    const bool wanted = cpus.empty() ? total_line : std::binary_search(cpus.begin(), cpus.end(), cpu);
    if (!wanted) continue;
    std::istringstream fields(line.substr(line.find(' ')));
    std::array<unsigned long long, 8> v{};
    bool complete = true;
    for (auto& x : v) complete = complete && static_cast<bool>(fields >> x);
    if (!complete) continue;
    for (size_t i = 0; i < v.size(); ++i) out.column[i] += v[i];
    ++out.cpus;
  }
  return out;
}

CpuTicks read_cpu_ticks(const std::vector<int>& cpus) {
  std::FILE* f = std::fopen("/proc/stat", "r");
  if (f == nullptr) return {};
  // Only the CPU lines: the interrupt line after them can be tens of kilobytes.
  std::string text;
  char buf[512];
  bool at_line_start = true;
  while (std::fgets(buf, sizeof buf, f) != nullptr) {
    if (at_line_start && std::string_view(buf).rfind("cpu", 0) != 0) break;
    text += buf;
    at_line_start = text.back() == '\n';
  }
  std::fclose(f);
  return parse_cpu_ticks(text, cpus);
}

}  // namespace rlx::util
