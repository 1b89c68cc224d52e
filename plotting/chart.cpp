// chart.cpp: frame layout and drawing, series drawing and the generic line chart (see chart.h).
#include "chart.h"
#include "thin.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rlx::plot {

namespace {
// Type sizes in points; at the default 150 dpi a 1200x800 figure is 8 x 5.3 inches, which these
// sizes suit when the figure is printed at column or page width.
constexpr double kTitlePt = 14, kSubtitlePt = 10, kLabelPt = 12, kTickPt = 10.5, kLegendPt = 10;
constexpr double kPadPt = 8, kMajorTickPt = 5, kMinorTickPt = 3;
const Color kInk{0.15, 0.15, 0.15, 1};
const Color kGridMajor{0.86, 0.86, 0.86, 1};
const Color kGridMinor{0.94, 0.94, 0.94, 1};
constexpr double kMinPlotPx = 50;  // a plot area narrower or shorter than this shows nothing

size_t utf8_length(const std::string& s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
}

// The first `n` characters of s (whole UTF-8 sequences), with "..." when cut.
std::string preview(const std::string& s, size_t n) {
  size_t chars = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((s[i] & 0xC0) != 0x80 && chars++ == n) break;
  }
  return i < s.size() ? s.substr(0, i) + "..." : s;
}

// The plot area left is too small to show anything. When shortening one legend label would make
// room, and that label takes a large part of the width, the label is the cause: the message names
// it and about how many characters fit (its width scaled down to the room left). Otherwise the
// figure is too small for its text as a whole.
[[noreturn]] void too_small(Canvas& c, double plot_w, double plot_h, const LegendEntry* widest) {
  if (plot_w < kMinPlotPx && widest != nullptr) {
    const double text_w = c.text_width(widest->label, kLegendPt, widest->header);
    const double room = text_w - (kMinPlotPx - plot_w) - 1;  // 1: the plot edges are rounded
    if (room > 0 && text_w > c.width() / 4.0) {
      const size_t n = utf8_length(widest->label);
      const auto fits = static_cast<size_t>(std::floor(static_cast<double>(n) * room / text_w));
      throw std::invalid_argument("the legend label '" + preview(widest->label, 40) + "' (" + std::to_string(n) +
                                  " characters) is too long for a " + std::to_string(c.width()) +
                                  "-pixel-wide figure: shorten it to at most about " + std::to_string(fits) +
                                  " characters, or make the figure wider");
    }
  }
  throw std::invalid_argument("a " + std::to_string(c.width()) + "x" + std::to_string(c.height()) +
                              " figure is too small for its labels and legend (the plot area would be " +
                              std::to_string(static_cast<long>(std::floor(plot_w))) + "x" +
                              std::to_string(static_cast<long>(std::floor(plot_h))) +
                              " pixels, at least 50x50 is needed): make it larger");
}
}  // namespace

Axis make_axis(Scale scale, std::vector<double> values, std::optional<double> lo_override,
               std::optional<double> hi_override, double pad_fraction, bool include_zero) {
  // A fixed bound joins the data before the padding, so the padding is a share of the span shown
  // (issue 34: AI vs batch with ymin = 0 padded only the data's narrow band and clipped the top
  // points at the frame).
  if (lo_override) values.push_back(*lo_override);
  if (hi_override) values.push_back(*hi_override);
  std::vector<double> v;
  for (double x : values)
    if (std::isfinite(x) && (scale == Scale::Linear || x > 0)) v.push_back(x);
  if (include_zero && scale == Scale::Linear) v.push_back(0);
  double lo = 1, hi = 10, data_lo = 0, data_hi = 0;
  if (!v.empty()) {
    lo = data_lo = *std::min_element(v.begin(), v.end());
    hi = data_hi = *std::max_element(v.begin(), v.end());
    if (scale == Scale::Log10) {
      const double f = std::pow(10.0, pad_fraction * std::max(1.0, std::log10(hi / lo)));
      lo /= f;
      hi *= f;
    } else {
      const double span = hi - lo;
      if (!(include_zero && lo == 0)) lo -= span * pad_fraction;
      hi += span * pad_fraction;
    }
  }
  nice_range(scale, lo, hi);
  // A span or a padded bound past the largest double (1.8e308) is infinite, and the nice bounds
  // of an infinite range are NaN: say which values, not "min nan and max nan".
  if (!v.empty() && !(std::isfinite(lo) && std::isfinite(hi)))
    throw std::invalid_argument("values from " + si_label(data_lo) + " to " + si_label(data_hi) +
                                " cannot be drawn: the axis around them passes the largest number a double "
                                "holds (about 1.8e308); is one of them wrong?");
  if (lo_override) lo = *lo_override;
  if (hi_override) hi = *hi_override;
  if (!(lo < hi))
    throw std::invalid_argument("axis limits must satisfy min < max, got min " + si_label(lo) + " and max " +
                                si_label(hi));
  if (scale == Scale::Log10 && lo <= 0)
    throw std::invalid_argument("a log axis needs a positive minimum, got " + si_label(lo));
  return Axis(scale, lo, hi);
}

