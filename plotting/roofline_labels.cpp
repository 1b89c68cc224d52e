// roofline_labels.cpp: where the roofline chart's labels go (roofline_draw.h). Every drawn line,
// marker and earlier label is an obstacle with a weight (label_obstacles.h); each label takes the
// first free one of its candidate places, else the cheapest.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "roofline_draw.h"

namespace rlx::plot::roofline_parts {

namespace {

// A label's text height at size 9 (as placed; a little under the full line height) and its gap.
double text_h(const Draw& d) {
  return d.c.text_height(9) * 0.85;
}

// A ceiling's label with its value, in lines that fit `room` pixels: one line at 9 pt; else the
// label's last parenthetical on a line of its own ("GEMM FP32 on OpenBLAS Haswell kernels: 213
// GFLOP/s" over "(reference: training points exceed it)"), made smaller down to 3/4 if need be;
// else fit_heading's wrapping onto up to three lines. Issue 55: a GEMM named with its BLAS ran off
// the frame's left edge.
Heading ceiling_lines(Canvas& c, const ComputeCeiling& cl, double room) {
  const std::string value = ": " + num3(cl.gflops) + " GFLOP/s", one = cl.label + value;
  if (c.text_width(one, 9) <= room) return {9, {one}};
  const size_t open = cl.label.rfind(" (");
  if (open == std::string::npos || open == 0 || cl.label.back() != ')') return fit_heading(c, one, 9, false, room, 3);
  Heading h{9, {cl.label.substr(0, open) + value, cl.label.substr(open + 1)}};
  auto widest = [&](double size) {
    return std::max(c.text_width(h.lines[0], size), c.text_width(h.lines[1], size));
  };
  // Hinted glyph advances do not shrink in proportion to the size: measure again after scaling.
  for (int attempt = 0; attempt < 6 && widest(h.size_pt) > room && h.size_pt > 6.75; ++attempt)
    h.size_pt = std::max(6.75, h.size_pt * 0.98 * room / widest(h.size_pt));
  return widest(h.size_pt) <= room ? h : fit_heading(c, one, 9, false, room, 3);
}

}  // namespace

namespace {

struct RidgePlace {
  Box b;
  bool vertical = false;
};

// Where ridge label `s` of ridge `k` goes: right or left of the drop line, from the bottom or from
// just under the diamond, the first that covers nothing (issue 34: points at the ridge sat under
// its label), else the least; vertical places first, then horizontal ones along the bottom. Of the
// places inside the plot that cover no point and no earlier ridge's label, the one crossing the
// fewest lines (the first on a tie): the L3 ridge's label once ran through the DRAM roof where the
// other side of its drop line was clear. Nothing when every place is taken.
std::optional<RidgePlace> ridge_place(Draw& d, size_t k, const std::string& s, const std::vector<Box>& taken) {
  const Layout& L = d.L;
  const double pt = d.pt, th = text_h(d);
  const double ra = d.ridges[k].ai, w = d.c.text_width(s, 8.5);
  const double xr = d.f.px(ra) + 2 * pt, xl = d.f.px(ra) - 3 * pt - th, top = d.f.py(d.ridges[k].gflops) + 8 * pt;
  const double yb = L.plot_y1 - 5 * pt, above = d.f.py(d.ridges[k].gflops) - 8 * pt;
  const RidgePlace cand[] = {{{xr, yb - w, xr + pt + th, yb}, true},
                             {{xl, yb - w, xl + pt + th, yb}, true},
                             {{xr, top, xr + pt + th, top + w}, true},
                             {{xl, top, xl + pt + th, top + w}, true},
                             {{xr, above - w, xr + pt + th, above}, true},  // above the diamond, in the headroom
                             {{xl, above - w, xl + pt + th, above}, true},
                             {{xr + 2 * pt, yb - th, xr + 2 * pt + w, yb}, false},
                             {{xl - w, yb - th, xl, yb}, false}};
  std::optional<RidgePlace> pick;
  int pick_cost = 0;
  for (const auto& c : cand) {
    // Inside the plot: a label past its left edge was cut off by the frame (an FP32 ridge at 9
    // FLOP/B beside a BF16 one at 16.7, on a 2-core Zen 5); the first may reach right, into the margin.
    bool clash = (k > 0 && c.b.x1 > L.plot_x1) || c.b.y0 < L.plot_y0 || c.b.x0 < L.plot_x0 || c.b.y1 > L.plot_y1;
    for (const auto& o : taken) clash = clash || c.b.hits(o);
    for (const auto& o : d.point_boxes) clash = clash || c.b.hits(o);
    if (clash) continue;
    const int cost = d.obs.cost(c.b);
    if (!pick || cost < pick_cost) {
      pick = c;
      pick_cost = cost;
    }
  }
  return pick;
}

}  // namespace

// Ridge labels, vertical beside their drop lines near the bottom; the slowest level's first. A
// label with no free place is said shorter, by its value alone (its drop line meets the ceiling
// it belongs to), and left out where that has none either (its diamond and drop line still mark
// it); the first ridge's label is always drawn.
void label_ridges(Draw& d) {
  std::vector<Box> ridge_labels;
  for (size_t k = 0; k < d.ridges.size(); ++k) {
    const std::string value = num3(d.ridges[k].ai) + " FLOP/B";
    std::string s = d.ridges[k].label + value;
    auto place = ridge_place(d, k, s, ridge_labels);
    if (!place) {
      s = "ridge " + value;
      place = ridge_place(d, k, s, ridge_labels);
    }
    if (!place) {
      if (k > 0) continue;
      s = d.ridges[k].label + value;
      const double pt = d.pt, xr = d.f.px(d.ridges[k].ai) + 2 * pt, yb = d.L.plot_y1 - 5 * pt;
      place = RidgePlace{{xr, yb - d.c.text_width(s, 8.5), xr + pt + text_h(d), yb}, true};
    }
    const Box b = place->b;
    ridge_labels.push_back(b);
    d.obs.add(b, kTextWeight);
    if (place->vertical)
      d.c.haloed_text(s, b.x0 + d.pt, b.y1, 8.5, HAlign::Left, VAlign::Top, 90, false, Color{0.3, 0.3, 0.3, 1});
    else
      d.c.haloed_text(s, b.x0, b.y1, 8.5, HAlign::Left, VAlign::Bottom, 0, false, Color{0.3, 0.3, 0.3, 1});
  }
}

// Ceiling labels with their values: right end above the line, else below it, else near the ridge;
// a label wider than the plot area on two lines (ceiling_lines).
void label_ceilings(Draw& d) {
  auto& c = d.c;
  auto& f = d.f;
  auto& obs = d.obs;
  const Layout& L = d.L;
  const double pt = d.pt, gap = 3 * pt, bmax = d.bmax;
  const auto& spec = d.spec;
  for (const auto& cl : spec.ceilings) {
    const Heading h = ceiling_lines(c, cl, L.plot_x1 - L.plot_x0 - 10 * pt);
    double w = 0;
    for (const auto& line : h.lines) w = std::max(w, c.text_width(line, h.size_pt));
    const double lh = c.text_height(h.size_pt) * 0.85, th = lh * static_cast<double>(h.lines.size());
    const double yl = f.py(cl.gflops), xr = L.plot_x1 - 5 * pt, xl = f.px(cl.gflops / bmax) + 8 * pt;
    // Slide from the right end towards the ridge, above the line first, then below it.
    Box best{xr - w, yl - gap - th, xr, yl - gap};
    int best_cost = obs.cost(best);
    for (double side : {-1.0, 1.0}) {
      for (double right = xr; right - w >= std::min(xl, xr - w) - 1e-9 && best_cost > 0; right -= 4 * pt) {
        const Box b = side < 0 ? Box{right - w, yl - gap - th, right, yl - gap}
                               : Box{right - w, yl + gap, right, yl + gap + th};
        const int cst = obs.cost(b);
        if (cst < best_cost) {
          best = b;
          best_cost = cst;
        }
      }
    }
    obs.add(best, kTextWeight);
    for (size_t i = 0; i < h.lines.size(); ++i)
      c.haloed_text(h.lines[i], best.x0, best.y0 + lh * static_cast<double>(i + 1), h.size_pt, HAlign::Left,
                    VAlign::Baseline, 0, false, cl.reference ? kSecondary : kLabel);
  }
}

// Roof labels along their slope, at the first free place going up the roof.
void label_roofs(Draw& d) {
  auto& c = d.c;
  auto& f = d.f;
  auto& obs = d.obs;
  const double pt = d.pt, th = text_h(d), pmax = d.pmax;
  const auto& spec = d.spec;
  const auto& roof_order = d.roof_order;
  const Axis &x = d.x, &y = d.y;
  for (size_t k = 0; k < roof_order.size(); ++k) {
    const auto& rf = spec.roofs[roof_order[k]];
    const std::string s = rf.label + ": " + num3(rf.gbytes_per_s) + " GB/s";
    const double x0 = std::max(x.lo(), y.lo() / rf.gbytes_per_s), x1 = pmax / rf.gbytes_per_s;
    const double ang =
        std::atan2(-(f.py(rf.gbytes_per_s * x1) - f.py(rf.gbytes_per_s * x0)), f.px(x1) - f.px(x0));
    const double w = c.text_width(s, 9), off = 4 * pt;
    double bx = 0, by = 0;
    int best_cost = -1;
    for (double frac : {0.06, 0.2, 0.35, 0.5, 0.65}) {
      for (double side : {1.0, -1.0}) {
        const double ax = std::pow(10.0, std::log10(x0) + frac * (std::log10(x1) - std::log10(x0)));
        double lx = f.px(ax) - std::sin(ang) * off * side,
               ly = f.py(rf.gbytes_per_s * ax) - std::cos(ang) * off * side;
        if (side < 0) {
          lx += std::sin(ang) * th;
          ly += std::cos(ang) * th;
        }  // below: shift by the text height
        const int cst = obs.cost(obs.rotated(lx, ly, ang, w, th));
        if (best_cost < 0 || cst < best_cost) {
          bx = lx;
          by = ly;
          best_cost = cst;
        }
        if (best_cost == 0) break;
      }
      if (best_cost == 0) break;
    }
    for (const auto& b : obs.rotated(bx, by, ang, w, th)) obs.add(b, kTextWeight);
    c.haloed_text(s, bx, by, 9, HAlign::Left, VAlign::Baseline, ang * 180 / M_PI, false, kLabel);
  }
}

namespace {

// Where point i sits on the canvas.
struct PointAt {
  size_t i;
  double px, py;
};

// A place nearer another point than its own reads as that point's label (issue 45: ResNet-50's
// "bs16" sat beside its batch-32 point), so it costs as much as covering a marker.
int ambiguity_cost(const Draw& d, const PointAt& at, const Box& b) {
  auto dist = [&](double x, double y) {
    return std::hypot(std::clamp(x, b.x0, b.x1) - x, std::clamp(y, b.y0, b.y1) - y);
  };
  const double own = dist(at.px, at.py);
  for (size_t j = 0; j < d.spec.points.size(); ++j) {
    if (j != at.i && dist(d.f.px(d.spec.points[j].ai), d.f.py(d.spec.points[j].gflops)) < own - 0.5 * d.pt)
      return kMarkerWeight;
  }
  return 0;
}

// A far label's leader line must not run through text or a marker either (MobileNetV2's leaders
// once crossed the DRAM ridge label): the heaviest such obstacle it meets.
int leader_cost(const Draw& d, const PointAt& at, const Box& b) {
  const double px = at.px, py = at.py, pt = d.pt;
  const double nx = std::clamp(px, b.x0, b.x1), ny = std::clamp(py, b.y0, b.y1);
  const double len = std::hypot(nx - px, ny - py);
  int worst = 0;
  for (double t = d.r + 2 * pt; t < len; t += 2 * pt) {
    const double x = px + (nx - px) * t / len, y = py + (ny - py) * t / len;
    const Box dot{x - 0.5 * pt, y - 0.5 * pt, x + 0.5 * pt, y + 0.5 * pt};
    for (size_t k = 0; k < d.obs.boxes.size(); ++k)
      if (d.obs.weights[k] >= kMarkerWeight && dot.hits(d.obs.boxes[k])) worst = std::max(worst, d.obs.weights[k]);
  }
  return worst;
}

struct Placed {
  Box box{};
  bool far = false;  // away from the point: drawn with a leader line
};

// The first free one of eight positions around the point, then of rings further out; where none
// is free, the position that covers least.
Placed place_point_label(const Draw& d, const PointAt& at, double w, double h) {
  const double px = at.px, py = at.py, pt = d.pt, r = d.r;
  Placed best;
  int best_cost = -1;
  for (double g : {1.5 * pt, 9 * pt, 18 * pt, 28 * pt, 40 * pt, 52 * pt}) {
    const double cand[][2] = {{px + r + g, py - r - h / 2},     {px + r + g, py + r - h / 2},
                              {px - r - g - w, py - r - h / 2}, {px - r - g - w, py + r - h / 2},
                              {px - w / 2, py - r - g - h},     {px - w / 2, py + r + g},
                              {px + r + g, py - h / 2},         {px - r - g - w, py - h / 2}};
    for (const auto& cd : cand) {
      const Box b{cd[0], cd[1], cd[0] + w, cd[1] + h};
      int cst = d.obs.cost(b) + ambiguity_cost(d, at, b);
      // The leader is sampled only for a place that could still win (it walks every obstacle).
      if (g > 2 * pt && (best_cost < 0 || cst < best_cost)) cst += leader_cost(d, at, b);
      if (best_cost < 0 || cst < best_cost) {
        best = {b, g > 2 * pt};
        best_cost = cst;
      }
      if (best_cost == 0) break;
    }
    if (best_cost == 0) break;
  }
  return best;
}

// A thin line from the marker's edge to the nearest point of the label's box.
void draw_leader(Draw& d, const PointAt& at, const Box& b) {
  const double px = at.px, py = at.py;
  const double nx = std::clamp(px, b.x0, b.x1), ny = std::clamp(py, b.y0, b.y1);
  const double len = std::hypot(nx - px, ny - py);
  if (len <= d.r + d.pt) return;
  d.c.set_line(0.6);
  d.c.set_color(Color{0.45, 0.45, 0.45, 1});
  d.c.line(px + (nx - px) * (d.r + 0.5 * d.pt) / len, py + (ny - py) * (d.r + 0.5 * d.pt) / len, nx, ny);
}

}  // namespace

// Point labels (batch size), each placed by place_point_label and then an obstacle for the next.
void label_points(Draw& d) {
  for (size_t i = 0; i < d.spec.points.size(); ++i) {
    const auto& p = d.spec.points[i];
    if (p.label.empty()) continue;
    const PointAt at{i, d.f.px(p.ai), d.f.py(p.gflops)};
    const double w = d.c.text_width(p.label, 8), h = d.c.text_height(8) * 0.8;
    const Placed best = place_point_label(d, at, w, h);
    d.obs.add(best.box, kTextWeight);
    if (best.far) draw_leader(d, at, best.box);
    d.c.haloed_text(p.label, best.box.x0, best.box.y1, 8, HAlign::Left, VAlign::Bottom, 0, false,
                    Color{0.2, 0.2, 0.2, 1});
  }
}

}  // namespace rlx::plot::roofline_parts
