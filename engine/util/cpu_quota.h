// cpu_quota.h: the CPU time a cgroup lets this process use, as a number of CPUs.
//
// A container started with `docker run --cpus=1`, a Kubernetes CPU limit or a systemd unit's
// CPUQuota= keeps every CPU in the affinity mask but throttles the group once it has used its
// quota in each period (100 ms by default). On this project's 2-CPU VM in a 1-CPU quota, ResNet-18
// at 64x64 batch 16 trained at 47 img/s with 2 threads against 59 with 1, and each 2-thread run
// was flagged contended (CPU share 50 %) with no other process running. So the default thread
// count is the mask's CPUs, at most the quota rounded up (util/cpu_stat.h usable_cpus), as the
// JVM's and .NET's do. libgomp does not read quotas: the Python loop keeps one thread per CPU.
//
// Both hierarchies are read (util/cgroup.h finds them): cgroup v2's cpu.max ("max 100000",
// "150000 100000") and v1's cpu.cfs_quota_us / cpu.cfs_period_us (-1: none), at the process's own
// group and every group above it up to the mount, as a parent's limit binds its children; the
// smallest wins.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace rlx::util {

struct CpuQuota {
  double cpus = 0;     // quota / period: CPUs' worth of time per period
  std::string source;  // the file that set it, e.g. /sys/fs/cgroup/cpu/job/cpu.cfs_quota_us
};

// cgroup v2 cpu.max: "QUOTA PERIOD" in microseconds -> QUOTA / PERIOD; "max ..." or text that is
// not two positive integers -> nullopt.
std::optional<double> parse_cpu_max(std::string_view text);
// cgroup v1: cpu.cfs_quota_us over cpu.cfs_period_us; -1 (no quota) or bad text -> nullopt.
std::optional<double> parse_cfs_quota(std::string_view quota_us, std::string_view period_us);

// Reads a file's text, nullopt when it cannot be read (tests pass a map).
using ReadText = std::function<std::optional<std::string>(const std::string& path)>;
// The smallest quota of the groups of /proc/self/cgroup's text, found through /proc/self/mountinfo's
// cgroup and cgroup2 mounts, files read with `read`; nullopt without one.
std::optional<CpuQuota> cpu_quota_from(const std::string& proc_self_cgroup, const std::string& mountinfo,
                                       const ReadText& read);
// The same for this process now.
std::optional<CpuQuota> cpu_quota();

}  // namespace rlx::util