Frame::Frame(Canvas& c, const ChartSpec& spec, Axis x, Axis y, std::vector<LegendEntry> legend)
    : c_(c), spec_(spec), legend_(spec.legend ? std::move(legend) : std::vector<LegendEntry>{}) {
  if (!spec.xticks.empty()) x.set_ticks(spec.xticks);
  if (!spec.yticks.empty()) y.set_ticks(spec.yticks);
  const double pt = c.pt(), pad = kPadPt * pt;
  double top = pad;
  const double room = c.width() - 2 * pad;
  if (!spec.title.empty()) {
    title_ = fit_heading(c, spec.title, kTitlePt, true, room);
    top += static_cast<double>(title_.lines.size()) * c.text_height(title_.size_pt) + 0.4 * pad;
  }
  if (!spec.subtitle.empty()) {
    // A subtitle states the scale, protocol and precision reached: four lines (spec.subtitle_lines)
    // before it is cut.
    subtitle_ = fit_heading(c, spec.subtitle, kSubtitlePt, false, room, spec.subtitle_lines);
    top += static_cast<double>(subtitle_.lines.size()) * c.text_height(subtitle_.size_pt);
  }
  top += pad;
  double ytick_w = 0;
  for (const auto& t : y.major_ticks()) ytick_w = std::max(ytick_w, c.text_width(t.label, kTickPt));
  double left = pad + (spec.ylabel.empty() ? 0 : c.text_height(kLabelPt) + pad) + ytick_w +
                kMajorTickPt * pt + 0.6 * pad;
  double bottom = kMajorTickPt * pt + 0.6 * pad + c.text_height(kTickPt) +
                  (spec.xlabel.empty() ? 0 : c.text_height(kLabelPt) + 0.6 * pad) + pad;
  double last_xtick_w = 0;
  auto xt = x.major_ticks();
  if (!xt.empty()) last_xtick_w = c.text_width(xt.back().label, kTickPt);
  const LegendEntry* widest = nullptr;
  for (const auto& e : legend_) {
    const double w = c.text_width(e.label, kLegendPt, e.header) + (e.header ? 0 : 30 * pt);
    if (w > legend_w_) widest = &e;
    legend_w_ = std::max(legend_w_, w);
  }
  if (legend_w_ > 0) legend_w_ += 1.5 * pad;
  double right = legend_w_ > 0 ? legend_w_ + 2 * pad : std::max(pad, last_xtick_w / 2 + pad);
  layout_.path = "";
  layout_.format = c.format();
  layout_.width = c.width();
  layout_.height = c.height();
  layout_.plot_x0 = std::round(left);
  layout_.plot_y0 = std::round(top);
  layout_.plot_x1 = std::round(c.width() - right);
  layout_.plot_y1 = std::round(c.height() - bottom);
  const double plot_w = layout_.plot_x1 - layout_.plot_x0, plot_h = layout_.plot_y1 - layout_.plot_y0;
  if (plot_w < kMinPlotPx || plot_h < kMinPlotPx) too_small(c, plot_w, plot_h, widest);
  x.set_pixels(layout_.plot_x0, layout_.plot_x1);
  y.set_pixels(layout_.plot_y1, layout_.plot_y0);
  layout_.x = x;
  layout_.y = y;

  // Grid first, under the data.
  if (spec.grid) {
    cairo_t* cr = c.cr();
    cairo_save(cr);
    c.set_line(0.5);
    c.set_color(kGridMinor);
    for (double v : x.scale() == Scale::Log10 ? x.minor_ticks() : std::vector<double>{})
      c.line(std::round(px(v)) + 0.5, layout_.plot_y0, std::round(px(v)) + 0.5, layout_.plot_y1);
    for (double v : y.scale() == Scale::Log10 ? y.minor_ticks() : std::vector<double>{})
      c.line(layout_.plot_x0, std::round(py(v)) + 0.5, layout_.plot_x1, std::round(py(v)) + 0.5);
    c.set_line(0.6);
    c.set_color(kGridMajor);
    for (const auto& t : x.major_ticks())
      c.line(std::round(px(t.value)) + 0.5, layout_.plot_y0, std::round(px(t.value)) + 0.5, layout_.plot_y1);
    for (const auto& t : y.major_ticks())
      c.line(layout_.plot_x0, std::round(py(t.value)) + 0.5, layout_.plot_x1, std::round(py(t.value)) + 0.5);
    cairo_restore(cr);
  }
}

