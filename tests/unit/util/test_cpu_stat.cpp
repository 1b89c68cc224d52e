// test_cpu_stat.cpp: the CPUs this process may run on and their /proc/stat time
// (engine/util/cpu_stat.h). Sums worked by hand in the comments.
#include <sched.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <thread>

#include "util/cpu_stat.h"

using rlx::util::CpuTicks;
using rlx::util::parse_cpu_ticks;

namespace {
// A 4-CPU machine: the total line, then cpu0..cpu3, then the lines that follow them.
const char* kStat =
    "cpu  100 10 40 1000 20 4 6 8 0 0\n"
    "cpu0 10 1 4 400 5 1 1 2 0 0\n"
    "cpu1 20 2 8 300 5 1 1 2 0 0\n"
    "cpu2 30 3 12 200 5 1 2 2 0 0\n"
    "cpu3 40 4 16 100 5 1 2 2 0 0\n"
    "intr 12345 1 2 3\n"
    "cpu9 1 1 1 1 1 1 1 1\n";  // not a CPU line any more: after the block
}  // namespace

TEST_CASE("parse_cpu_ticks: the whole machine's line, or the sum of the chosen CPUs' lines") {
  const CpuTicks all = parse_cpu_ticks(kStat, {});
  REQUIRE(all.ok());
  CHECK(all.cpus == 1);
  CHECK(all.column[0] == 100);
  CHECK(all.total() == 1188);  // 100 + 10 + 40 + 1000 + 20 + 4 + 6 + 8
  // CPUs 1 and 3: user 20 + 40, idle 300 + 100, steal 2 + 2.
  const CpuTicks two = parse_cpu_ticks(kStat, {1, 3});
  REQUIRE(two.ok());
  CHECK(two.cpus == 2);
  CHECK(two.column[0] == 60);
  CHECK(two.column[3] == 400);
  CHECK(two.column[7] == 4);
  CHECK(two.total() == 60 + 6 + 24 + 400 + 10 + 2 + 3 + 4);
  // A CPU that has no line (offline), or one after the block, adds nothing.
  CHECK(parse_cpu_ticks(kStat, {2, 7}).cpus == 1);
  CHECK_FALSE(parse_cpu_ticks(kStat, {9}).ok());
  CHECK(all.whole_machine);
  CHECK_FALSE(two.whole_machine);
}

TEST_CASE("parse_cpu_ticks: short or foreign lines are not counted") {
  CHECK_FALSE(parse_cpu_ticks("cpu0 1 2 3\n", {0}).ok());  // no steal column
  CHECK_FALSE(parse_cpu_ticks("", {}).ok());
  CHECK_FALSE(parse_cpu_ticks("cpu0 1 2 3 4 5 6 7 8\n", {}).ok());  // no total line
  CHECK_FALSE(parse_cpu_ticks("cpux 1 2 3 4 5 6 7 8\n", {0}).ok());
  CHECK_FALSE(parse_cpu_ticks("cpu0\n", {0}).ok());  // a line without columns, not an exception
}

TEST_CASE("allowed_cpus is this process's affinity mask, usable_cpus its count") {
  cpu_set_t set;
  CPU_ZERO(&set);
  REQUIRE(sched_getaffinity(0, sizeof(set), &set) == 0);
  const auto cpus = rlx::util::allowed_cpus();
  CHECK(static_cast<int>(cpus.size()) == CPU_COUNT(&set));
  for (int cpu : cpus) CHECK(CPU_ISSET(cpu, &set));
  CHECK(rlx::util::usable_cpus() == CPU_COUNT(&set));
  CHECK(rlx::util::usable_cpus() <= static_cast<int>(std::thread::hardware_concurrency()));
  // /proc/stat has a line for each of them, or (LXCFS renumbers a container's CPUs) the whole
  // machine's line is read instead.
  const CpuTicks t = rlx::util::read_cpu_ticks(cpus);
  CHECK(t.ok());
  CHECK((t.whole_machine || t.cpus == static_cast<int>(cpus.size())));
}

TEST_CASE("omp_num_threads_value: the outer level of a count, else 0 (not set by the user)") {
  using rlx::util::omp_num_threads_value;
  CHECK(omp_num_threads_value("4") == 4);
  CHECK(omp_num_threads_value("4,2") == 4);  // nested levels: the outer team is rlx's
  CHECK(omp_num_threads_value("1") == 1);
  CHECK(omp_num_threads_value(nullptr) == 0);
  CHECK(omp_num_threads_value("") == 0);
  CHECK(omp_num_threads_value("0") == 0);
  CHECK(omp_num_threads_value("-2") == 0);
  CHECK(omp_num_threads_value("two") == 0);
  CHECK(omp_num_threads_value("4x") == 0);
  CHECK(omp_num_threads_value("9999999") == 0);  // beyond any machine: not a count rlx trusts
}

TEST_CASE("default_threads: OMP_NUM_THREADS when set, else the usable CPUs") {
  const char* saved = std::getenv("OMP_NUM_THREADS");
  const std::string keep = saved ? saved : "";
  ::setenv("OMP_NUM_THREADS", "3", 1);
  auto d = rlx::util::default_threads(std::nullopt);
  CHECK(d.threads == 3);
  CHECK(d.from == "OMP_NUM_THREADS");
  ::unsetenv("OMP_NUM_THREADS");
  d = rlx::util::default_threads(std::nullopt);
  CHECK(d.threads == rlx::util::usable_cpus(std::nullopt));
  CHECK(d.from == "cpus");
  // A quota of 1 CPU caps the usable CPUs, not a count the user set.
  d = rlx::util::default_threads(rlx::util::CpuQuota{1.0, "q"});
  CHECK(d.threads == 1);
  if (saved) ::setenv("OMP_NUM_THREADS", keep.c_str(), 1);
}
