// axis.cpp: data-to-pixel transforms, tick placement and SI tick labels (see axis.h).
#include "axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace rlx::plot {

Axis::Axis(Scale scale, double lo, double hi, double px_lo, double px_hi)
    : scale_(scale), lo_(lo), hi_(hi), px_lo_(px_lo), px_hi_(px_hi) {
  if (!(std::isfinite(lo) && std::isfinite(hi)) || !(lo < hi))
    throw std::invalid_argument("axis range must be finite with lo < hi, got [" + si_label(lo) + ", " +
                                si_label(hi) + "]");
  if (scale == Scale::Log10 && lo <= 0)
    throw std::invalid_argument("a log axis needs a positive range, got lower bound " + si_label(lo));
}

double Axis::t(double v) const { return scale_ == Scale::Log10 ? std::log10(v) : v; }

double Axis::to_px(double v) const {
  const double f = (t(v) - t(lo_)) / (t(hi_) - t(lo_));
  return px_lo_ + f * (px_hi_ - px_lo_);
}

double Axis::from_px(double px) const {
  const double f = (px - px_lo_) / (px_hi_ - px_lo_);
  const double tv = t(lo_) + f * (t(hi_) - t(lo_));
  return scale_ == Scale::Log10 ? std::pow(10.0, tv) : tv;
}

namespace {
// Decade exponents k with lo <= 10^k <= hi (tolerating rounding of the log).
void decades(double lo, double hi, int& k0, int& k1) {
  k0 = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
  k1 = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
}
// Decades between labelled ticks: every one up to 9, every other one up to 18, then the 1-2-5
// step that keeps the labels to at most 9, so an axis spanning 600 decades (a roofline fed 1e-300
// and 1e300) gets a handful of ticks instead of hundreds of overlapping ones.
int decade_step(int decades) {
  if (decades <= 9) return 1;
  if (decades <= 18) return 2;
  for (int p = 1;; p *= 10)
    for (int m : {1, 2, 5})
      if (decades <= 9 * m * p) return m * p;
}
bool in_range(double v, double lo, double hi) {
  const double eps = 1e-9 * std::max(std::fabs(lo), std::fabs(hi));
  return v >= lo - eps && v <= hi + eps;
}
}  // namespace

std::vector<Tick> Axis::major_ticks() const {
  std::vector<Tick> out;
  if (!explicit_.empty()) {
    for (size_t i = 0; i < explicit_.size(); ++i) {
      const double v = explicit_[i];
      if (in_range(v, lo_, hi_))
        out.push_back({v, i < explicit_labels_.size() ? explicit_labels_[i] : si_label(v)});
    }
    return out;
  }
  if (scale_ == Scale::Log10) {
    int k0, k1;
    decades(lo_, hi_, k0, k1);
    const int n = k1 - k0 + 1;
    const int every = decade_step(n);
    // Wide steps sit on multiples of the step (1e-200, 1e-100, 1, 1e100), not on the first decade.
    const int first = every > 2 ? static_cast<int>(std::ceil(static_cast<double>(k0) / every)) * every : k0;
    for (int k = first; k <= k1; ++k) {
      if ((k - first) % every != 0) continue;
      const double v = std::pow(10.0, k);
      out.push_back({v, si_label(v)});
    }
    // At most two decade ticks in view: also label 2x and 5x so the axis can be read (a throughput
    // axis from 0.5 to 50 images/s showed only "1" and "10").
    if (n <= 2) {
      std::vector<Tick> more;
      for (int k = k0 - 1; k <= k1; ++k)
        for (double m : {1.0, 2.0, 5.0}) {
          const double v = m * std::pow(10.0, k);
          if (in_range(v, lo_, hi_)) more.push_back({v, si_label(v)});
        }
      out = more;
    }
    return out;
  }
  const double step = nice_step(lo_, hi_, 6);
  const double start = std::ceil(lo_ / step - 1e-9) * step;
  for (int i = 0;; ++i) {
    double v = start + i * step;
    if (v > hi_ + step * 1e-9) break;
    if (std::fabs(v) < step * 1e-9) v = 0;
    out.push_back({v, si_label(v)});
  }
  return out;
}

