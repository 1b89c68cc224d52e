// charts.cpp: throughput-vs-batch and variability charts (see charts.h; the roofline is in roofline.cpp).
#include "charts.h"

#include "train/stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

namespace rlx::plot {

namespace {
// "20.5", "512", "1.23": three significant figures without exponents.
std::string num3(double v) {
  char buf[64];
  const double a = std::fabs(v);
  std::snprintf(buf, sizeof buf, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3g", v);
  return buf;
}
}  // namespace

Layout throughput_chart(ChartSpec spec, const std::vector<Series>& series, const std::string& path) {
  if (spec.xlabel.empty()) spec.xlabel = "Batch size";
  if (spec.ylabel.empty()) spec.ylabel = "Throughput (images/s)";
  std::set<double> xs;
  for (const auto& s : series) xs.insert(s.x.begin(), s.x.end());
  const bool logx = !xs.empty() && *xs.begin() > 0 && *xs.rbegin() / *xs.begin() >= 4;
  spec.xscale = logx ? Scale::Log10 : Scale::Linear;
  validate_series(series, spec.xscale, spec.yscale);
  if (spec.xticks.empty()) spec.xticks.assign(xs.begin(), xs.end());
  std::vector<double> xv(xs.begin(), xs.end()), yv;
  for (const auto& s : series)
    for (size_t i = 0; i < s.y.size(); ++i) {
      const double sd = s.sd.empty() ? 0 : s.sd[i];  // a series without error bars has no sd at all
      yv.push_back(s.y[i] + sd);
      // On a log axis the range must also hold the lower error bar (or the mean, when mean - SD
      // is not positive and the bar is cut at the frame).
      if (spec.yscale == Scale::Log10) yv.push_back(s.y[i] - sd > 0 ? s.y[i] - sd : s.y[i]);
    }
  // Batch sizes 16..64 should not touch the frame: pad by a fifth of the (log) span.
  Axis x = make_axis(spec.xscale, xv, spec.xmin, spec.xmax, 0.12);
  if (logx && !spec.xmin && !spec.xmax) {
    const double f = std::pow(*xs.rbegin() / *xs.begin(), 0.1);
    x = Axis(Scale::Log10, *xs.begin() / f, *xs.rbegin() * f);
  }
  Axis y = make_axis(spec.yscale, yv, spec.ymin, spec.ymax, 0.08, true);
  if (spec.yscale == Scale::Log10) {
    // Snapped to 1-2-5 bounds, not whole decades (issue 34: 0.85 to 29 images/s drawn from 0.1 to
    // 100 flattened the trends); 5 % of room keeps a value on a bound off the frame.
    std::vector<double> padded;
    for (double v : yv)
      if (v > 0) {
        padded.push_back(v * 1.05);
        padded.push_back(v / 1.05);
      }
    if (!padded.empty()) y = snapped_log_axis(padded, spec.ymin, spec.ymax);
  }
  // After the axes: values no axis can hold are named as such first (e2e "values overflowing ...").
  for (size_t k = 0; k < series.size(); ++k)
    for (size_t i = 0; i < series[k].y.size(); ++i)
      if (series[k].y[i] < 0)
        throw std::invalid_argument(fmt::format(
            "series {}{}: y[{}] = {} images/s: a throughput cannot be negative; "
            "fix its value",
            k + 1, series[k].label.empty() ? "" : " ('" + series[k].label + "')", i + 1, series[k].y[i]));
  std::vector<LegendEntry> legend;
  for (size_t k = 0; k < series.size(); ++k)
    if (!series[k].label.empty())
      legend.push_back({series[k].label, series[k].color.value_or(palette(k)), series[k].marker.value_or(marker(k)),
                        true, series[k].dashed});
  Canvas c(path, spec.width, spec.height, spec.dpi);
  Frame f(c, spec, x, y, legend);
  f.begin_data();
  const double step = 3.5 * c.pt();
  for (size_t k = 0; k < series.size(); ++k)
    draw_series(c, f, series[k], series[k].color.value_or(palette(k)), series[k].marker.value_or(marker(k)),
                (static_cast<double>(k) - (series.size() - 1) / 2.0) * step);
  f.end_data();
  f.finish();
  c.finish();
  Layout out = f.layout();
  out.path = path;
  return out;
}

namespace {
// A box (quartiles, median, whiskers to the furthest value within 1.5 IQR) in a light tint of the
// group colour, outlined in the colour. Returns the upper whisker's value.
double draw_box(Canvas& c, const Frame& f, const std::vector<double>& v, double cx, double box_w,
                const Color& col) {
  const double q1 = quantile(v, 0.25), med = quantile(v, 0.5), q3 = quantile(v, 0.75), iqr = q3 - q1;
  double wlo = med, whi = med;
  for (double x : v) {
    if (x >= q1 - 1.5 * iqr) wlo = std::min(wlo, x);
    if (x <= q3 + 1.5 * iqr) whi = std::max(whi, x);
  }
  c.fill_rect(cx - box_w / 2, f.py(q3), box_w, f.py(q1) - f.py(q3), Color{col.r, col.g, col.b, 0.18});
  c.set_color(col);
  c.set_line(1.4);
  cairo_rectangle(c.cr(), cx - box_w / 2, f.py(q3), box_w, f.py(q1) - f.py(q3));
  cairo_stroke(c.cr());
  c.set_line(2.4);
  c.line(cx - box_w / 2, f.py(med), cx + box_w / 2, f.py(med));
  c.set_line(1.2);
  c.line(cx, f.py(q3), cx, f.py(whi));
  c.line(cx, f.py(q1), cx, f.py(wlo));
  c.line(cx - box_w / 4, f.py(whi), cx + box_w / 4, f.py(whi));
  c.line(cx - box_w / 4, f.py(wlo), cx + box_w / 4, f.py(wlo));
  return whi;
}

// Fewer repeats than a box can summarise: the mean as a bar and ± 1 SD as a whisker (cut at the
// frame on a log axis when mean - SD is not positive). Returns the top of the whisker.
double draw_mean_bar(Canvas& c, const Frame& f, double mean, double sd, double cx, double box_w,
                     const Color& col) {
  c.set_color(col);
  c.set_line(2.4);
  c.line(cx - box_w / 2, f.py(mean), cx + box_w / 2, f.py(mean));
  if (!(sd > 0)) return mean;
  const double top = mean + sd;
  const double bottom =
      f.layout().y.scale() == Scale::Log10 && mean - sd <= 0 ? f.layout().y.lo() : mean - sd;
  c.set_line(1.2);
  c.line(cx, f.py(top), cx, f.py(bottom));
  c.line(cx - box_w / 4, f.py(top), cx + box_w / 4, f.py(top));
  c.line(cx - box_w / 4, f.py(bottom), cx + box_w / 4, f.py(bottom));
  return top;
}

// Mean and sample SD (0 for one value): the statistics' owner's (engine/train/stats.cpp).
std::pair<double, double> mean_sd(const std::vector<double>& v) {
  const train::Summary s = train::summarize(v);
  return {s.mean, s.sd};
}

// "n=3  CV 1.2%" and "213.0 ± 8.2" above a group, bottom at y (pixels). Both numbers to the decimal
// of the SD's second significant digit: "213.0 ± 8.2", "92 ± 25". One value has no SD: "n=1: no SD"
// and the value alone (issue 45: "838 ± 0, CV 0.0%" read as a measured spread).
// With a median (> 0; a chart drawn relative to it) a third line names it, in the values' units:
// the axis shows only the differences from it.
void annotate(Canvas& c, double cx, double y, size_t n, double mean, double sd, double median = 0) {
  const Color ink{0.2, 0.2, 0.2, 1};
  char buf[128];
  if (n == 1) {
    c.text("n=1: no SD", cx, y, 9, HAlign::Center, VAlign::Bottom, 0, false, ink);
    c.text(num3(mean), cx, y - c.text_height(9), 9, HAlign::Center, VAlign::Bottom, 0, false, ink);
    return;
  }
  if (median > 0)
    c.text("median " + num3(median), cx, y - 2 * c.text_height(9), 9, HAlign::Center, VAlign::Bottom, 0, false, ink);
  std::snprintf(buf, sizeof buf, "n=%zu  CV %.1f%%", n, mean != 0 ? 100 * sd / std::fabs(mean) : 0.0);
  c.text(buf, cx, y, 9, HAlign::Center, VAlign::Bottom, 0, false, ink);
  if (sd > 0 && std::isfinite(sd)) {
    const int decimals = std::clamp(1 - static_cast<int>(std::floor(std::log10(sd))), 0, 4);
    std::snprintf(buf, sizeof buf, "%.*f ± %.*f", decimals, mean, decimals, sd);
  } else {
    std::snprintf(buf, sizeof buf, "%s ± 0", num3(mean).c_str());
  }
  c.text(buf, cx, y - c.text_height(9), 9, HAlign::Center, VAlign::Bottom, 0, false, ink);
}
}  // namespace

double quantile(std::vector<double> v, double q) {
  // The statistic is its owner's (engine/train/stats.cpp, the same type-7 interpolation); a chart
  // only adds that an empty group has no quartile.
  if (v.empty()) return NAN;
  return train::percentile(std::move(v), q * 100.0);
}

namespace {
// The values a group is drawn at: as given, or (relative) the % difference from its median.
std::vector<double> drawn_values(const Group& g, bool relative) {
  if (!relative) return g.values;
  const double med = quantile(g.values, 0.5);
  if (!(med > 0))
    throw std::invalid_argument("group '" + g.label + "' has median " + si_label(med) +
                                ": values relative to their median need a positive median");
  std::vector<double> out;
  for (double v : g.values) out.push_back(100.0 * (v / med - 1.0));
  return out;
}

// The y axis: room above the highest value for the annotations (in ratio terms on a log axis,
// where groups an order of magnitude apart, a CPU beside a GPU, are drawn; relative, room for a
// third line, and at least ±1 % when every group is one run at its median).
Axis variability_axis(const ChartSpec& spec, std::vector<double> all, bool relative) {
  const double lo = *std::min_element(all.begin(), all.end()), hi = *std::max_element(all.begin(), all.end());
  if (spec.yscale == Scale::Log10) {
    if (!(lo > 0)) throw std::invalid_argument("a log axis needs positive values, got " + si_label(lo));
    const double ratio = hi > lo ? hi / lo : 1.5;
    return snapped_log_axis({hi * std::pow(ratio, 0.35), lo / std::pow(ratio, 0.15)}, spec.ymin, spec.ymax);
  }
  const double span = hi > lo ? hi - lo : std::max(std::fabs(hi) * 0.05, relative ? 2.0 : 1e-9);
  all.push_back(hi + span * (relative ? 0.5 : 0.35));
  all.push_back(lo - span * 0.15);
  return make_axis(spec.yscale, all, spec.ymin, spec.ymax, 0, false);
}
}  // namespace

Layout variability_chart(ChartSpec spec, const std::vector<Group>& groups, const std::string& path, bool relative) {
  if (groups.empty()) throw std::invalid_argument("nothing to draw: give at least one group");
  std::vector<double> all, ticks;
  std::vector<std::string> names;
  std::vector<std::vector<double>> drawn;
  for (size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].values.empty())
      throw std::invalid_argument("group '" + groups[g].label + "' has no values");
    for (double v : groups[g].values)
      if (!std::isfinite(v))
        throw std::invalid_argument("group '" + groups[g].label + "' has a value that is not finite");
    drawn.push_back(drawn_values(groups[g], relative));
    all.insert(all.end(), drawn.back().begin(), drawn.back().end());
    ticks.push_back(g + 1.0);
    names.push_back(groups[g].label);
  }
  if (relative) spec.yscale = Scale::Linear;
  if (spec.ylabel.empty())
    spec.ylabel = relative ? "Images/s: % from the environment's median" : "Throughput (images/s)";
  spec.legend = false;
  spec.subtitle_lines = 5;  // it states every environment's protocol (and, relative, each one's spread)
  spec.xscale = Scale::Linear;
  Axis x(Scale::Linear, 0.4, groups.size() + 0.6);
  x.set_ticks(ticks, names);
  spec.xticks.clear();
  const Axis y = variability_axis(spec, all, relative);
  Canvas c(path, spec.width, spec.height, spec.dpi);
  Frame f(c, spec, x, y, {});
  f.begin_data();
  const double pt = c.pt();
  const double box_w = 0.35 * (f.px(2) - f.px(1));
  if (relative) {  // every group's median
    c.set_color(Color{0.55, 0.55, 0.55, 1});
    c.set_line(0.9, true);
    c.line(f.px(0.4), f.py(0), f.px(groups.size() + 0.6), f.py(0));
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    const auto& v = drawn[g];
    const Color col = palette(g);
    const double cx = f.px(g + 1.0);
    const auto [mean, sd] = mean_sd(v);
    double whi = *std::max_element(v.begin(), v.end());
    if (v.size() >= kMinBox)
      whi = draw_box(c, f, v, cx, box_w, col);
    else
      whi = std::max(whi, draw_mean_bar(c, f, mean, sd, cx, box_w, col));
    // Every repeat as a dot, spread sideways deterministically (golden-ratio sequence).
    for (size_t i = 0; i < v.size(); ++i) {
      const double j = v.size() == 1 ? 0 : (std::fmod(i * 0.6180339887, 1.0) - 0.5) * box_w * 0.6;
      c.draw_marker(Marker::Circle, cx + j, f.py(v[i]), 6.5, col, Color{1, 1, 1, 1});
    }
    const auto [raw_mean, raw_sd] = mean_sd(groups[g].values);
    annotate(c, cx, f.py(whi) - 7 * pt, v.size(), raw_mean, raw_sd, relative ? quantile(groups[g].values, 0.5) : 0);
  }
  f.end_data();
  f.finish();
  c.finish();
  Layout out = f.layout();
  out.path = path;
  return out;
}

}  // namespace rlx::plot
