// stats.h: summary statistics of per-iteration times (mean, sample standard deviation, median,
// min, max, 5th and 95th percentiles). Percentiles interpolate linearly between order statistics,
// as numpy's default, so figures compare directly with Python analyses of the same samples.
#pragma once

#include <vector>

namespace rlx::train {

struct Summary {
  double mean = 0, sd = 0, median = 0, min = 0, max = 0, p5 = 0, p95 = 0;
};

// Percentile q in [0, 100] of the samples (linear interpolation); 0 for no samples.
double percentile(std::vector<double> samples, double q);
// sd is the sample standard deviation (n - 1); 0 with fewer than two samples.
Summary summarize(const std::vector<double>& samples);

}  // namespace rlx::train
