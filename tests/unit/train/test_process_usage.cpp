// test_process_usage.cpp: contention from /proc/stat (issue 21): the system's busy and stolen CPU
// time, and what a section shared its cores with. Values worked by hand in the comments.
#include <catch2/catch.hpp>

#include "train/process_usage.h"

using rlx::train::contention_of;
using rlx::train::parse_proc_stat;
using rlx::train::SystemCpu;

TEST_CASE("parse_proc_stat: busy = user + nice + system + irq + softirq, steal apart, in seconds") {
  // user 100 nice 5 system 50 idle 1000 iowait 10 irq 3 softirq 2 steal 7, 100 ticks per second.
  const SystemCpu s = parse_proc_stat("cpu  100 5 50 1000 10 3 2 7 0 0\ncpu0 50 2 25 500 5 1 1 3 0 0\n", 100);
  CHECK(s.ok);
  CHECK(s.busy_s == Approx(1.60));  // (100 + 5 + 50 + 3 + 2) / 100
  CHECK(s.steal_s == Approx(0.07));
  CHECK_FALSE(parse_proc_stat("cpu0 1 2 3 4 5 6 7 8\n", 100).ok);  // not the total line
  CHECK_FALSE(parse_proc_stat("cpu 1 2 3\n", 100).ok);             // truncated
  CHECK_FALSE(parse_proc_stat("", 100).ok);
}

TEST_CASE("parse_proc_stat: only the CPUs the process may run on, when they are given") {
  // cpu1 alone: user 30 nice 1 system 20 irq 1 softirq 1 = 53 ticks busy, steal 4; 100 per second.
  const char* text =
      "cpu  100 5 50 1000 10 3 2 7 0 0\ncpu0 70 4 30 500 5 2 1 3 0 0\ncpu1 30 1 20 500 5 1 1 4 0 0\n";
  const SystemCpu one = parse_proc_stat(text, 100, {1});
  CHECK(one.ok);
  CHECK(one.busy_s == Approx(0.53));
  CHECK(one.steal_s == Approx(0.04));
  const SystemCpu both = parse_proc_stat(text, 100, {0, 1});  // the sum of the two: the total line
  CHECK(both.busy_s == Approx(1.60));
  CHECK(both.steal_s == Approx(0.07));
}

TEST_CASE("contention_of: other processes' cores, steal, the run's CPU share and the flag") {
  const SystemCpu before{10.0, 1.0, true};
  // 2 s of wall on 2 threads; the system was busy 4 s, 3 of them ours: others used 0.5 cores.
  auto c = contention_of(2.0, 3.0, before, {14.0, 1.2, true}, 2);
  CHECK(c.known);
  CHECK(c.other_cpu == Approx(0.5));
  CHECK(c.steal_cpu == Approx(0.1));   // 0.2 s / 2 s
  CHECK(c.cpu_share == Approx(0.75));  // 3 / (2 x 2): exactly the limit, not below it
  CHECK_FALSE(c.contended);
  // Ours 2.8 s: share 0.7 < 0.75 (others 0.6 cores): contended.
  c = contention_of(2.0, 2.8, before, {14.0, 1.2, true}, 2);
  CHECK(c.cpu_share == Approx(0.7));
  CHECK(c.contended);
  // Others 1.1 cores >= 0.5 per thread x 2 threads, though the run still got 95 %: contended.
  c = contention_of(2.0, 3.8, before, {16.0, 1.0, true}, 2);
  CHECK(c.other_cpu == Approx(1.1));
  CHECK(c.cpu_share == Approx(0.95));
  CHECK(c.contended);
  // Tick rounding can make ours exceed the system's busy time: others are 0, not negative.
  CHECK(contention_of(2.0, 3.0, before, {12.0, 1.0, true}, 2).other_cpu == 0);
  CHECK_FALSE(contention_of(2.0, 3.0, before, {12.0, 1.0, false}, 2).known);
}
