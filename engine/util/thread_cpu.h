// thread_cpu.h: how many threads of this process really worked during an interval. A kernel may
// run on fewer threads than the pool it was given (LibTorch's emulated bf16 matrix product runs on
// one thread whatever at::set_num_threads says), so its CPU share must be judged against the
// threads that ran, not the threads it was allowed (issue 35 item 12).
#pragma once

#include <map>

namespace rlx::util {

// A section whose threads got less than this share of their cores' time (CPU time over wall time x
// threads: other processes or the hypervisor ran on them) was contended: a wall-clock peak reads
// low by about that share and is measured again (engine/peaks/measure), a training run is left out
// of its row's means (engine/train/process_usage). The one definition: Lua reads it through
// rlx._core.peaks.contended_share() (rlx.roofline_quality).
inline constexpr double kContendedShare = 0.75;

// CPU seconds of every thread of this process, by thread id: /proc/self/task/<tid>/schedstat
// (nanoseconds on the CPU), else the thread's utime + stime in clock ticks. Empty when /proc is
// not readable.
std::map<long, double> thread_cpu_seconds();

// The threads whose CPU time grew by at least min_share x wall_s between two readings (a thread
// missing from `before` started during the interval and counts from 0).
int busy_threads(const std::map<long, double>& before, const std::map<long, double>& after, double wall_s,
                 double min_share = 0.25);

}  // namespace rlx::util
