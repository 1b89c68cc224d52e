// openmp_wait.h: how LibTorch's OpenMP threads wait at the end of a parallel region, chosen when
// rlx starts from how busy the machine is (docs/training.md, "OpenMP waiting").
//
// libgomp's default spins about 300,000 times before a waiting thread sleeps. On an idle machine
// that is the fastest (the other thread arrives within microseconds); when other processes share
// the cores, a spinning thread holds a core the thread it waits for needs, and each of the
// hundreds of parallel regions of a step waits for a time slice: MobileNetV2 trained 2.1-2.9x
// slower, ResNet-50 1.1-1.3x, than with a short spin (docs/benchmarks.md, bench/omp_wait.sh).
// libgomp reads GOMP_SPINCOUNT when it is loaded, before main(), so on a shared machine the
// program starts again once with the variable set (called first thing in main, host/main.cpp).
#pragma once

#include <string>

namespace rlx::util {

// GOMP_SPINCOUNT when the cores are shared: a few hundred microseconds of spinning at most.
inline constexpr const char* kSharedSpinCount = "10000";
// Other processes' CPU use, in cores, from which the machine counts as shared.
inline constexpr double kSharedCores = 0.5;

// Samples the machine's CPU use for `sample_ms` and, when other processes used kSharedCores or
// more, starts this program again (execv of /proc/self/exe, same pid) with
// GOMP_SPINCOUNT=kSharedSpinCount; leaves libgomp's default otherwise. A user's OMP_WAIT_POLICY or
// GOMP_SPINCOUNT is left alone. Call before any thread exists.
void choose_openmp_wait(char** argv, int sample_ms) noexcept;

// What choose_openmp_wait decided, for `rlx version` and the environment ("openmp: ...");
// "openmp: libgomp's default waiting (not chosen: ...)" when it did not run.
std::string openmp_wait_note();

}  // namespace rlx::util
