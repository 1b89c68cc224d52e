// cpu_stat.h: the CPUs this process may run on, and their time from /proc/stat.
//
// A process is often allowed fewer CPUs than the machine has: `taskset`, a Slurm task's cpuset
// (job arrays share a node this way), a container's cpuset. Work on the other CPUs neither slows
// it nor competes with it, and threads beyond its CPUs only take turns on them. So the default
// thread count, the load sampled at start (util/openmp_wait.h) and a run's contention
// (train/process_usage.h) count the allowed CPUs only: libgomp, and so the Python loop, also
// sizes its default team by this mask.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "util/cpu_quota.h"

namespace rlx::util {

// The CPUs in this process's affinity mask, ascending; empty when the mask cannot be read. Where
// libgomp binds threads to places (OMP_PROC_BIND, OMP_PLACES, GOMP_CPU_AFFINITY), the union of its
// places: it pins the main thread to the first place as it loads, so the main thread's own mask
// is then one place. Masks beyond 1024 CPUs (CPU_SETSIZE) cannot be read: empty, the whole machine.
std::vector<int> allowed_cpus();
// Gives the main thread back the CPUs of all libgomp's places before this program execs itself
// (engine/startup/restart_self.h): the new image's libgomp would otherwise find the one place it was pinned
// to and size everything by it. Nothing without places.
void unpin_for_restart();
// How many CPUs this process may run on: the mask's count, else std::thread::hardware_concurrency,
// and no more than its cgroup's CPU quota rounded up (util/cpu_quota.h); at least 1.
int usable_cpus();
// The same with the quota already read (a caller that also records it reads the cgroup once).
int usable_cpus(const std::optional<CpuQuota>& quota);
// OMP_NUM_THREADS's outermost value ("4" and "4,2" give 4) when it is a positive integer, else 0
// (unset, empty or not a count). Every OpenMP program, PyTorch's included, sizes its team by it,
// so a user who set it chose the threads: rlx.train's default follows it (default_threads).
int omp_num_threads_value(const char* value);
int omp_num_threads_env();
// rlx.train's default intra-op threads and why: OMP_NUM_THREADS when it is set to a count, else one
// per usable CPU (usable_cpus(quota)).
struct DefaultThreads {
  int threads = 1;
  std::string from;  // "OMP_NUM_THREADS" or "cpus"
};
DefaultThreads default_threads(const std::optional<CpuQuota>& quota);
// The most threads rlx starts for one run: 8 per hardware thread. More only thrash the machine (a
// --threads 100000 once spawned thousands of threads; OMP_NUM_THREADS=999 started 999 on 2 cores).
long long max_threads();
// The words that refuse a count above max_threads(), after the name of what was given ("option
// 'threads' ", "OMP_NUM_THREADS "): "must be at most 16 (8 per hardware thread; this machine has 2),
// got 999".
std::string too_many_threads(long long count);
// A quota as whole CPUs, rounded up (1.5 CPUs -> 2), at least 1; no quota: INT_MAX.
int quota_cpus_rounded_up(const std::optional<CpuQuota>& quota);

// Columns of /proc/stat's CPU lines (user nice system idle iowait irq softirq steal), in clock
// ticks, summed over some CPUs; `cpus` is how many lines were summed; whole_machine: the one
// "cpu" line of all CPUs was read instead.
struct CpuTicks {
  std::array<unsigned long long, 8> column{};
  int cpus = 0;
  bool whole_machine = false;
  bool ok() const { return cpus > 0; }
  unsigned long long total() const;
};
// From the text of /proc/stat: the lines "cpuN ..." whose N is in `cpus`, or the whole machine's
// "cpu ..." line when `cpus` is empty. A line with fewer than 8 columns is not counted (kernels
// before 2.6.11 had no steal column).
CpuTicks parse_cpu_ticks(const std::string& proc_stat, const std::vector<int>& cpus);
// The same from /proc/stat now (its CPU lines only); !ok() when it cannot be read. When some of
// `cpus` have no line (LXCFS shows a container its cpuset renumbered from cpu0), the whole
// machine's line instead.
CpuTicks read_cpu_ticks(const std::vector<int>& cpus);

}  // namespace rlx::util
