// axis.h: one chart axis, i.e. the mapping from data values to pixels and the ticks drawn on it.
//
// Charts in rlx span orders of magnitude (arithmetic intensity, GFLOP/s), so log10 axes are first
// class: major ticks sit on decades, minor ticks on 2..9 times a decade, and labels use SI
// suffixes (1k, 10M, 1G). The transform is public and exact so tests can compute where a value
// must have been drawn and sample the pixel there.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace rlx::plot {

enum class Scale { Linear, Log10 };

struct Tick {
  double value;
  std::string label;  // empty for minor ticks
};

class Axis {
 public:
  Axis() = default;
  // Data range [lo, hi] shown on pixel range [px_lo, px_hi] (px_hi < px_lo for a y axis, whose
  // pixels grow downwards). A log axis needs 0 < lo < hi.
  Axis(Scale scale, double lo, double hi, double px_lo = 0, double px_hi = 1);

  Scale scale() const { return scale_; }
  double lo() const { return lo_; }
  double hi() const { return hi_; }
  double px_lo() const { return px_lo_; }
  double px_hi() const { return px_hi_; }
  void set_pixels(double px_lo, double px_hi) { px_lo_ = px_lo; px_hi_ = px_hi; }

  // Pixel coordinate of a data value (values outside the range extrapolate linearly in t-space).
  double to_px(double v) const;
  // The inverse, for tests and hit-testing.
  double from_px(double px) const;
  bool contains(double v) const { return v >= lo_ && v <= hi_; }

  // Major ticks with labels; explicit ticks (set_ticks) replace the automatic ones.
  std::vector<Tick> major_ticks() const;
  // Unlabelled minor ticks (log axes: 2..9 x 10^k; linear axes: the halves of major steps).
  std::vector<double> minor_ticks() const;
  // Labels default to si_label(value); categorical axes pass their own.
  void set_ticks(std::vector<double> values, std::vector<std::string> labels = {}) {
    explicit_ = std::move(values);
    explicit_labels_ = std::move(labels);
  }

 private:
  double t(double v) const;  // v or log10(v)
  Scale scale_ = Scale::Linear;
  double lo_ = 0, hi_ = 1, px_lo_ = 0, px_hi_ = 1;
  std::vector<double> explicit_;
  std::vector<std::string> explicit_labels_;
};

// "1k", "10M", "1G", "2.5k", "0.1", "250", "0": short labels for tick values, SI suffixes from k
// upwards (k, M, G, T, P) and plain decimals below 1000.
std::string si_label(double v);

// A range padded to "nice" bounds: decades for log axes (floor/ceil of log10), multiples of a
// 1-2-5 step for linear axes. lo/hi are the data extremes; equal values get a sensible width.
void nice_range(Scale scale, double& lo, double& hi);

// A log axis over the values snapped outwards to 1, 2 or 5 times a power of ten (not whole decades:
// a throughput axis from 0.85 to 29 images/s spanned 0.1 to 100 and flattened the trends); lo/hi
// overrides replace the snapped bounds. Throws unless 0 < lo < hi.
Axis snapped_log_axis(const std::vector<double>& values, std::optional<double> lo_override = std::nullopt,
                      std::optional<double> hi_override = std::nullopt);

// The 1-2-5 step giving about `target` intervals over [lo, hi].
double nice_step(double lo, double hi, int target);

}  // namespace rlx::plot
