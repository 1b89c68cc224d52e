// charts.h: the study's charts: roofline (log-log, roofs, ceilings, ridge, labelled points),
// throughput vs batch size (mean ± SD error bars), and variability of one configuration across
// environments (box plot with every repeat drawn on top). Each writes one file and returns the
// Layout, whose axes say where any value was drawn.
#pragma once

#include <string>
#include <vector>

#include "chart.h"

namespace rlx::plot {

// ---- roofline ----
struct MemoryRoof {
  std::string label;    // "DRAM", "L2", ...
  double gbytes_per_s;  // decimal GB/s
};
struct ComputeCeiling {
  std::string label;  // "fp32", "bf16", ...
  double gflops;      // decimal GFLOP/s
  // A second, practical ceiling (the GEMM peak under the arithmetic peak): drawn grey and dashed,
  // and given no ridge of its own.
  bool secondary = false;
  // A reference, not a ceiling (a datasheet figure; a GEMM that measured training points exceed,
  // issue 55): bounds nothing, like a secondary one, and drawn lighter and dash-dotted so it does
  // not read as a limit.
  bool reference = false;
};
struct RooflinePoint {
  double ai;              // FLOP/byte
  double gflops;          // attained GFLOP/s
  std::string label;      // text beside the point (batch size)
  std::string color_key;  // points sharing a key share a colour (the model)
  std::string shape_key;  // points sharing a key share a marker (the precision)
  // The point's own roofs (its precision's compute roof, its level's bandwidth), which decide
  // whether it is above its roof; 0: the chart's highest ceiling / memory roof.
  double roof_gflops = 0;
  double roof_gbps = 0;
  // The AI the point may have (an estimate's traffic range, a measurement's spread over repeats):
  // drawn as a horizontal bar through the point when ai_lo < ai_hi; 0: known to one AI.
  double ai_lo = 0;
  double ai_hi = 0;
};
struct RooflineArrow {
  size_t from, to;  // 0-based indices into points
};
struct RooflineSpec {
  ChartSpec chart;  // scales are forced to log10; labels default to AI and GFLOP/s
  std::vector<MemoryRoof> roofs;
  std::vector<ComputeCeiling> ceilings;
  std::vector<RooflinePoint> points;
  std::vector<RooflineArrow> arrows;
  std::string color_title = "model", shape_title = "precision";
};

// The roof over `ai`: min(highest ceiling, highest memory roof x ai), GFLOP/s.
double attainable_gflops(const RooflineSpec& spec, double ai);
// A point above its own roof, min(roof_gflops, roof_gbps x ai) (the chart's highest where the
// point names none), cannot be right (a count or a peak is off); it is drawn hollow and listed in
// the legend as above its roof.
bool above_roof(const RooflineSpec& spec, const RooflinePoint& p);
// AI where the highest memory roof meets the highest ceiling (FLOP/byte).
double ridge_ai(const RooflineSpec& spec);

Layout roofline_chart(const RooflineSpec& spec, const std::string& path);

// ---- throughput vs batch ----
// One series per model and precision: x = batch size, y = mean images/s, sd = SD over repeats.
// The x axis is log2-spaced (log10 scale with ticks at the batch sizes) when batches span a
// factor >= 4, and the y axis starts at zero. Series at the same x are nudged apart by a few
// pixels so their error bars stay readable.
Layout throughput_chart(ChartSpec spec, const std::vector<Series>& series, const std::string& path);

// ---- variability ----
struct Group {
  std::string label;           // environment
  std::vector<double> values;  // one throughput per repeat
};
// Per group every value drawn as a dot, with a box (quartiles, median, whiskers to the furthest
// value within 1.5 IQR) from kMinBox values, else the mean as a bar with a ± 1 SD whisker (a box of
// three points says nothing its dots do not), and n, CV, mean ± SD printed above. spec.yscale may
// be log (groups an order of magnitude apart). relative: each group drawn as the % difference of
// its values from its own median, on a linear axis whose 0 is every group's median (issue 55: a
// CPU's 8-11 % spread was a few pixels beside a GPU 70x faster on one log axis); the annotations
// keep the values' own units and add the median. A group's median must then be positive.
constexpr size_t kMinBox = 5;
Layout variability_chart(ChartSpec spec, const std::vector<Group>& groups, const std::string& path,
                         bool relative = false);

// Quartiles by linear interpolation between order statistics (type 7, as R and NumPy default).
double quantile(std::vector<double> v, double q);

}  // namespace rlx::plot
