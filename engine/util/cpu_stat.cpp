// cpu_stat.cpp: see cpu_stat.h.
#include "util/cpu_stat.h"

#include <dlfcn.h>
#include <sched.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string_view>
#include <thread>

#include "util/cpu_quota.h"

namespace rlx::util {

namespace {

// The CPUs of libgomp's places, ascending; empty without places (no OMP_PROC_BIND, OMP_PLACES or
// GOMP_CPU_AFFINITY) or without libgomp in the process. Looked up at run time: rlx_util does not
// link OpenMP, LibTorch brings it.
std::vector<int> openmp_place_cpus() {
  auto* num_places = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "omp_get_num_places"));
  auto* place_size = reinterpret_cast<int (*)(int)>(dlsym(RTLD_DEFAULT, "omp_get_place_num_procs"));
  auto* place_ids = reinterpret_cast<void (*)(int, int*)>(dlsym(RTLD_DEFAULT, "omp_get_place_proc_ids"));
  std::vector<int> out;
  if (num_places == nullptr || place_size == nullptr || place_ids == nullptr) return out;
  for (int p = 0; p < num_places(); ++p) {
    std::vector<int> ids(static_cast<size_t>(std::max(0, place_size(p))));
    if (!ids.empty()) place_ids(p, ids.data());
    out.insert(out.end(), ids.begin(), ids.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<int> allowed_cpus() {
  // With places, libgomp has pinned this (main) thread to the first one when it loaded, before
  // main(): the mask now holds that place only, while the places together are the mask libgomp
  // found before pinning.
  std::vector<int> out = openmp_place_cpus();
  if (!out.empty()) return out;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return out;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) out.push_back(cpu);
  return out;
}

void unpin_for_restart() {
  const std::vector<int> cpus = openmp_place_cpus();
  if (cpus.empty()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : cpus)
    if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &set);
  sched_setaffinity(0, sizeof(set), &set);
}

int usable_cpus(const std::optional<CpuQuota>& quota) {
  auto n = static_cast<int>(allowed_cpus().size());
  if (n == 0) n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return std::min(n, quota_cpus_rounded_up(quota));
}

int omp_num_threads_value(const char* value) {
  if (value == nullptr) return 0;
  const std::string_view text(value);
  const std::string_view first = text.substr(0, text.find(','));
  if (first.empty() || first.size() > 6) return 0;
  int n = 0;
  for (char c : first) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
    n = n * 10 + (c - '0');
  }
  return n;
}

int omp_num_threads_env() {
  return omp_num_threads_value(std::getenv("OMP_NUM_THREADS"));
}

DefaultThreads default_threads(const std::optional<CpuQuota>& quota) {
  if (const int n = omp_num_threads_env(); n > 0) return {n, "OMP_NUM_THREADS"};
  return {usable_cpus(quota), "cpus"};
}

int usable_cpus() {
  return usable_cpus(cpu_quota());
}

long long max_threads() {
  return 8LL * std::max(1u, std::thread::hardware_concurrency());
}

std::string too_many_threads(long long count) {
  return "must be at most " + std::to_string(max_threads()) + " (8 per hardware thread; this machine has " +
         std::to_string(max_threads() / 8) + "), got " + std::to_string(count);
}

int quota_cpus_rounded_up(const std::optional<CpuQuota>& quota) {
  if (!quota) return std::numeric_limits<int>::max();
  // 1e-9: a quota of exactly 2 CPUs read as 2.0000000001 is still 2.
  return std::max(1, static_cast<int>(std::ceil(quota->cpus - 1e-9)));
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
    if (!total_line) cpu = static_cast<int>(std::strtol(line.c_str() + 3, nullptr, 10));
    const bool wanted = cpus.empty() ? total_line : std::binary_search(cpus.begin(), cpus.end(), cpu);
    const size_t space = line.find(' ');
    if (!wanted || space == std::string::npos) continue;
    std::istringstream fields(line.substr(space));
    std::array<unsigned long long, 8> v{};
    bool complete = true;
    for (auto& x : v) complete = complete && static_cast<bool>(fields >> x);
    if (!complete) continue;
    for (size_t i = 0; i < v.size(); ++i) out.column[i] += v[i];
    ++out.cpus;
  }
  out.whole_machine = cpus.empty() && out.cpus > 0;
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
  CpuTicks t = parse_cpu_ticks(text, cpus);
  if (!cpus.empty() && t.cpus != static_cast<int>(cpus.size())) t = parse_cpu_ticks(text, {});
  return t;
}

}  // namespace rlx::util
