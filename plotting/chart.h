// chart.h: the frame every rlx chart shares (title, axes with ticks and labels, grid, legend,
// clipping to the plot area) and a generic line/scatter chart with optional error bars.
//
// A chart is drawn in three steps: compute data ranges, lay out the frame (margins sized from the
// measured tick labels, legend to the right of the plot area so it never hides data), then draw
// data clipped to the plot area. Every chart returns its Layout, whose axes map data to pixels
// exactly as drawn; tests use it to sample pixels where something must be.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "axis.h"
#include "canvas.h"

namespace rlx::plot {

// Figure-wide options shared by every chart.
struct ChartSpec {
  int width = 1200, height = 800;  // pixels (PNG); SVG/PDF get the same layout at width/dpi inches
  double dpi = 150;
  std::string title, subtitle, xlabel, ylabel;
  Scale xscale = Scale::Linear, yscale = Scale::Linear;
  std::optional<double> xmin, xmax, ymin, ymax;  // override the automatic range
  std::vector<double> xticks, yticks;            // override the automatic ticks
  bool grid = true;
  bool legend = true;
  size_t subtitle_lines = 4;  // wrapped onto at most this many lines, the last cut with "…"
};

struct LegendEntry {
  std::string label;
  Color color{0.2, 0.2, 0.2, 1};
  std::optional<Marker> marker;  // none: line sample only
  bool line = false, dashed = false, hollow = false;
  bool header = false;  // a bold group title ("model", "precision")
};

struct Layout {
  std::string path;
  Format format = Format::Png;
  int width = 0, height = 0;
  double plot_x0 = 0, plot_y0 = 0, plot_x1 = 0, plot_y1 = 0;  // plot area, pixels (y0 top)
  Axis x, y;
};

// One data series of a line/scatter/throughput chart.
struct Series {
  std::string label;
  std::vector<double> x, y;
  std::vector<double> sd;                 // empty, or one ± value per point (error bars)
  std::vector<std::string> point_labels;  // empty, or one text per point
  std::optional<Color> color;
  std::optional<Marker> marker;
  bool line = true, markers = true, dashed = false;
  // Markers drawn hollow (an estimate beside measured points, issue 55): one flag per point, or one
  // for every point (a legend-only series, which has none); empty: all filled. The legend's sample
  // is hollow when every flag is set.
  std::vector<bool> hollow;
  bool labels_below = false;  // point labels under their points (a line's tag close above another's)
  bool hollow_at(size_t i) const { return hollow.size() == 1 ? hollow[0] : (i < hollow.size() && hollow[i]); }
};

// A title or subtitle laid out to fit `room` pixels: one line at the nominal size when it fits,
// else one line made smaller, down to 3/4 of the nominal size, else lines wrapped at spaces at that
// size (after a "; " when that keeps half the line: a subtitle is a list of phrases; a word wider
// than a line is broken between characters), at most max_lines, the last cut with "…" when the
// text is longer still. A 400-character title squeezed onto one line was unreadable.
struct Heading {
  double size_pt = 0;
  std::vector<std::string> lines;
};
Heading fit_heading(Canvas& c, const std::string& text, double size_pt, bool bold, double room,
                    size_t max_lines = 3);

// Lays out and draws the frame around a plot area. Usage: construct (computes the layout), draw
// data between begin_data() and end_data() (clipped to the plot area), then finish().
class Frame {
 public:
  Frame(Canvas& c, const ChartSpec& spec, Axis x, Axis y, std::vector<LegendEntry> legend);
  const Layout& layout() const { return layout_; }
  double px(double x) const { return layout_.x.to_px(x); }
  double py(double y) const { return layout_.y.to_px(y); }
  void begin_data();
  void end_data();
  void finish();  // axes, ticks, labels, legend, title

 private:
  void draw_legend();
  // Draws h's lines from y down; returns the y below them.
  double draw_heading(const Heading& h, double y, bool bold, const Color& color);
  Canvas& c_;
  ChartSpec spec_;
  std::vector<LegendEntry> legend_;
  Layout layout_;
  double legend_w_ = 0;
  Heading title_, subtitle_;
};

// Data range of the given values on a scale (log ignores values <= 0), padded by `pad` of the
// span (linear) or a factor (log), then widened to nice bounds, with spec overrides applied.
Axis make_axis(Scale scale, std::vector<double> values, std::optional<double> lo_override,
               std::optional<double> hi_override, double pad_fraction = 0.05, bool include_zero = false);

// Draws one series (line, error bars, markers, point labels) in the frame's clip.
// dx_px shifts the whole series sideways (dodging overlapping error bars).
void draw_series(Canvas& c, const Frame& f, const Series& s, const Color& color, Marker m, double dx_px = 0);

// Generic line or scatter chart (a series with line=false is a scatter); writes `path`.
Layout line_chart(const ChartSpec& spec, const std::vector<Series>& series, const std::string& path);

// Checks a series: equal lengths, finite values, positive values on log axes. Throws naming the
// series (by label or index) and the fix.
void validate_series(const std::vector<Series>& series, Scale xscale, Scale yscale);

}  // namespace rlx::plot
