// thin.cpp: see thin.h.
#include "thin.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <unordered_set>

namespace rlx::plot {

std::vector<size_t> thin_line(const std::vector<double>& x, const std::vector<double>& y) {
  std::vector<size_t> keep;
  const size_t n = std::min(x.size(), y.size());
  size_t i = 0;
  while (i < n) {
    if (!std::isfinite(y[i]) || !std::isfinite(x[i])) {
      keep.push_back(i++);
      continue;
    }
    // The run of consecutive finite points in the pixel column of point i.
    const double column = std::floor(x[i]);
    size_t end = i, lo = i, hi = i;
    while (end < n && std::isfinite(y[end]) && std::isfinite(x[end]) && std::floor(x[end]) == column) {
      if (y[end] < y[lo]) lo = end;
      if (y[end] > y[hi]) hi = end;
      ++end;
    }
    const size_t last = end - 1;
    size_t picks[4] = {i, lo, hi, last};
    std::sort(picks, picks + 4);
    for (size_t k = 0; k < 4; ++k)
      if (k == 0 || picks[k] != picks[k - 1]) keep.push_back(picks[k]);
    i = end;
  }
  return keep;
}

std::vector<char> first_on_pixel(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = std::min(x.size(), y.size());
  std::vector<char> first(n, 0);
  std::unordered_set<uint64_t> seen;
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
    // Pixels far off the canvas still get a key of their own (clamped: they are clipped anyway).
    const auto px = static_cast<int64_t>(std::llround(std::clamp(x[i], -1e9, 1e9)));
    const auto py = static_cast<int64_t>(std::llround(std::clamp(y[i], -1e9, 1e9)));
    const uint64_t key = (static_cast<uint64_t>(px) << 32) ^ static_cast<uint64_t>(py & 0xffffffff);
    first[i] = seen.insert(key).second ? 1 : 0;
  }
  return first;
}

namespace {

// Strokes one unbroken run of points, kSegmentsPerStroke segments per path. Each path after the
// first begins one segment back, so the join at the point where the previous path ended is drawn
// whole (a butt end there would leave a notch); a dash pattern goes on where it left off.
void stroke_run(cairo_t* cr, const std::vector<double>& x, const std::vector<double>& y,
                const std::vector<size_t>& run) {
  const int dashes = cairo_get_dash_count(cr);
  std::vector<double> dash(static_cast<size_t>(std::max(dashes, 0)));
  double offset = 0;
  if (dashes > 0) cairo_get_dash(cr, dash.data(), &offset);
  double travelled = 0;  // along the run, to the first point of the current path
  size_t start = 0;
  for (;;) {
    const size_t end = std::min(run.size() - 1, start + kSegmentsPerStroke);
    if (dashes > 0) cairo_set_dash(cr, dash.data(), dashes, offset + travelled);
    cairo_move_to(cr, x[run[start]], y[run[start]]);
    for (size_t k = start + 1; k <= end; ++k) cairo_line_to(cr, x[run[k]], y[run[k]]);
    cairo_stroke(cr);
    if (end + 1 >= run.size()) break;
    for (size_t k = start + 1; k < end; ++k)
      travelled += std::hypot(x[run[k]] - x[run[k - 1]], y[run[k]] - y[run[k - 1]]);
    start = end - 1;
  }
  if (dashes > 0) cairo_set_dash(cr, dash.data(), dashes, offset);
}

}  // namespace

void stroke_line(cairo_t* cr, const std::vector<double>& x, const std::vector<double>& y,
                 const std::string& series) {
  const std::vector<size_t> keep = thin_line(x, y);
  if (keep.size() > kMaxLinePoints)
    throw std::invalid_argument(fmt::format(
        "{}: its line keeps {} of its {} points after thinning to the plot's pixel columns (its x values are "
        "not in order), more than the {} rlx draws as one line; sort the points by x, or draw them as points "
        "(line = false)",
        series, keep.size(), x.size(), kMaxLinePoints));
  std::vector<size_t> run;
  auto flush = [&] {
    if (run.size() >= 2) stroke_run(cr, x, y, run);
    run.clear();
  };
  for (size_t i : keep) {
    if (!std::isfinite(y[i]) || !std::isfinite(x[i]))
      flush();  // a break lifts the pen
    else
      run.push_back(i);
  }
  flush();
}

}  // namespace rlx::plot