void Frame::begin_data() {
  cairo_t* cr = c_.cr();
  cairo_save(cr);
  cairo_rectangle(cr, layout_.plot_x0, layout_.plot_y0, layout_.plot_x1 - layout_.plot_x0,
                  layout_.plot_y1 - layout_.plot_y0);
  cairo_clip(cr);
}

void Frame::end_data() { cairo_restore(c_.cr()); }

void Frame::finish() {
  const double pt = c_.pt(), pad = kPadPt * pt;
  const auto& L = layout_;
  // Spines: a full box, thin and dark.
  c_.set_line(0.9);
  c_.set_color(kInk);
  cairo_rectangle(c_.cr(), L.plot_x0, L.plot_y0, L.plot_x1 - L.plot_x0, L.plot_y1 - L.plot_y0);
  cairo_stroke(c_.cr());
  // Ticks point inwards from the bottom and left spines; minor ticks on log axes.
  c_.set_line(0.8);
  auto xt = L.x.major_ticks();
  for (double v : L.x.minor_ticks()) c_.line(px(v), L.plot_y1, px(v), L.plot_y1 - kMinorTickPt * pt);
  for (double v : L.y.minor_ticks()) c_.line(L.plot_x0, py(v), L.plot_x0 + kMinorTickPt * pt, py(v));
  for (const auto& t : xt) c_.line(px(t.value), L.plot_y1, px(t.value), L.plot_y1 - kMajorTickPt * pt);
  auto yt = L.y.major_ticks();
  for (const auto& t : yt) c_.line(L.plot_x0, py(t.value), L.plot_x0 + kMajorTickPt * pt, py(t.value));
  // Tick labels; x labels that would overlap their neighbour are thinned to every other one.
  double widest = 0;
  for (const auto& t : xt) widest = std::max(widest, c_.text_width(t.label, kTickPt));
  size_t every = 1;
  while (xt.size() > 1 && every < xt.size() &&
         (L.plot_x1 - L.plot_x0) / static_cast<double>(xt.size() - 1) * every < widest + pad)
    ++every;
  for (size_t i = 0; i < xt.size(); ++i)
    if (i % every == 0)
      c_.text(xt[i].label, px(xt[i].value), L.plot_y1 + kMajorTickPt * pt * 0.6 + 0.6 * pad, kTickPt, HAlign::Center,
              VAlign::Top, 0, false, kInk);
  double ytick_w = 0;
  for (const auto& t : yt) {
    c_.text(t.label, L.plot_x0 - 0.6 * pad, py(t.value), kTickPt, HAlign::Right, VAlign::Middle, 0, false, kInk);
    ytick_w = std::max(ytick_w, c_.text_width(t.label, kTickPt));
  }
  if (!spec_.xlabel.empty())
    c_.text(spec_.xlabel, (L.plot_x0 + L.plot_x1) / 2, L.height - pad, kLabelPt, HAlign::Center, VAlign::Bottom, 0,
            false, kInk);
  if (!spec_.ylabel.empty())
    c_.text(spec_.ylabel, L.plot_x0 - 0.6 * pad - ytick_w - pad, (L.plot_y0 + L.plot_y1) / 2, kLabelPt,
            HAlign::Center, VAlign::Bottom, 90, false, kInk);
  double ty = pad;
  if (!title_.lines.empty()) ty = draw_heading(title_, ty, true, kInk) + 0.2 * pad;
  if (!subtitle_.lines.empty()) draw_heading(subtitle_, ty, false, Color{0.35, 0.35, 0.35, 1});
  draw_legend();
}

