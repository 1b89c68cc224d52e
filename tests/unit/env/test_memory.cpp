// test_memory.cpp: the memory a run may still take (engine/env/memory.h) from fake /proc and /sys
// trees, so every number is known: MemAvailable alone, a cgroup v2 job tighter than the machine,
// a v1 limit looser than it, and no limit at all.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "env/memory.h"

namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

fs::path fresh(const char* name) {
  fs::path r = fs::path(RLX_TEST_TMP) / name;
  fs::remove_all(r);
  // MemAvailable 2,000,000 kB = 2,048,000,000 bytes (meminfo's kB are KiB).
  write(r / "proc/meminfo", "MemTotal: 4000000 kB\nMemFree: 100 kB\nMemAvailable: 2000000 kB\n");
  return r;
}

}  // namespace

TEST_CASE("memory room: MemAvailable when no cgroup limits memory", "[env]") {
  fs::path r = fresh("mem-none");
  write(r / "proc/self/cgroup", "0::/\n");
  write(r / "sys/fs/cgroup/memory.max", "max\n");
  write(r / "sys/fs/cgroup/memory.current", "900000000\n");
  auto m = rlx::env::memory_room(r.string());
  CHECK(*m.mem_available_bytes == 2048000000);
  CHECK(*m.available_bytes == 2048000000);
  CHECK(m.cgroup.empty());
  CHECK(!m.cgroup_limit_bytes);
  CHECK(*rlx::env::meminfo_bytes(r.string(), "MemTotal") == 4096000000);
  CHECK(!rlx::env::meminfo_bytes(r.string(), "SwapTotal"));
}

TEST_CASE("memory room: a cgroup v2 job's limit minus usage when it is tighter", "[env]") {
  fs::path r = fresh("mem-v2");
  write(r / "proc/self/cgroup", "0::/job\n");
  write(r / "sys/fs/cgroup/memory.max", "max\n");
  write(r / "sys/fs/cgroup/memory.current", "900000000\n");
  write(r / "sys/fs/cgroup/job/memory.max", "1000000000\n");
  write(r / "sys/fs/cgroup/job/memory.current", "400000000\n");
  auto m = rlx::env::memory_room(r.string());
  CHECK(m.cgroup == "v2");
  CHECK(*m.available_bytes == 600000000);  // 1 GB - 0.4 GB
  CHECK(*m.cgroup_limit_bytes == 1000000000);
  CHECK(*m.cgroup_usage_bytes == 400000000);
  CHECK(rlx::env::to_json(m)["available_bytes"] == 600000000);
}

TEST_CASE("memory room: a cgroup v1 limit looser than MemAvailable leaves MemAvailable", "[env]") {
  fs::path r = fresh("mem-v1");
  write(r / "proc/self/cgroup", "4:memory:/slurm/job1\n0::/\n");
  write(r / "sys/fs/cgroup/memory/slurm/job1/memory.limit_in_bytes", "3000000000\n");
  write(r / "sys/fs/cgroup/memory/slurm/job1/memory.usage_in_bytes", "500000000\n");
  // v1's "no limit" on the parent: a huge number, not a limit.
  write(r / "sys/fs/cgroup/memory/slurm/memory.limit_in_bytes", "9223372036854771712\n");
  write(r / "sys/fs/cgroup/memory/slurm/memory.usage_in_bytes", "600000000\n");
  auto m = rlx::env::memory_room(r.string());
  CHECK(m.cgroup == "v1");
  CHECK(*m.cgroup_limit_bytes == 3000000000);
  CHECK(*m.available_bytes == 2048000000);  // 2.5 GB of cgroup room, MemAvailable is smaller
}

// Issue 25: the evidence a supervisor reads to tell the OOM killer's SIGKILL from kill -9.
TEST_CASE("OOM kills: the oom_kill count of the process's memory cgroup, v2 and v1", "[env]") {
  fs::path r = fresh("oom-v2");
  write(r / "proc/self/cgroup", "0::/job\n");
  write(r / "sys/fs/cgroup/job/memory.events",
        "low 0\nhigh 0\nmax 12\noom 3\noom_kill 2\noom_group_kill 0\n");
  CHECK(rlx::env::cgroup_oom_kills(r.string()) == 2);
  fs::path v1 = fresh("oom-v1");
  write(v1 / "proc/self/cgroup", "4:memory:/slurm/job1\n0::/\n");
  write(v1 / "sys/fs/cgroup/memory/slurm/job1/memory.oom_control",
        "oom_kill_disable 0\nunder_oom 0\noom_kill 7\n");
  CHECK(rlx::env::cgroup_oom_kills(v1.string()) == 7);
  fs::path none = fresh("oom-none");
  write(none / "proc/self/cgroup", "0::/\n");
  CHECK(!rlx::env::cgroup_oom_kills(none.string()));
}

TEST_CASE("OOM kills: the kernel log names the killed pid, or cannot be read", "[env]") {
  fs::path r = fresh("kmsg");
  // Records as /dev/kmsg gives them (the 6.x kernel's wording).
  write(r / "kmsg",
        "6,100,5,-;rlx invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0\n"
        "3,101,6,-;Memory cgroup out of memory: Killed process 4242 (rlx) total-vm:900000kB\n");
  CHECK(rlx::env::kernel_log_oom_killed(4242, (r / "kmsg").string()) == true);
  CHECK(rlx::env::kernel_log_oom_killed(424, (r / "kmsg").string()) == false);
  CHECK(!rlx::env::kernel_log_oom_killed(4242, (r / "missing").string()));
}
