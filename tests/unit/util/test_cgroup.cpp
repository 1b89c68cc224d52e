// test_cgroup.cpp: where the process's control groups are (engine/util/cgroup.h), from
// /proc/self/cgroup and /proc/self/mountinfo as Linux writes them.
#include <catch2/catch.hpp>

#include "util/cgroup.h"

using rlx::util::cgroup_dirs_up;
using rlx::util::cgroup_hierarchies;

TEST_CASE("cgroup_hierarchies: the v1 mount of a controller first, then v2, from mountinfo") {
  // systemd's hybrid layout as on this project's VMs: v2 mounted first in mountinfo.
  const char* cgroup = "9:name=systemd:/\n4:memory:/process_api/x\n1:cpu:/job\n0::/\n";
  const char* mounts =
      "39 25 0:35 / /sys/fs/cgroup/unified rw,relatime shared:18 - cgroup2 cgroup2 rw\n"
      "30 25 0:26 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu\n"
      "33 25 0:29 / /sys/fs/cgroup/memory rw,relatime shared:12 - cgroup cgroup rw,memory\n"
      "26 22 0:23 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n";
  auto hs = cgroup_hierarchies(cgroup, mounts, "memory");
  REQUIRE(hs.size() == 2);
  CHECK_FALSE(hs[0].v2);
  CHECK(hs[0].mount_point == "/sys/fs/cgroup/memory");
  CHECK(hs[0].group == "/process_api/x");
  CHECK(hs[1].v2);
  CHECK(hs[1].mount_point == "/sys/fs/cgroup/unified");
  CHECK(hs[1].group == "/");
  CHECK(cgroup_dirs_up(hs[0]) == std::vector<std::string>{"/sys/fs/cgroup/memory/process_api/x",
                                                          "/sys/fs/cgroup/memory/process_api",
                                                          "/sys/fs/cgroup/memory"});
  CHECK(cgroup_dirs_up(hs[1]) == std::vector<std::string>{"/sys/fs/cgroup/unified"});
  // "cpu" is a controller of its own, not the prefix of "cpuacct" or "cpuset".
  hs = cgroup_hierarchies("2:cpuacct:/a\n3:cpuset:/b\n", "30 25 0:26 / /c rw - cgroup cgroup rw,cpuacct\n",
                          "cpu");
  CHECK(hs.empty());
}

TEST_CASE("cgroup_hierarchies: a container's own group as the mount's root; no mountinfo") {
  // Docker on v1 without a cgroup namespace: path and mount root are both /docker/abc.
  auto hs = cgroup_hierarchies(
      "5:cpu,cpuacct:/docker/abc\n",
      "40 35 0:30 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro - cgroup cgroup rw,cpu,cpuacct\n", "cpu");
  REQUIRE(hs.size() == 1);
  CHECK(cgroup_dirs_up(hs[0]) == std::vector<std::string>{"/sys/fs/cgroup/cpu,cpuacct"});
  // Without mountinfo: the conventional mounts.
  hs = cgroup_hierarchies("4:memory:/slurm/job1\n0::/job\n", "", "memory");
  REQUIRE(hs.size() == 3);
  CHECK(hs[0].mount_point == "/sys/fs/cgroup/memory");
  CHECK(hs[1].mount_point == "/sys/fs/cgroup");
  CHECK(hs[2].mount_point == "/sys/fs/cgroup/unified");
  CHECK(cgroup_dirs_up(hs[1]) == std::vector<std::string>{"/sys/fs/cgroup/job", "/sys/fs/cgroup"});
}
