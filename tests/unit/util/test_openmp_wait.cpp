// test_openmp_wait.cpp: engine/util/openmp_wait: the spin count for a shared machine is a wait
// time over a spin measured on this core, not a count carried over from another CPU (issue 33).
#include <catch2/catch.hpp>
#include <cmath>

#include "platform/platform.h"
#include "util/openmp_wait.h"

using rlx::util::kFallbackSpinCount;
using rlx::util::kSharedSpinWaitNs;
using rlx::util::shared_spin_count;
using rlx::util::spin_ns;

TEST_CASE("shared_spin_count divides the wait by the time of one spin") {
  // The EPYC the wait was chosen on: 27 ns a spin, 0.27 ms -> its measured 10,000 spins.
  CHECK(kSharedSpinWaitNs == 270'000);
  CHECK(shared_spin_count(kSharedSpinWaitNs, 27.0) == 10'000);
  // A core whose PAUSE takes 140 cycles at 2.5 GHz (56 ns): 270,000 / 56 = 4,821.4 -> 4,821.
  CHECK(shared_spin_count(270'000, 56.0) == 4'821);
  // A core with a 10-cycle PAUSE at 3 GHz (3.33 ns): 270,000 / 3.333 = 81,000.
  CHECK(shared_spin_count(270'000, 10.0 / 3.0) == 81'000);
  CHECK(shared_spin_count(270'000, 0.5) == 300'000);  // never above libgomp's default
  CHECK(shared_spin_count(270'000, 1e6) == 100);      // nor below 100 spins
}

TEST_CASE("shared_spin_count falls back to the EPYC's count without a measured spin") {
  CHECK(shared_spin_count(kSharedSpinWaitNs, 0.0) == kFallbackSpinCount);
  CHECK(shared_spin_count(kSharedSpinWaitNs, -1.0) == kFallbackSpinCount);
  CHECK(shared_spin_count(kSharedSpinWaitNs, std::nan("")) == kFallbackSpinCount);
  CHECK(kFallbackSpinCount == 10'000);
}

TEST_CASE("spin_ns measures a spin where relax is an instruction (x86-64, arm64) and says 0 elsewhere") {
  const double ns = spin_ns();
  if (rlx::platform::relax_is_instruction()) {
    CHECK(std::isfinite(ns));
    CHECK(ns > 0);
  } else {
    CHECK(ns == 0);
  }
}
