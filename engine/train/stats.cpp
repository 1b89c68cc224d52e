// stats.cpp: see stats.h.
#include "train/stats.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>
#include <string>

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

namespace {

struct HalfStats {
  double mean = 0, var = 0;
  size_t n = 0;
};

HalfStats half_stats(std::vector<double>::const_iterator first, size_t n) {
  const Summary s = summarize(std::vector<double>(first, first + static_cast<std::ptrdiff_t>(n)));
  return {s.mean, s.sd * s.sd, n};
}

}  // namespace

Stability steady_state(const std::vector<double>& samples, const StabilityRule& rule) {
  Stability st;
  const size_t half = samples.size() / 2;
  if (half == 0) return st;
  const HalfStats a = half_stats(samples.begin(), half);
  const HalfStats b = half_stats(samples.end() - static_cast<std::ptrdiff_t>(half), half);
  const Summary all = summarize(samples);
  st.drift = a.mean > 0 ? b.mean / a.mean - 1 : 0;
  st.cv = all.mean > 0 ? all.sd / all.mean : 0;
  if (half < 2) return st;  // one sample per half: no spread to test the drift against
  st.judged = true;
  const double ua = a.var / static_cast<double>(a.n), ub = b.var / static_cast<double>(b.n);
  if (ua + ub > 0) {
    st.drift_t = (b.mean - a.mean) / std::sqrt(ua + ub);
    // Welch-Satterthwaite degrees of freedom (zero-variance halves contribute no term).
    const double den = (ua > 0 ? ua * ua / static_cast<double>(a.n - 1) : 0) +
                       (ub > 0 ? ub * ub / static_cast<double>(b.n - 1) : 0);
    const double df = den > 0 ? (ua + ub) * (ua + ub) / den : static_cast<double>(a.n + b.n - 2);
    st.drift_significant = std::abs(st.drift_t) > t975(std::max(df, 1.0));
  } else {
    st.drift_significant = a.mean != b.mean;  // two constant halves: any difference is real
  }
  const bool drifting = st.drift_significant && std::abs(st.drift) > rule.max_drift;
  st.stable = !drifting && st.cv <= rule.max_cv;
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

namespace {

// The two-sided 95 % critical values of Student's t, three decimals (rlx.stats.t975 reads them here).
constexpr double kT975[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                            2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                            2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
struct TPoint {
  double df, t;
};
constexpr TPoint kTBeyond[] = {{30, 2.042}, {40, 2.021}, {60, 2.000}, {120, 1.980}};

double lerp_inverse_df(const TPoint& a, double b_df, double b_t, double df) {
  const double ia = 1 / a.df, ib = std::isinf(b_df) ? 0 : 1 / b_df, ix = 1 / df;
  return a.t + (b_t - a.t) * (ia - ix) / (ia - ib);
}

}  // namespace

double t975(double df) {
  if (!(df >= 1)) return 0;
  if (df <= 30) {
    const auto lo = static_cast<size_t>(std::floor(df));
    if (static_cast<double>(lo) == df) return kT975[lo - 1];
    const TPoint a{static_cast<double>(lo), kT975[lo - 1]};
    return lerp_inverse_df(a, static_cast<double>(lo + 1), kT975[lo], df);
  }
  constexpr size_t n = std::size(kTBeyond);
  for (size_t i = 0; i + 1 < n; ++i)
    if (df <= kTBeyond[i + 1].df)
      return lerp_inverse_df(kTBeyond[i], kTBeyond[i + 1].df, kTBeyond[i + 1].t, df);
  return lerp_inverse_df(kTBeyond[n - 1], INFINITY, 1.960, df);
}

double ci_half95(const std::vector<double>& samples) {
  if (samples.size() < 2) return INFINITY;
  const double n = static_cast<double>(samples.size());
  return t975(n - 1) * summarize(samples).sd / std::sqrt(n);
}

double ci_rel95(const std::vector<double>& samples) {
  if (samples.size() < 2) return INFINITY;
  const Summary s = summarize(samples);
  if (!(s.mean > 0)) return INFINITY;
  return ci_half95(samples) / s.mean;
}

int64_t iters_for_ci(double cv, double ci, int64_t lo, int64_t hi) {
  lo = std::max<int64_t>(2, lo);
  for (int64_t n = lo; n <= hi; ++n)
    if (t975(static_cast<double>(n - 1)) * cv / std::sqrt(static_cast<double>(n)) <= ci) return n;
  return hi;
}

bool warmup_settled(const std::vector<double>& w, const WarmupRule& rule) {
  if (static_cast<int64_t>(w.size()) < std::max<int64_t>(rule.min_iters, 2)) return false;
  const double prev = w[w.size() - 2], last = w.back();
  return prev > 0 && last >= (1 - rule.tolerance) * prev;
}

bool warmup_done(const std::vector<double>& w, const WarmupRule& rule) {
  return static_cast<int64_t>(w.size()) >= rule.max_iters || warmup_settled(w, rule);
}

std::string stop_reason(const std::vector<double>& samples, double elapsed_s, const TargetRule& rule) {
  const auto n = static_cast<int64_t>(samples.size());
  if (n < rule.min_iters) return "";
  if (ci_rel95(samples) <= rule.target_ci && steady_state(samples, rule.stability).stable) return "ci";
  if (n >= rule.max_iters) return "max_iters";
  if (rule.max_seconds > 0) {
    const double mean = summarize(samples).mean;
    if (elapsed_s + mean > rule.max_seconds) return "max_seconds";
  }
  return "";
}

}  // namespace rlx::train