namespace {
// The end of the UTF-8 character that starts at i.
size_t next_char(const std::string& s, size_t i) {
  for (++i; i < s.size() && (s[i] & 0xC0) == 0x80; ++i) {
  }
  return i;
}
}  // namespace

Heading fit_heading(Canvas& c, const std::string& text, double size_pt, bool bold, double room,
                    size_t max_lines) {
  Heading h{size_pt, {text}};
  const double min_pt = 0.75 * size_pt;
  double width = c.text_width(text, size_pt, bold);
  // Hinted glyph advances do not shrink in proportion to the size, so measure again after scaling.
  for (int attempt = 0; attempt < 8 && width > room && width > 0 && h.size_pt > min_pt; ++attempt) {
    h.size_pt = std::max(min_pt, h.size_pt * 0.98 * room / width);
    width = c.text_width(text, h.size_pt, bold);
  }
  if (width <= room) return h;
  const std::string ellipsis = "\u2026";
  auto fits = [&](const std::string& s) { return c.text_width(s, h.size_pt, bold) <= room; };
  h.lines.clear();
  std::string line;
  for (size_t i = 0; i < text.size();) {
    const size_t j = next_char(text, i);
    const std::string ch = text.substr(i, j - i);
    i = j;
    if (fits(line + ch)) {
      line += ch;
      continue;
    }
    // Break after the line's last "; " when that keeps at least half the line (a subtitle is a list
    // of phrases: Figure A's broke as "95 / % CI"), else at its last space, else between characters.
    const size_t phrase = line.rfind("; ");
    const size_t space =
        phrase != std::string::npos && phrase + 1 >= line.size() / 2 ? phrase + 1 : line.rfind(' ');
    if (space != std::string::npos && space > 0) {
      h.lines.push_back(line.substr(0, space));
      line = line.substr(space + 1) + ch;
    } else {
      h.lines.push_back(line);
      line = ch == " " ? "" : ch;
    }
  }
  if (!line.empty()) h.lines.push_back(line);
  if (h.lines.size() > max_lines) {
    h.lines.resize(max_lines);
    std::string& last = h.lines.back();
    while (!last.empty() && !fits(last + ellipsis)) {
      size_t k = last.size() - 1;
      while (k > 0 && (last[k] & 0xC0) == 0x80) --k;
      last.resize(k);
    }
    last += ellipsis;
  }
  return h;
}

// Each line centred over the plot area, but moved so that no part of it falls outside the figure:
// a long subtitle centred over a plot with a legend on its right was cut off at both edges.
double Frame::draw_heading(const Heading& h, double y, bool bold, const Color& color) {
  const Layout& L = layout_;
  const double pad = kPadPt * c_.pt();
  for (const auto& line : h.lines) {
    const double width = c_.text_width(line, h.size_pt, bold);
    const double centre = std::clamp((L.plot_x0 + L.plot_x1) / 2, pad + width / 2, L.width - pad - width / 2);
    c_.text(line, centre, y, h.size_pt, HAlign::Center, VAlign::Top, 0, bold, color);
    y += c_.text_height(h.size_pt);
  }
  return y;
}

void Frame::draw_legend() {
  if (legend_.empty()) return;
  const double pt = c_.pt(), pad = kPadPt * pt, row = kLegendPt * pt * 1.75;
  const double x0 = layout_.plot_x1 + pad, y0 = layout_.plot_y0;
  const double h = row * legend_.size() + pad;
  c_.set_color(Color{1, 1, 1, 1});
  cairo_rectangle(c_.cr(), x0, y0, legend_w_, h);
  cairo_fill_preserve(c_.cr());
  c_.set_line(0.6);
  c_.set_color(Color{0.7, 0.7, 0.7, 1});
  cairo_stroke(c_.cr());
  double y = y0 + pad / 2 + row / 2;
  for (const auto& e : legend_) {
    if (e.header) {
      c_.text(e.label, x0 + 0.75 * pad, y, kLegendPt, HAlign::Left, VAlign::Middle, 0, true, kInk);
    } else {
      const double sx = x0 + 0.75 * pad, sw = 22 * pt;
      if (e.line) {
        c_.set_line(1.8, e.dashed);
        c_.set_color(e.color);
        c_.line(sx, y, sx + sw, y);
        c_.set_line(1);
      }
      if (e.marker) c_.draw_marker(*e.marker, sx + sw / 2, y, 7.5, e.color, e.hollow ? e.color : Color{1, 1, 1, 1}, !e.hollow);
      c_.text(e.label, sx + sw + 0.6 * pad, y, kLegendPt, HAlign::Left, VAlign::Middle, 0, false, kInk);
    }
    y += row;
  }
}

