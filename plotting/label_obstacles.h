// label_obstacles.h: where a chart's labels may go. Everything drawn (line pieces, markers, earlier
// labels) is a box with a weight; a candidate place for a label costs the weights of the boxes it
// overlaps, and the label takes the cheapest (plotting/roofline.cpp). Kept apart from the drawing
// so the costs can be checked by hand (tests/unit/plotting/test_label_obstacles.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace rlx::plot {

struct Box {
  double x0, y0, x1, y1;
  bool hits(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

// How much covering each kind of obstacle costs a label: text covered by text is unreadable, a
// marker hidden hides a measurement, a line crossed stays legible. A line is many small boxes, so a
// label over another label must cost more than one crossing a few of them (a point label once sat
// on the GEMM ceiling's label because that was one box against several of a dashed line's).
inline constexpr int kLineWeight = 1, kMarkerWeight = 10, kTextWeight = 30;
// A place outside the plot area costs more than any pile of overlaps inside it.
inline constexpr int kOutsideCost = 100000;

// Everything a label must not cover, as small axis-aligned boxes with their weights.
struct Obstacles {
  Box plot;
  std::vector<Box> boxes;
  std::vector<int> weights;
  void add(const Box& b, int weight) {
    boxes.push_back(b);
    weights.push_back(weight);
  }
  void segment(double x0, double y0, double x1, double y1, double half) {
    const double len = std::hypot(x1 - x0, y1 - y0);
    const int n = std::max(1, static_cast<int>(len / half / 2));
    for (int i = 0; i <= n; ++i) {
      const double x = x0 + (x1 - x0) * i / n, y = y0 + (y1 - y0) * i / n;
      add({x - half, y - half, x + half, y + half}, kLineWeight);
    }
  }
  // How much a box collides: leaving the plot area costs most, then each obstacle it overlaps, by
  // its weight.
  int cost(const Box& b) const {
    int c = (b.x0 < plot.x0 || b.x1 > plot.x1 || b.y0 < plot.y0 || b.y1 > plot.y1) ? kOutsideCost : 0;
    for (size_t i = 0; i < boxes.size(); ++i) c += b.hits(boxes[i]) ? weights[i] : 0;
    return c;
  }
  bool free(const Box& b) const { return cost(b) == 0; }
  // A rotated text box (baseline from (x, y) at angle `ang` radians, width w, height h above the
  // baseline) as a chain of squares along its middle.
  std::vector<Box> rotated(double x, double y, double ang, double w, double h) const {
    std::vector<Box> out;
    // u runs along the baseline, n points from the baseline to the top of the glyphs.
    const double ux = std::cos(ang), uy = -std::sin(ang), nx = -std::sin(ang), ny = -std::cos(ang);
    for (double t = h / 2; t < w; t += h / 2) {
      const double cx = x + ux * t + nx * (h / 2), cy = y + uy * t + ny * (h / 2);
      out.push_back({cx - h / 2, cy - h / 2, cx + h / 2, cy + h / 2});
    }
    return out;
  }
  int cost(const std::vector<Box>& bs) const {
    int c = 0;
    for (const auto& b : bs) c += cost(b);
    return c;
  }
};

}  // namespace rlx::plot
