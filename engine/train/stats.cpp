// stats.cpp: see stats.h.
#include "train/stats.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>

namespace rlx::train {

double percentile(std::vector<double> samples, double q) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const double pos = std::clamp(q, 0.0, 100.0) / 100.0 * static_cast<double>(samples.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, samples.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return samples[lo] + (samples[hi] - samples[lo]) * frac;
}

Summary summarize(const std::vector<double>& samples) {
  Summary s;
  if (samples.empty()) return s;
  const double n = static_cast<double>(samples.size());
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / n;
  if (samples.size() > 1) {
    double ss = 0;
    for (double x : samples) ss += (x - s.mean) * (x - s.mean);
    s.sd = std::sqrt(ss / (n - 1));
  }
  const auto [mn, mx] = std::minmax_element(samples.begin(), samples.end());
  s.min = *mn;
  s.max = *mx;
  s.median = percentile(samples, 50);
  s.p5 = percentile(samples, 5);
  s.p95 = percentile(samples, 95);
  return s;
}

Stability steady_state(const std::vector<double>& samples, const StabilityRule& rule) {
  Stability st;
  const size_t half = samples.size() / 2;
  if (half == 0) return st;
  const auto mean_of = [](auto first, auto last) {
    return std::accumulate(first, last, 0.0) / static_cast<double>(std::distance(first, last));
  };
  const double first = mean_of(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(half));
  const double second = mean_of(samples.end() - static_cast<std::ptrdiff_t>(half), samples.end());
  const Summary all = summarize(samples);
  st.drift = first > 0 ? second / first - 1 : 0;
  st.cv = all.mean > 0 ? all.sd / all.mean : 0;
  st.stable = std::abs(st.drift) <= rule.max_drift && st.cv <= rule.max_cv;
  return st;
}

Stability extend_until_stable(std::deque<double>& window, const std::function<double()>& next,
                              const StabilityRule& rule, int64_t cap) {
  const auto verdict = [&] { return steady_state(std::vector<double>(window.begin(), window.end()), rule); };
  Stability st = verdict();
  for (int64_t extra = 1; extra <= cap && !st.stable; ++extra) {
    window.push_back(next());
    window.pop_front();
    st = verdict();
    st.extended_iters = extra;
  }
  return st;
}

}  // namespace rlx::train