void draw_series(Canvas& c, const Frame& f, const Series& s, const Color& color, Marker m, double dx_px) {
  cairo_t* cr = c.cr();
  auto X = [&](size_t i) { return f.px(s.x[i]) + dx_px; };
  const size_t n = s.x.size();
  // The points in pixels, once: the line and the markers are thinned there (thin.h).
  std::vector<double> xs(n), ys(n);
  for (size_t i = 0; i < n; ++i) {
    xs[i] = X(i);
    ys[i] = std::isfinite(s.y[i]) ? f.py(s.y[i]) : s.y[i];
  }
  if (s.line && n > 1) {
    c.set_line(1.8, s.dashed);
    c.set_color(color);
    stroke_line(cr, xs, ys, s.label.empty() ? "the series" : "series '" + s.label + "'");
  }
  if (!s.sd.empty()) {
    // Error bars: mean ± SD with caps, in the series colour, under the markers.
    c.set_line(1.2);
    c.set_color(color);
    const double cap = 4 * c.pt();
    for (size_t i = 0; i < n; ++i) {
      if (!(s.sd[i] > 0) || !std::isfinite(s.y[i])) continue;
      double lo = s.y[i] - s.sd[i], hi = s.y[i] + s.sd[i];
      if (f.layout().y.scale() == Scale::Log10 && lo <= 0) lo = f.layout().y.lo();
      const double x = X(i);
      c.line(x, f.py(lo), x, f.py(hi));
      c.line(x - cap, f.py(lo), x + cap, f.py(lo));
      c.line(x - cap, f.py(hi), x + cap, f.py(hi));
    }
  }
  if (s.markers) {
    const std::vector<char> first = first_on_pixel(xs, ys);
    for (size_t i = 0; i < n; ++i)
      if (first[i]) {
        if (s.hollow_at(i))
          c.draw_marker(m, xs[i], ys[i], 8, Color{1, 1, 1, 1}, color, false);
        else
          c.draw_marker(m, xs[i], ys[i], 8, color, Color{1, 1, 1, 1});
      }
  }
  // Point labels up (or down) and to the right, or to the left where the plot area ends.
  const double dy = s.labels_below ? 5 * c.pt() + c.text_height(8.5) * 0.8 : -5 * c.pt();
  for (size_t i = 0; i < s.point_labels.size() && i < n; ++i) {
    if (s.point_labels[i].empty() || !std::isfinite(s.y[i])) continue;
    const double w = c.text_width(s.point_labels[i], 8.5);
    const bool left = X(i) + 6 * c.pt() + w > f.layout().plot_x1;
    c.text(s.point_labels[i], left ? X(i) - 6 * c.pt() - w : X(i) + 6 * c.pt(), f.py(s.y[i]) + dy,
           8.5, HAlign::Left, VAlign::Baseline, 0, false, Color{0.25, 0.25, 0.25, 1});
  }
}

