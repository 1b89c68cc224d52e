// test_thread_cpu.cpp: engine/util/thread_cpu: per-thread CPU time of this process and the count
// of threads that worked in an interval (issue 35 item 12: a kernel's CPU share is judged against
// the threads it really ran on).
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <thread>

#include "util/thread_cpu.h"

using rlx::util::busy_threads;
using rlx::util::thread_cpu_seconds;

namespace {

double own_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

}  // namespace

TEST_CASE("busy_threads counts the threads whose CPU time grew by the share of the wall time") {
  const std::map<long, double> before = {{1, 10.0}, {2, 5.0}, {3, 0.0}};
  const std::map<long, double> after = {{1, 11.0}, {2, 5.1}, {3, 0.0}, {4, 0.6}};
  // Over 1 s: thread 1 ran 1 s, thread 4 (new) 0.6 s; threads 2 and 3 hardly ran.
  CHECK(busy_threads(before, after, 1.0) == 2);
  CHECK(busy_threads(before, after, 1.0, 0.7) == 1);
  CHECK(busy_threads(before, {}, 1.0) == 0);
}

TEST_CASE("thread_cpu_seconds sees a thread's own CPU time under its thread id") {
  std::atomic<long> tid{0};
  std::atomic<bool> spun{false}, read{false};
  std::thread worker([&] {
    tid = static_cast<long>(syscall(SYS_gettid));
    const double start = own_cpu_s();
    while (own_cpu_s() - start < 0.1) {
    }
    spun = true;
    // Stay alive until the main thread has read /proc (the task folder goes with the thread).
    while (!read) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  while (!spun) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const auto now = thread_cpu_seconds();
  read = true;
  worker.join();
  REQUIRE(now.count(tid.load()) == 1);
  CHECK(now.at(tid.load()) >= 0.09);
  CHECK(now.count(static_cast<long>(syscall(SYS_gettid))) == 1);
}
