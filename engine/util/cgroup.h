// cgroup.h: where this process's control groups are, for the readers of their limits (the CPU
// quota: util/cpu_quota.h; memory room and OOM kills: env/memory.h).
//
// /proc/self/cgroup names the process's group in each hierarchy ("4:memory:/slurm/job1", v2's
// "0::/job"); /proc/self/mountinfo says where each hierarchy is mounted and which group is the
// mount's root. Without a cgroup namespace, a container's mount root is its own group
// (/docker/ID), as is its path, so its files are at the mount point itself. A limit set on a group
// binds every group below it, so a reader walks from the process's group up to the mount.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rlx::util {

struct CgroupHierarchy {
  bool v2 = false;
  std::string mount_point;  // e.g. /sys/fs/cgroup/memory, or /sys/fs/cgroup for v2
  std::string mount_root;   // the group mounted there, "/" unless the container's own
  std::string group;        // this process's group in the hierarchy, e.g. /slurm/job1
};

// The v1 hierarchy holding `controller` ("cpu", "memory") and the v2 one, each with the process's
// group, v1's first, from the text of /proc/self/cgroup and /proc/self/mountinfo. An empty mountinfo (a /proc
// that hides it, a test's fake tree) gives the conventional mounts: v1 at /sys/fs/cgroup/CONTROLLER,
// v2 at /sys/fs/cgroup and at /sys/fs/cgroup/unified (systemd's hybrid layout).
std::vector<CgroupHierarchy> cgroup_hierarchies(const std::string& proc_self_cgroup,
                                                const std::string& mountinfo, std::string_view controller);
// The directories of the process's group and of each group above it, up to the mount point, the
// process's own first.
std::vector<std::string> cgroup_dirs_up(const CgroupHierarchy& h);

}  // namespace rlx::util
