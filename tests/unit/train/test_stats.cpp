// test_stats.cpp: the per-iteration summary statistics (numpy-style percentiles, sample sd).
#include <catch2/catch.hpp>

#include <cmath>

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
  CHECK(flat.judged);
  CHECK_FALSE(flat.drift_significant);
  CHECK(flat.stable);
  // Halves 1,1 and 2,2: drift = 2/1 - 1 = 1; mean 1.5, sd sqrt(1/3) -> cv 0.3849. Constant halves
  // that differ: the drift is real.
  const auto step = steady_state({1, 1, 2, 2});
  CHECK(step.drift == Approx(1.0));
  CHECK(step.cv == Approx(0.3849001795));
  CHECK(step.drift_significant);
  CHECK_FALSE(step.stable);
  // Odd count: the middle sample belongs to neither half; one sample per half cannot be judged.
  const auto odd = steady_state({1, 5, 1});
  CHECK(odd.drift == 0);
  CHECK(odd.cv == Approx(0.9897433186));
  CHECK_FALSE(odd.judged);
  CHECK_FALSE(odd.stable);
  // Three samples are never enough, however flat (issue 30: a verdict from 3 samples is noise).
  CHECK_FALSE(steady_state({1, 1, 1}).stable);
  // Thresholds: a real 4% drift passes at 5%, fails at 3%.
  const auto slow = steady_state({1.0, 1.0, 1.04, 1.04});
  CHECK(slow.drift == Approx(0.04));
  CHECK(slow.drift_significant);
  CHECK(slow.stable);
  CHECK_FALSE(steady_state({1.0, 1.0, 1.04, 1.04}, {0.03, 0.10}).stable);
  const auto one = steady_state({2});
  CHECK_FALSE(one.stable);
  CHECK(one.drift == 0);
}

TEST_CASE("steady_state: a drift counts only when Welch's t says it is more than noise") {
  // Halves {1.0, 1.3} and {1.1, 1.4}: means 1.15 and 1.25, drift 8.7 % > 5 %; each half's variance
  // 0.045, se = sqrt(0.045 / 2 + 0.045 / 2) = 0.2121, t = 0.1 / 0.2121 = 0.4714 on df 2, below
  // t975(2) = 4.303: noise. cv = sqrt(0.1 / 3) / 1.2 = 15.2 % <= 25 %: steady.
  const auto noisy = steady_state({1.0, 1.3, 1.1, 1.4});
  CHECK(noisy.drift == Approx(0.0869565));
  CHECK(noisy.drift_t == Approx(0.4714045));
  CHECK_FALSE(noisy.drift_significant);
  CHECK(noisy.stable);
  // Halves {1.00, 1.02} and {1.10, 1.12}: drift 9.9 %, variances 0.0002, se 0.01414, t = 7.071 on
  // df 2 > 4.303: a real trend, larger than 5 %: unsteady.
  const auto trend = steady_state({1.0, 1.02, 1.10, 1.12});
  CHECK(trend.drift == Approx(0.0990099));
  CHECK(trend.drift_t == Approx(7.0710678));
  CHECK(trend.drift_significant);
  CHECK_FALSE(trend.stable);
  // No trend (halves {1,2,1} and {2,1,2}: t = 0.7071 on df 4) but cv = sqrt(0.3) / 1.5 = 36.5 %
  // > 25 %: no steady state spreads that wide.
  const auto wide = steady_state({1, 2, 1, 2, 1, 2});
  CHECK_FALSE(wide.drift_significant);
  CHECK(wide.cv == Approx(0.3651484));
  CHECK_FALSE(wide.stable);
}

