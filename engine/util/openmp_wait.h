// openmp_wait.h: what the choice of how LibTorch's OpenMP threads wait at the end of a parallel
// region is made from: how busy the machine is and how long one spin takes here (docs/training.md,
// "OpenMP waiting"; the choice itself: engine/startup/openmp_choice.h).
//
// libgomp's default spins about 300,000 times before a waiting thread sleeps. On an idle machine
// that is the fastest (the other thread arrives within microseconds); when other processes share
// the cores, a spinning thread holds a core the thread it waits for needs, and each of the
// hundreds of parallel regions of a step waits for a time slice: MobileNetV2 trained 2.2x slower
// by best round (6.4x in the other), ResNet-50 1.1x, than with a short spin (docs/benchmarks.md,
// bench/omp_wait.sh).
// libgomp reads GOMP_SPINCOUNT when it is loaded, so the choice is made before that.
#pragma once

#include <string>

namespace rlx::util {

// How long a thread spins before it sleeps when the cores are shared: 10,000 spins of libgomp's
// wait loop on the 2-core AMD EPYC (Zen 3) where bench/omp_wait.sh measured the choice, at 27 ns a
// spin there (spin_ns on the idle machine: 26.9-27.6 ns in 40 calls). libgomp counts spins, not
// time, and a spin (mostly one PAUSE instruction) differs by CPU: Intel's optimization manual
// gives PAUSE about 10 cycles before Skylake and up to 140 from Skylake on. So the count is worked
// out on each machine from a spin timed there.
inline constexpr double kSharedSpinWaitNs = 270'000;
// The count used where a spin cannot be measured (neither x86-64 nor arm64): the EPYC's.
inline constexpr long kFallbackSpinCount = 10'000;
// Other processes' CPU use, in cores, from which the machine counts as shared.
inline constexpr double kSharedCores = 0.5;

// Cores other processes used over `sample_ms` (this process sleeps meanwhile), or -1: on the CPUs
// this process may run on (its affinity mask, util/cpu_stat.h), the whole machine when its mask
// cannot be read.
double other_cores(int sample_ms) noexcept;

// Nanoseconds one spin of libgomp's wait loop takes on this core (a load and libgomp's cpu_relax:
// PAUSE on x86-64, YIELD on arm64, platform::relax): the fastest of several short bursts, so a
// burst the scheduler interrupted does not count; takes about half a millisecond. 0 where it
// cannot be measured (neither architecture).
double spin_ns() noexcept;

// GOMP_SPINCOUNT for a wait of `wait_ns` at `spin_ns` a spin, rounded, within 100 and libgomp's
// own default (300,000); kFallbackSpinCount when spin_ns is not positive.
long shared_spin_count(double wait_ns, double spin_ns) noexcept;

}  // namespace rlx::util
