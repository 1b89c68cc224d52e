// test_cpu_quota.cpp: a cgroup's CPU quota as CPUs (engine/util/cpu_quota.h), from the text of
// /proc/self/cgroup and /proc/self/mountinfo as Linux writes them and cgroup files given as a map.
#include <catch2/catch.hpp>
#include <map>

#include "util/cpu_quota.h"
#include "util/cpu_stat.h"

using rlx::util::cpu_quota_from;
using rlx::util::CpuQuota;
using rlx::util::parse_cfs_quota;
using rlx::util::parse_cpu_max;

namespace {

rlx::util::ReadText files(std::map<std::string, std::string> m) {
  return [m](const std::string& path) -> std::optional<std::string> {
    const auto it = m.find(path);
    if (it == m.end()) return std::nullopt;
    return it->second;
  };
}

// This project's VMs: cgroup v1 with the cpu controller alone at /sys/fs/cgroup/cpu, v2 mounted
// beside it without controllers (a hybrid), the process in group /job.
const char* kHybridCgroup = "9:name=systemd:/\n4:memory:/x\n2:cpuacct:/\n1:cpu:/job\n0::/\n";
const char* kHybridMounts =
    "30 25 0:26 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu\n"
    "31 25 0:27 / /sys/fs/cgroup/cpuacct rw,relatime shared:10 - cgroup cgroup rw,cpuacct\n"
    "39 25 0:35 / /sys/fs/cgroup/unified rw,relatime shared:18 - cgroup2 cgroup2 rw\n";

}  // namespace

TEST_CASE("parse_cpu_max: cgroup v2's QUOTA PERIOD in microseconds") {
  CHECK(parse_cpu_max("150000 100000\n") == Approx(1.5));
  CHECK(parse_cpu_max("50000 100000") == Approx(0.5));
  CHECK_FALSE(parse_cpu_max("max 100000\n"));  // no limit
  CHECK_FALSE(parse_cpu_max(""));
  CHECK_FALSE(parse_cpu_max("100000"));
  CHECK_FALSE(parse_cpu_max("0 100000"));
  CHECK_FALSE(parse_cpu_max("100000 0"));
  CHECK_FALSE(parse_cpu_max("1e5 100000"));
}

TEST_CASE("parse_cfs_quota: cgroup v1's quota over period, -1 for none") {
  CHECK(parse_cfs_quota("200000\n", "100000\n") == Approx(2.0));
  CHECK(parse_cfs_quota("25000", "50000") == Approx(0.5));
  CHECK_FALSE(parse_cfs_quota("-1\n", "100000\n"));
  CHECK_FALSE(parse_cfs_quota("abc", "100000"));
  CHECK_FALSE(parse_cfs_quota("100000", ""));
}

TEST_CASE("cpu_quota_from: v1 cpu controller, the group's own limit and its parent's") {
  // 1 CPU on /job, none at the top: 1 CPU, named by the file that set it.
  auto q = cpu_quota_from(kHybridCgroup, kHybridMounts,
                          files({{"/sys/fs/cgroup/cpu/job/cpu.cfs_quota_us", "100000\n"},
                                 {"/sys/fs/cgroup/cpu/job/cpu.cfs_period_us", "100000\n"},
                                 {"/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n"},
                                 {"/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n"}}));
  REQUIRE(q);
  CHECK(q->cpus == Approx(1.0));
  CHECK(q->source == "/sys/fs/cgroup/cpu/job/cpu.cfs_quota_us");
  // A parent's tighter limit binds the child: 0.5 CPU at the top, 3 on /job.
  q = cpu_quota_from(kHybridCgroup, kHybridMounts,
                     files({{"/sys/fs/cgroup/cpu/job/cpu.cfs_quota_us", "300000"},
                            {"/sys/fs/cgroup/cpu/job/cpu.cfs_period_us", "100000"},
                            {"/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "50000"},
                            {"/sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000"}}));
  REQUIRE(q);
  CHECK(q->cpus == Approx(0.5));
  CHECK(q->source == "/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
  // No quota anywhere, or files that cannot be read: none.
  CHECK_FALSE(cpu_quota_from(kHybridCgroup, kHybridMounts,
                             files({{"/sys/fs/cgroup/cpu/job/cpu.cfs_quota_us", "-1"},
                                    {"/sys/fs/cgroup/cpu/job/cpu.cfs_period_us", "100000"}})));
  CHECK_FALSE(cpu_quota_from(kHybridCgroup, kHybridMounts, files({})));
}

TEST_CASE("cpu_quota_from: cgroup v2, walking up from a nested group") {
  // systemd's layout: the process in /user.slice/run-1.scope, a limit of 1.5 CPUs on the slice.
  const char* cgroup = "0::/user.slice/run-1.scope\n";
  const char* mounts =
      "28 22 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 "
      "rw,nsdelegate\n";
  auto q = cpu_quota_from(cgroup, mounts,
                          files({{"/sys/fs/cgroup/user.slice/run-1.scope/cpu.max", "max 100000\n"},
                                 {"/sys/fs/cgroup/user.slice/cpu.max", "150000 100000\n"}}));
  REQUIRE(q);
  CHECK(q->cpus == Approx(1.5));
  CHECK(q->source == "/sys/fs/cgroup/user.slice/cpu.max");
  CHECK(rlx::util::quota_cpus_rounded_up(q) == 2);  // 1.5 CPUs of time: two threads may use it
}

TEST_CASE("cpu_quota_from: a container without a cgroup namespace sees its group as the mount's root") {
  // Docker on v1 without cgroupns: the mount's root and the process's path are both /docker/abc,
  // and the container's own files are at the mount point.
  const char* cgroup = "5:cpu,cpuacct:/docker/abc\n";
  const char* mounts =
      "40 35 0:30 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct\n";
  auto q = cpu_quota_from(cgroup, mounts,
                          files({{"/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "100000"},
                                 {"/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000"}}));
  REQUIRE(q);
  CHECK(q->cpus == Approx(1.0));
  CHECK(rlx::util::quota_cpus_rounded_up(q) == 1);
}

TEST_CASE("quota_cpus_rounded_up: whole CPUs, at least one") {
  CHECK(rlx::util::quota_cpus_rounded_up(std::nullopt) == std::numeric_limits<int>::max());
  CHECK(rlx::util::quota_cpus_rounded_up(CpuQuota{2.0, ""}) == 2);
  CHECK(rlx::util::quota_cpus_rounded_up(CpuQuota{2.0000000001, ""}) == 2);
  CHECK(rlx::util::quota_cpus_rounded_up(CpuQuota{2.01, ""}) == 3);
  CHECK(rlx::util::quota_cpus_rounded_up(CpuQuota{0.25, ""}) == 1);
}
