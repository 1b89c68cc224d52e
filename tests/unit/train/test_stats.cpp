// test_stats.cpp: the per-iteration summary statistics (numpy-style percentiles, sample sd).
#include <catch2/catch.hpp>

#include "train/stats.h"

using rlx::train::percentile;
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
