// cpu_info.cpp: cache sizes and core topology from /sys (sysconf when /sys lacks them), and the
// pinned thread team that runs the kernels of cpu_kernels.cpp (see cpu.h).
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <new>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "env/env.h"
#include "peaks/cpu.h"
#include "util/interrupt.h"
#include "util/sysconf_caches.h"

namespace rlx::peaks {
namespace {

std::string read_line(const std::string& path) {
  std::ifstream f(path);
  std::string s;
  if (f) std::getline(f, s);
  return s;
}

void pin_to(int cpu) {
  if (cpu < 0) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  // Failure (a restricted cgroup) leaves the thread unpinned; the figures are then noisier, not wrong.
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

}  // namespace

std::size_t parse_cache_size(const std::string& text) {
  std::size_t pos = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &pos);
  } catch (const std::exception&) {
    return 0;
  }
  // /sys writes binary units with single letters: "32K" is 32 KiB.
  const char unit = pos < text.size() ? text[pos] : ' ';
  if (unit == 'K') return v << 10;
  if (unit == 'M') return v << 20;
  if (unit == 'G') return v << 30;
  return v;
}

int count_cpu_list(const std::string& text) {
  int n = 0;
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    if (part.empty()) continue;
    auto dash = part.find('-');
    try {
      if (dash == std::string::npos) {
        std::stoi(part);
        n += 1;
      } else {
        n += std::stoi(part.substr(dash + 1)) - std::stoi(part.substr(0, dash)) + 1;
      }
    } catch (const std::exception&) {
      return n;
    }
  }
  return n;
}

std::vector<CacheLevel> cpu_caches() {
  std::vector<CacheLevel> out;
  for (int i = 0; i < 16; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    const std::string type = read_line(dir + "type");
    if (type.empty()) break;
    if (type == "Instruction") continue;
    CacheLevel c;
    c.level = std::atoi(read_line(dir + "level").c_str());
    c.bytes = parse_cache_size(read_line(dir + "size"));
    c.shared_by_cpus = std::max(1, count_cpu_list(read_line(dir + "shared_cpu_list")));
    if (c.level > 0 && c.bytes > 0) out.push_back(c);
  }
  if (!out.empty()) return out;
  // No cache directory in /sys (some VMs): sysconf's sizes. Sharing is unknown there, so L1 and L2
  // are taken as private and L3 as shared by all online CPUs.
  const int online = int(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  for (const auto& c : util::sysconf_caches()) {
    if (std::string(c.type) != "Instruction") out.push_back({c.level, c.bytes, c.level == 3 ? online : 1});
  }
  return out;
}

std::vector<int> one_cpu_per_core() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return out;
  std::set<std::pair<std::string, std::string>> seen;  // (package id, core id)
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &set)) continue;
    const std::string topo = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    auto key = std::make_pair(read_line(topo + "physical_package_id"), read_line(topo + "core_id"));
    // Without topology files every CPU counts as its own core.
    if (key.second.empty()) key.second = "cpu" + std::to_string(cpu);
    if (seen.insert(key).second) out.push_back(cpu);
  }
  return out;
}

// engine/env owns the /proc/cpuinfo parser (x86 and ARM); this only names the fallback.
std::string cpu_model_name() {
  const std::string model = env::cpu_model();
  return model.empty() ? "unknown CPU" : model;
}

// CPU time the calling thread has run, in seconds.
static double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

TeamTiming run_team(const std::vector<int>& cpus, int repeats, const std::function<void(int)>& setup,
                    const std::function<void(int)>& body) {
  const int n = cpus.empty() ? 1 : int(cpus.size());
  std::barrier sync(n);
  TeamTiming timing;
  std::vector<double> cpu(n);  // this repeat's CPU seconds per thread
  std::atomic<bool> stop{false};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto worker = [&](int t) {
    pin_to(cpus.empty() ? -1 : cpus[t]);
    try {
      if (setup) setup(t);
    } catch (...) {
      if (!failed.exchange(true)) failure = std::current_exception();
    }
    for (int r = 0; r < repeats; ++r) {
      // Thread 0 decides for everyone before the barrier, so all threads leave the loop together.
      if (t == 0) stop = failed.load() || util::interrupted();
      sync.arrive_and_wait();
      if (stop) break;
      const auto t0 = std::chrono::steady_clock::now();
      const double c0 = thread_cpu_seconds();
      try {
        body(t);
      } catch (...) {
        if (!failed.exchange(true)) failure = std::current_exception();
      }
      cpu[t] = thread_cpu_seconds() - c0;
      sync.arrive_and_wait();
      if (t == 0) {
        timing.wall_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        timing.cpu_seconds.push_back(*std::max_element(cpu.begin(), cpu.end()));
      }
    }
  };
  // Every worker is a new thread (thread 0 included) so the caller's own affinity is never changed.
  std::vector<std::thread> threads;
  for (int t = 0; t < n; ++t) threads.emplace_back(worker, t);
  for (auto& th : threads) th.join();
  if (failure) std::rethrow_exception(failure);
  util::check_interrupt();
  return timing;
}

AlignedDoubles::AlignedDoubles(std::size_t n) : n_(n) {
  const std::size_t bytes = ((n * sizeof(double) + 63) / 64) * 64;
  p_ = static_cast<double*>(std::aligned_alloc(64, bytes == 0 ? 64 : bytes));
  if (!p_) throw std::bad_alloc();
}

AlignedDoubles::~AlignedDoubles() { std::free(p_); }

}  // namespace rlx::peaks
