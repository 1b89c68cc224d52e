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

}  // namespace rlx::env
