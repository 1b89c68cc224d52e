// memory.h: how much memory a training run may still take on this machine, cgroup limits
// included (engine layer, no Lua; rlx.memory.available in Lua).
//
// The kernel's MemAvailable (/proc/meminfo) says what the machine could give; a container or a
// Slurm job is usually capped lower by its memory cgroup, and exceeding that cap is what brings
// the OOM killer. So the room is the smaller of MemAvailable and, for the process's memory cgroup
// and each of its ancestors, limit minus usage: cgroup v2 (memory.max, memory.current, "max" = no
// limit) or v1 (memory.limit_in_bytes, memory.usage_in_bytes, a huge value = no limit).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace rlx::env {

struct MemoryRoom {
  std::optional<long long> available_bytes;      // the smaller of the two below
  std::optional<long long> mem_available_bytes;  // MemAvailable
  std::string cgroup;                            // "v2", "v1", or "" when no cgroup limits memory
  std::optional<long long> cgroup_limit_bytes, cgroup_usage_bytes;  // of the tightest cgroup
};

// Reads the room from the files under root ("" = the real machine; tests use a fake tree).
MemoryRoom memory_room(const std::string& root = "");

// {available_bytes, mem_available_bytes, cgroup, cgroup_limit_bytes, cgroup_usage_bytes}; absent
// values are left out.
nlohmann::json to_json(const MemoryRoom& m);

// One field of root/proc/meminfo in bytes ("MemTotal", "MemAvailable"; its "kB" are KiB), or
// nullopt: the one /proc/meminfo parser (capture() reads MemTotal through it).
std::optional<long long> meminfo_bytes(const std::string& root, const std::string& key);

// How many processes of this process's memory cgroup the kernel's OOM killer has killed: the
// oom_kill line of cgroup v2's memory.events or v1's memory.oom_control (both count every OOM kill
// of a member, the cgroup's own limit or the whole machine's). nullopt when neither can be read.
// A supervisor reads it before and after its child (util/supervisor.h): a child killed by SIGKILL
// while the count rose was the OOM killer's. root: as memory_room.
std::optional<long long> cgroup_oom_kills(const std::string& root = "");

// Whether the kernel log records the OOM killer killing process pid ("Killed process PID (" in
// "Out of memory: ..." or "Memory cgroup out of memory: ..." lines). kmsg_path is /dev/kmsg, which
// only root (or kernel.dmesg_restrict = 0) may read; nullopt when it cannot be read. Reads at most
// 16 MiB.
std::optional<bool> kernel_log_oom_killed(long long pid, const std::string& kmsg_path = "/dev/kmsg");

}  // namespace rlx::env