TEST_CASE("extend_until_stable drops the oldest samples until the window is steady, up to the cap") {
  // A warm-up transient: 3, 2, then 1s. Window of 4; each extension drops the oldest.
  std::deque<double> w = {3, 2, 1, 1};
  std::vector<double> more = {1, 1, 1};
  size_t next = 0;
  const auto st = extend_until_stable(
      w, [&] { return more.at(next++); }, {}, 10);
  CHECK(st.stable);
  CHECK(st.extended_iters == 2);  // {2,1,1,1} still spreads (cv 40 %); {1,1,1,1} is steady
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

// Precision-targeted measurement (issue 21): the t table rlx.stats.t975 uses, the CI's relative
// half-width, warm-up until steady and the stop rule. Every expected value is worked by hand.
TEST_CASE("t975: the table rlx.stats.t975 reads, interpolated in 1/df beyond it") {
  using rlx::train::t975;
  CHECK(t975(1) == 12.706);
  CHECK(t975(30) == 2.042);
  CHECK(t975(0) == 0);
  // 2.5 between 2 and 3: (1/2 - 1/2.5) / (1/2 - 1/3) = 0.6 of the way from 4.303 to 3.182.
  CHECK(t975(2.5) == Approx(3.6304));
  // 35 between 30 and 40: (1/30 - 1/35) / (1/30 - 1/40) = 0.5714 of the way from 2.042 to 2.021.
  CHECK(t975(35) == Approx(2.030));
  // 1000 between 120 and infinity: (1/120 - 1/1000) / (1/120) = 0.88 of the way from 1.980 to 1.960.
  CHECK(t975(1000) == Approx(1.9624));
}

TEST_CASE("ci_rel95 is t975(n - 1) sd / sqrt(n) / mean") {
  using rlx::train::ci_rel95;
  // mean 2, sd 1, n 3: 4.303 / sqrt(3) / 2.
  CHECK(ci_rel95({1, 2, 3}) == Approx(1.242169));
  // mean 1, sd sqrt(0.0008 / 3) = 0.0163299, n 4: 3.182 x 0.0163299 / 2 = 2.598 %.
  CHECK(ci_rel95({0.98, 1.02, 1.00, 1.00}) == Approx(0.0259809));
  CHECK(std::isinf(ci_rel95({1.0})));
  CHECK(std::isinf(ci_rel95({})));
}

TEST_CASE("ci_half95 is t975(n - 1) sd / sqrt(n): the half-width rlx.stats.ci95 prints") {
  using rlx::train::ci_half95;
  // {1, 2, 3, 4}: sd sqrt(5/3) = 1.290994, t(3) = 3.182: 3.182 x 1.290994 / 2 = 2.054
  CHECK(ci_half95({1, 2, 3, 4}) == Approx(2.0539721));
  // mean 2, sd 1, n 3: 4.303 / sqrt(3) = 2.484339, ci_rel95's 1.242169 x the mean.
  CHECK(ci_half95({1, 2, 3}) == Approx(2.484339));
  CHECK(std::isinf(ci_half95({5.0})));
}

TEST_CASE("warmup_done: the time stopped falling by more than the tolerance, after min_iters, or the cap") {
  using rlx::train::warmup_done;
  using rlx::train::warmup_settled;
  const rlx::train::WarmupRule rule{0.05, 2, 10};
  CHECK_FALSE(warmup_done({3.0}, rule));
  CHECK_FALSE(warmup_done({3.0, 1.0}, rule));           // fell 67 %
  CHECK(warmup_done({3.0, 1.0, 1.04}, rule));           // rose 4 %
  CHECK(warmup_done({3.0, 1.0, 1.06}, rule));           // rose 6 %: noise, not warm-up
  CHECK(warmup_done({3.0, 1.0, 0.96}, rule));           // fell 4 %, within the tolerance
  CHECK_FALSE(warmup_done({3.0, 1.0, 0.90}, rule));     // still falling (10 %)
  CHECK(warmup_done({1.0, 1.01}, rule));                // the first can already agree with the second
  CHECK(warmup_done({3.0, 1.0, 0.5}, {0.05, 2, 3}));    // the cap ends it ...
  CHECK_FALSE(warmup_settled({3.0, 1.0, 0.5}, {0.05, 2, 3}));  // ... without settling
  CHECK(warmup_settled({3.0, 1.0, 1.0}, {0.05, 2, 3}));
  CHECK_FALSE(warmup_done({1.0, 1.0}, {0.05, 3, 10}));  // min_iters 3
}

TEST_CASE("stop_reason: ci when precise and steady, else the caps, never before min_iters") {
  using rlx::train::stop_reason;
  rlx::train::TargetRule rule{0.03, 4, 6, 0, {}};
  CHECK(stop_reason({0.98, 1.02, 1.00}, 3, rule).empty());        // 3 < min_iters
  CHECK(stop_reason({0.98, 1.02, 1.00, 1.00}, 4, rule) == "ci");  // CI 2.6 % <= 3 %, drift 0, CV 1.6 %
  rule.target_ci = 0.02;
  CHECK(stop_reason({0.98, 1.02, 1.00, 1.00}, 4, rule).empty());  // 2.6 % > 2 %, 4 < max_iters
  // Precise enough (CI 8.75 % <= 20 %) but drifting +10 % between the halves: not steady.
  rule.target_ci = 0.2;
  CHECK(stop_reason({1, 1, 1.1, 1.1}, 4.2, rule).empty());
  // mean 1.1, sd 0.1095, CI 2.571 x 0.1095 / sqrt(6) / 1.1 = 10.5 % > 3 %: the iteration cap.
  rule.target_ci = 0.03;
  CHECK(stop_reason({1, 1.2, 1, 1.2, 1, 1.2}, 6.6, rule) == "max_iters");
  // CI 8.7 %, 4 of 6: the next iteration (mean 3.15 s) would end at 15.75 s, past 10 s but not 20 s.
  rule.max_seconds = 10;
  CHECK(stop_reason({3, 3.3, 3, 3.3}, 12.6, rule) == "max_seconds");
  rule.max_seconds = 20;
  CHECK(stop_reason({3, 3.3, 3, 3.3}, 12.6, rule).empty());
}

TEST_CASE("iters_for_ci: the least n with t975(n - 1) cv / sqrt(n) <= ci, within [lo, hi]") {
  using rlx::train::iters_for_ci;
  // cv 5 %, ci 5 %: t975(6) / sqrt(7) = 2.447 / 2.646 = 0.925 <= 1, t975(5) / sqrt(6) = 1.050 > 1.
  CHECK(iters_for_ci(0.05, 0.05, 2, 100) == 7);
  // cv 5 %, ci 2 %: t975(26) / sqrt(27) = 2.056 / 5.196 = 0.396 <= 0.4, t975(25) / sqrt(26) = 0.404.
  CHECK(iters_for_ci(0.05, 0.02, 2, 100) == 27);
  CHECK(iters_for_ci(0.05, 0.02, 2, 20) == 20);  // none within the range: hi
  CHECK(iters_for_ci(0.001, 0.05, 4, 50) == 4);  // a quiet machine: the least allowed
  CHECK(iters_for_ci(0, 0.05, 0, 50) == 2);      // lo is at least 2: one sample has no CI
}
