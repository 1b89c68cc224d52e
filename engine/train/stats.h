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

// The steady-state verdict of a run's timed samples (docs/training.md "Steady state"). drift =
// mean(second half) / mean(first half) - 1 (halves of floor(n/2) samples; the middle one of an odd
// count belongs to neither); cv = sd / mean of all samples. The drift counts against a run only
// when it is both large (|drift| > max_drift) and more than noise: Welch's t between the halves
// beyond the two-sided 95 % critical value, so independent samples of a steady process are called
// unsteady at most 5 % of the time, whatever their spread. That needs two samples in each half:
// with fewer than four the verdict cannot be given (judged = false, stable = false). cv > max_cv
// (a spread no steady process shows) is unsteady as well.
struct Stability {
  double drift = 0, cv = 0;
  bool stable = false;
  bool judged = false;             // four or more samples: the drift test ran
  double drift_t = 0;              // Welch's t of the halves' difference (0 when not judged)
  bool drift_significant = false;  // |drift_t| above t975 of its Welch-Satterthwaite df
  int64_t extended_iters = 0;      // timed iterations run beyond `iters` to reach it (min_stable)
};

// The thresholds of the verdict (docs/training.md "Steady state").
struct StabilityRule {
  double max_drift = 0.05;
  double max_cv = 0.25;
};

Stability steady_state(const std::vector<double>& samples, const StabilityRule& rule = {});

// min_stable's extension: while the verdict of `window` is not stable and fewer than `cap` extra
// samples were taken, append next() and drop the oldest sample (it becomes warm-up). Returns the
// final verdict with extended_iters = the samples taken.
Stability extend_until_stable(std::deque<double>& window, const std::function<double()>& next,
                              const StabilityRule& rule, int64_t cap);

// Two-sided 95 % critical value of Student's t with df degrees of freedom: a table of three
// decimals for df 1..30, interpolated in 1/df between its rows and beyond it (40, 60, 120, inf).
// The one copy: rlx.stats.t975 and every CI in Lua call it (host/bindings/bind_stats.cpp), so a CI
// recomputed from the stored samples gives the same number. 0 for df < 1.
double t975(double df);

// Half-width of the 95 % confidence interval of the mean of `samples`: t975(n - 1) * sd / sqrt(n)
// (Student's t, n - 1 degrees of freedom). Infinity for fewer than two samples. rlx.stats.ci95 and
// every CI a report prints come from here.
double ci_half95(const std::vector<double>& samples);

// Relative half-width of the 95 % confidence interval of the mean of `samples`:
// t975(n - 1) * sd / sqrt(n) / mean. Infinity for fewer than two samples or a mean <= 0.
double ci_rel95(const std::vector<double>& samples);

// The least count n of timed iterations in [lo, hi] whose 95 % CI of the mean, relative to the
// mean, is within `ci` at a step-to-step spread `cv` (sd / mean): t975(n - 1) x cv / sqrt(n) <= ci,
// the CI a run with that spread reaches (ci_rel95); hi when none in the range does. lo is at least
// 2 (one sample has no CI). How many iterations a study plans for a run (rlx.stats.iters_for_ci).
int64_t iters_for_ci(double cv, double ci, int64_t lo, int64_t hi);

// Warm-up until steady: iteration k (1-based) ends the warm-up when k >= min_iters and its time
// has stopped falling: t_k >= (1 - tolerance) x t_(k-1). Warm-up is the early iterations that are
// slower (allocations, kernel selection, caches); a later iteration slower than the one before is
// noise, not warm-up, so the rule is one-sided, and noise cannot keep a warmed-up run in warm-up
// the way a two-sided "consecutive times agree" rule does on a machine whose steps vary by 5-17 %.
// At max_iters the warm-up ends without having settled (warmup_settled: the verdict of the run
// then counts it unsteady). The first iteration of a run is never enough.
struct WarmupRule {
  double tolerance = 0.05;
  int64_t min_iters = 2;
  int64_t max_iters = 10;
};
// Whether the rule ended the warm-up after these samples (not merely reaching max_iters).
bool warmup_settled(const std::vector<double>& warmup_samples, const WarmupRule& rule);
// Whether the warm-up ends after these samples: settled, or at max_iters.
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