void validate_series(const std::vector<Series>& series, Scale xscale, Scale yscale) {
  if (series.empty()) throw std::invalid_argument("nothing to draw: give at least one series");
  for (size_t k = 0; k < series.size(); ++k) {
    const auto& s = series[k];
    const std::string name =
        "series " + std::to_string(k + 1) + (s.label.empty() ? "" : " ('" + s.label + "')");
    if (s.x.size() != s.y.size())
      throw std::invalid_argument(name + " has " + std::to_string(s.x.size()) + " x values and " +
                                  std::to_string(s.y.size()) + " y values: give one y per x");
    if (s.hollow.size() > 1 && s.hollow.size() != s.y.size())
      throw std::invalid_argument(name + " has " + std::to_string(s.hollow.size()) + " hollow flags for " +
                                  std::to_string(s.y.size()) + " points: give one per point, or one for all");
    if (!s.sd.empty() && s.sd.size() != s.y.size())
      throw std::invalid_argument(name + " has " + std::to_string(s.sd.size()) + " sd values for " +
                                  std::to_string(s.y.size()) + " points: give one sd per point");
    // One rule for every chart (issue 35 item 10; the roofline's too): a value that is not a
    // finite number is refused, naming it; a frame's rows:plot leaves its NaN rows out as missing.
    auto not_finite = [&](const char* what, size_t i, double v) {
      return std::invalid_argument(
          fmt::format("{}: {}[{}] is {}, not a finite number: drop the point or fix "
                      "its value",
                      name, what, i + 1, v != v ? "NaN" : (v > 0 ? "inf" : "-inf")));
    };
    for (size_t i = 0; i < s.x.size(); ++i) {
      if (!std::isfinite(s.x[i])) throw not_finite("x", i, s.x[i]);
      if (!std::isfinite(s.y[i])) throw not_finite("y", i, s.y[i]);
      if (!s.sd.empty() && !std::isfinite(s.sd[i])) throw not_finite("sd", i, s.sd[i]);
      if (xscale == Scale::Log10 && s.x[i] <= 0)
        throw std::invalid_argument(name + ": x[" + std::to_string(i + 1) + "] = " + si_label(s.x[i]) +
                                    " cannot be shown on a log axis: use a linear x axis or drop it");
      if (yscale == Scale::Log10 && std::isfinite(s.y[i]) && s.y[i] <= 0)
        throw std::invalid_argument(name + ": y[" + std::to_string(i + 1) + "] = " + si_label(s.y[i]) +
                                    " cannot be shown on a log axis: use a linear y axis or drop it");
    }
  }
}

Layout line_chart(const ChartSpec& spec, const std::vector<Series>& series, const std::string& path) {
  validate_series(series, spec.xscale, spec.yscale);
  Canvas c(path, spec.width, spec.height, spec.dpi);
  std::vector<double> xs, ys;
  for (const auto& s : series)
    for (size_t i = 0; i < s.x.size(); ++i) {
      xs.push_back(s.x[i]);
      ys.push_back(s.y[i]);
      if (!s.sd.empty()) { ys.push_back(s.y[i] + s.sd[i]); ys.push_back(s.y[i] - s.sd[i]); }
    }
  Axis x = make_axis(spec.xscale, xs, spec.xmin, spec.xmax, 0.03);
  // Explicit ticks on a log axis (batch sizes): the range hugs them instead of whole decades.
  if (spec.xscale == Scale::Log10 && !spec.xticks.empty() && !spec.xmin && !spec.xmax) {
    const double lo = *std::min_element(spec.xticks.begin(), spec.xticks.end());
    const double hi = *std::max_element(spec.xticks.begin(), spec.xticks.end());
    if (lo > 0 && hi > lo) {
      const double f = std::pow(hi / lo, 0.1);
      x = Axis(Scale::Log10, lo / f, hi * f);
    }
  }
  Axis y = make_axis(spec.yscale, ys, spec.ymin, spec.ymax, 0.05);
  std::vector<LegendEntry> legend;
  for (size_t k = 0; k < series.size(); ++k) {
    const auto& s = series[k];
    if (s.label.empty()) continue;
    const bool hollow = !s.hollow.empty() && std::all_of(s.hollow.begin(), s.hollow.end(), [](bool b) { return b; });
    legend.push_back({s.label, s.color.value_or(palette(k)),
                      s.markers ? std::optional<Marker>(s.marker.value_or(marker(k))) : std::nullopt, s.line,
                      s.dashed, hollow, false});
  }
  Frame f(c, spec, x, y, legend);
  f.begin_data();
  for (size_t k = 0; k < series.size(); ++k)
    draw_series(c, f, series[k], series[k].color.value_or(palette(k)), series[k].marker.value_or(marker(k)));
  f.end_data();
  f.finish();
  c.finish();
  Layout L = f.layout();
  L.path = path;
  return L;
}

}  // namespace rlx::plot
