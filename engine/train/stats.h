// stats.h: summary statistics of per-iteration times (mean, sample standard deviation, median,
// min, max, 5th and 95th percentiles). Percentiles interpolate linearly between order statistics,
// as numpy's default, so figures compare directly with Python analyses of the same samples.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
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

// Two-sided 95 % critical value of Student's t with df degrees of freedom: the table of
// rlx.stats.t975 (three decimals, df 1..30), interpolated in 1/df beyond it (40, 60, 120, inf), so
// a CI recomputed in Lua from the stored samples gives the same number. 0 for df < 1.
double t975(double df);

// Relative half-width of the 95 % confidence interval of the mean of `samples`:
// t975(n - 1) * sd / sqrt(n) / mean. Infinity for fewer than two samples or a mean <= 0.
double ci_rel95(const std::vector<double>& samples);

// Warm-up until steady: iteration k (1-based) ends the warm-up when k >= min_iters and its time is
// within `tolerance` of the previous iteration's (|t_k / t_(k-1) - 1| <= tolerance), or when k
// reaches max_iters. The first iteration of a run (allocations, kernel selection) is never enough.
struct WarmupRule {
  double tolerance = 0.05;
  int64_t min_iters = 2;
  int64_t max_iters = 10;
};
bool warmup_done(const std::vector<double>& warmup_samples, const WarmupRule& rule);

// Precision-targeted measurement (docs/training.md "Precision-targeted iterations"): after at
// least min_iters timed samples, stop when the 95 % CI of the mean is within target_ci (relative)
// and the samples pass the steady-state verdict ("ci"); else at max_iters ("max_iters"); else
// when the next sample, expected to last as long as the mean so far, would end past max_seconds
// of timed wall clock ("max_seconds"; 0 = no time cap). min_iters are always run.
struct TargetRule {
  double target_ci = 0.02;
  int64_t min_iters = 5;
  int64_t max_iters = 100;
  double max_seconds = 0;
  StabilityRule stability;
};
// The reason to stop after `samples` taken in elapsed_s seconds of wall clock, or "" to go on.
std::string stop_reason(const std::vector<double>& samples, double elapsed_s, const TargetRule& rule);

// Percentile q in [0, 100] of the samples (linear interpolation); 0 for no samples.
double percentile(std::vector<double> samples, double q);
// sd is the sample standard deviation (n - 1); 0 with fewer than two samples.
Summary summarize(const std::vector<double>& samples);

}  // namespace rlx::train
