// stats.h: summary statistics of per-iteration times (mean, sample standard deviation, median,
// min, max, 5th and 95th percentiles). Percentiles interpolate linearly between order statistics,
// as numpy's default, so figures compare directly with Python analyses of the same samples.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

namespace rlx::train {

struct Summary {
  double mean = 0, sd = 0, median = 0, min = 0, max = 0, p5 = 0, p95 = 0;
};

// The steady-state verdict of a run's timed samples. drift = mean(second half) / mean(first half)
// - 1 (halves of floor(n/2) samples; the middle one of an odd count belongs to neither), cv =
// sd / mean of all samples; stable when |drift| <= max_drift and cv <= max_cv. One sample cannot
// be judged: stable = false, drift = cv = 0.
struct Stability {
  double drift = 0, cv = 0;
  bool stable = false;
  int64_t extended_iters = 0;  // timed iterations run beyond `iters` to reach it (min_stable)
};

// The thresholds of the verdict (docs/training.md "Steady state").
struct StabilityRule {
  double max_drift = 0.05;
  double max_cv = 0.10;
};

Stability steady_state(const std::vector<double>& samples, const StabilityRule& rule = {});

// min_stable's extension: while the verdict of `window` is not stable and fewer than `cap` extra
// samples were taken, append next() and drop the oldest sample (it becomes warm-up). Returns the
// final verdict with extended_iters = the samples taken.
Stability extend_until_stable(std::deque<double>& window, const std::function<double()>& next,
                              const StabilityRule& rule, int64_t cap);

// Percentile q in [0, 100] of the samples (linear interpolation); 0 for no samples.
double percentile(std::vector<double> samples, double q);
// sd is the sample standard deviation (n - 1); 0 with fewer than two samples.
Summary summarize(const std::vector<double>& samples);

}  // namespace rlx::train