std::vector<double> Axis::minor_ticks() const {
  std::vector<double> out;
  // Explicit ticks (batch sizes, categories) stand alone: minor ticks between them mean nothing.
  if (!explicit_.empty()) return out;
  if (scale_ == Scale::Log10) {
    int k0, k1;
    decades(lo_, hi_, k0, k1);
    if (k1 - k0 > 12) return out;  // too dense to be useful
    for (int k = k0 - 1; k <= k1; ++k)
      for (int m = 2; m <= 9; ++m) {
        const double v = m * std::pow(10.0, k);
        if (in_range(v, lo_, hi_)) out.push_back(v);
      }
    return out;
  }
  // Midpoints between major ticks, including the half steps before the first and after the last.
  const double step = nice_step(lo_, hi_, 6);
  const double first = std::ceil(lo_ / step - 1e-9) * step - step / 2;
  for (int i = 0;; ++i) {
    const double v = first + i * step;
    if (v > hi_ + step * 1e-9) break;
    if (in_range(v, lo_, hi_)) out.push_back(v);
  }
  return out;
}

std::string si_label(double v) {
  if (v == 0) return "0";
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  char buf[64];
  const double a = std::fabs(v);
  if (a < 1000) {
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
  }
  static const char* suffix[] = {"", "k", "M", "G", "T", "P", "E"};
  int e3 = static_cast<int>(std::floor(std::log10(a) / 3 + 1e-12));
  if (e3 > 6) {  // beyond exa: "1e+28", not "1e+10E"
    std::snprintf(buf, sizeof buf, "%.3g", v);
    return buf;
  }
  double m = v / std::pow(10.0, 3 * e3);
  // 999.97k would print as "1e+03k": carry into the next suffix.
  if (std::fabs(m) >= 999.95 && e3 < 6) {
    ++e3;
    m /= 1000;
  }
  std::snprintf(buf, sizeof buf, "%.3g%s", m, suffix[e3]);
  return buf;
}

Axis snapped_log_axis(const std::vector<double>& values, std::optional<double> lo_override,
                      std::optional<double> hi_override) {
  std::vector<double> v;
  for (double x : values)
    if (std::isfinite(x) && x > 0) v.push_back(x);
  if (v.empty()) throw std::invalid_argument("a log axis needs a positive value to show");
  auto down = [](double x) {
    const double p = std::pow(10.0, std::floor(std::log10(x) + 1e-9)), m = x / p;
    return (m >= 5 - 1e-9 ? 5 : m >= 2 - 1e-9 ? 2 : 1) * p;
  };
  auto up = [](double x) {
    const double p = std::pow(10.0, std::floor(std::log10(x) - 1e-9)), m = x / p;
    return (m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10) * p;
  };
  const double lo = lo_override.value_or(down(*std::min_element(v.begin(), v.end())));
  const double hi = hi_override.value_or(up(*std::max_element(v.begin(), v.end())));
  if (!(lo > 0 && lo < hi)) throw std::invalid_argument("axis limits must satisfy 0 < min < max");
  return Axis(Scale::Log10, lo, hi);
}

double nice_step(double lo, double hi, int target) {
  const double span = hi - lo;
  if (!(span > 0)) return 1;
  const double raw = span / std::max(target, 1);
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / p;
  const double m = f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10;
  return m * p;
}

void nice_range(Scale scale, double& lo, double& hi) {
  if (scale == Scale::Log10) {
    if (!(lo > 0)) lo = hi > 0 ? hi / 10 : 1;
    if (!(hi > 0)) hi = lo * 10;
    lo = std::pow(10.0, std::floor(std::log10(lo) + 1e-9));
    hi = std::pow(10.0, std::ceil(std::log10(hi) - 1e-9));
    if (hi <= lo) hi = lo * 10;
    return;
  }
  if (hi == lo) {
    const double d = lo == 0 ? 1 : std::fabs(lo) * 0.1;
    lo -= d;
    hi += d;
  }
  const double step = nice_step(lo, hi, 6);
  lo = std::floor(lo / step + 1e-9) * step;
  hi = std::ceil(hi / step - 1e-9) * step;
}

}  // namespace rlx::plot
