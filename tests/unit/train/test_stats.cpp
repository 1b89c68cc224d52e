// test_stats.cpp: the per-iteration summary statistics (numpy-style percentiles, sample sd).
#include <catch2/catch.hpp>

#include "train/stats.h"

using rlx::train::extend_until_stable;
using rlx::train::percentile;
using rlx::train::steady_state;
using rlx::train::summarize;

TEST_CASE("percentile interpolates linearly between order statistics") {
  const std::vector<double> xs = {4, 1, 3, 2, 5};  // sorted: 1 2 3 4 5
  CHECK(percentile(xs, 0) == Approx(1));
  CHECK(percentile(xs, 50) == Approx(3));
  CHECK(percentile(xs, 100) == Approx(5));
  CHECK(percentile(xs, 5) == Approx(1.2));   // position 0.2
  CHECK(percentile(xs, 95) == Approx(4.8));  // position 3.8
  CHECK(percentile({}, 50) == 0);
  CHECK(percentile({7}, 95) == 7);
}

TEST_CASE("summarize gives mean, sample sd, median, min, max, p5, p95") {
  const auto s = summarize({2, 4, 4, 4, 5, 5, 7, 9});
  CHECK(s.mean == Approx(5));
  CHECK(s.sd == Approx(2.138089935));  // sqrt(32 / 7)
  CHECK(s.median == Approx(4.5));
  CHECK(s.min == 2);
  CHECK(s.max == 9);
  CHECK(s.p5 == Approx(2.7));   // position 0.35 between 2 and 4
  CHECK(s.p95 == Approx(8.3));  // position 6.65 between 7 and 9
  const auto one = summarize({0.25});
  CHECK(one.sd == 0);
  CHECK(one.median == 0.25);
}

TEST_CASE("steady_state: drift between the halves, cv over all samples") {
  const auto flat = steady_state({1, 1, 1, 1});
  CHECK(flat.drift == 0);
  CHECK(flat.cv == 0);
  CHECK(flat.stable);
  // Halves 1,1 and 2,2: drift = 2/1 - 1 = 1; mean 1.5, sd sqrt(1/3) -> cv 0.3849.
  const auto step = steady_state({1, 1, 2, 2});
  CHECK(step.drift == Approx(1.0));
  CHECK(step.cv == Approx(0.3849001795));
  CHECK_FALSE(step.stable);
  // Odd count: the middle sample belongs to neither half; drift 0 but cv = 2.3094 / 2.3333.
  const auto odd = steady_state({1, 5, 1});
  CHECK(odd.drift == 0);
  CHECK(odd.cv == Approx(0.9897433186));
  CHECK_FALSE(odd.stable);
  // Thresholds: 4% drift passes at 5%, fails at 3%.
  const auto slow = steady_state({1.0, 1.0, 1.04, 1.04});
  CHECK(slow.drift == Approx(0.04));
  CHECK(slow.stable);
  CHECK_FALSE(steady_state({1.0, 1.0, 1.04, 1.04}, {0.03, 0.10}).stable);
  const auto one = steady_state({2});
  CHECK_FALSE(one.stable);
  CHECK(one.drift == 0);
}

TEST_CASE("extend_until_stable drops the oldest samples until the window is steady, up to the cap") {
  // A warm-up transient: 3, 2, then 1s. Window of 4; each extension drops the oldest.
  std::deque<double> w = {3, 2, 1, 1};
  std::vector<double> more = {1, 1, 1};
  size_t next = 0;
  const auto st = extend_until_stable(
      w, [&] { return more.at(next++); }, {}, 10);
  CHECK(st.stable);
  CHECK(st.extended_iters == 2);  // {2,1,1,1} still drifts; {1,1,1,1} is steady
  CHECK(w == std::deque<double>{1, 1, 1, 1});
  std::deque<double> noisy = {1, 3, 1, 3};
  int calls = 0;
  const auto capped = extend_until_stable(
      noisy, [&] { return (++calls % 2) ? 1.0 : 3.0; }, {}, 5);
  CHECK_FALSE(capped.stable);
  CHECK(capped.extended_iters == 5);
  CHECK(calls == 5);
  CHECK(noisy.size() == 4);
}
