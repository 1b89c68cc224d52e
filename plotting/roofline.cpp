// roofline.cpp: the roofline chart (see charts.h). Log-log axes; one memory roof per level drawn
// up to the highest compute ceiling; one ceiling per precision drawn from the fastest roof to the
// right edge; every ridge marked; points coloured by one key and shaped by another.
//
// Labels are placed so they do not cover data: every drawn line, marker and earlier label is an
// obstacle with a weight (label_obstacles.h), and each label takes the first free one of its
// candidate places, else the cheapest.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "charts.h"
#include "label_obstacles.h"
#include "peaks/roofline.h"

namespace rlx::plot {

namespace {
const Color kRoof{0.13, 0.13, 0.13, 1};
const Color kSecondary{0.5, 0.5, 0.5, 1};
const Color kLabel{0.13, 0.13, 0.13, 1};

std::string num3(double v) {
  char buf[64];
  const double a = std::fabs(v);
  std::snprintf(buf, sizeof buf, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3g", v);
  return buf;
}

std::map<std::string, size_t> first_seen(const std::vector<std::string>& keys,
                                         std::vector<std::string>& order) {
  std::map<std::string, size_t> idx;
  for (const auto& k : keys)
    if (idx.emplace(k, idx.size()).second) order.push_back(k);
  return idx;
}

bool has_range(const RooflinePoint& p) {
  return p.ai_lo > 0 && p.ai_hi > p.ai_lo;
}

// The highest roof: of the primary ceilings (a secondary one, a GEMM under the arithmetic peak or a
// datasheet reference above a measured roof, is drawn but bounds nothing: issue 45's H200 chart ran
// its DRAM roof up to the datasheet's FP16 tensor figure and drew a ridge there), else of all.
double max_ceiling(const RooflineSpec& s) {
  double m = 0, all = 0;
  for (const auto& c : s.ceilings) {
    all = std::max(all, c.gflops);
    if (!c.secondary) m = std::max(m, c.gflops);
  }
  return m > 0 ? m : all;
}
double max_roof(const RooflineSpec& s) {
  double m = 0;
  for (const auto& r : s.roofs) m = std::max(m, r.gbytes_per_s);
  return m;
}

void validate(const RooflineSpec& s) {
  if (s.roofs.empty() || s.ceilings.empty())
    throw std::invalid_argument(
        "needs at least one memory roof (GB/s) and one compute ceiling (GFLOP/s): "
        "pass peak_bw= and peak_flops=, or roofs=/peaks=");
  for (const auto& r : s.roofs)
    if (!(r.gbytes_per_s > 0) || !std::isfinite(r.gbytes_per_s))
      throw std::invalid_argument("memory roof '" + r.label + "' must be a positive GB/s value");
  for (const auto& c : s.ceilings)
    if (!(c.gflops > 0) || !std::isfinite(c.gflops))
      throw std::invalid_argument("compute ceiling '" + c.label + "' must be a positive GFLOP/s value");
  for (size_t i = 0; i < s.points.size(); ++i) {
    const auto& p = s.points[i];
    const std::string name =
        "point " + std::to_string(i + 1) + (p.label.empty() ? "" : " ('" + p.label + "')");
    if (!(p.ai > 0) || !(p.gflops > 0) || !std::isfinite(p.ai) || !std::isfinite(p.gflops))
      throw std::invalid_argument(name + " needs positive finite ai and gflops, got ai " + si_label(p.ai) +
                                  ", gflops " + si_label(p.gflops));
    if ((p.ai_lo != 0 || p.ai_hi != 0) &&
        !(p.ai_lo > 0 && p.ai_hi >= p.ai_lo && std::isfinite(p.ai_hi) && p.ai >= p.ai_lo && p.ai <= p.ai_hi))
      throw std::invalid_argument(name + " needs 0 < ai_lo <= ai <= ai_hi, got ai_lo " + si_label(p.ai_lo) +
                                  ", ai " + si_label(p.ai) + ", ai_hi " + si_label(p.ai_hi));
  }
  for (const auto& a : s.arrows)
    if (a.from >= s.points.size() || a.to >= s.points.size())
      throw std::invalid_argument("an arrow refers to point " + std::to_string(std::max(a.from, a.to) + 1) +
                                  " but there are " + std::to_string(s.points.size()) + " points");
}

struct Ridge {
  double ai, gflops;
  std::string label;  // "DRAM ridge ", "FP32 FMA ridge ", "ridge "
};

// A roof's name without its parenthetical ("L2 (noisy, 28 %)" -> "L2"): the roof's own label says
// it, and the ridge label beside the drop line has little room (the L1-L3 ridges crowd one decade).
std::string bare_name(const std::string& label) {
  const size_t open = label.find(" (");
  if (open == std::string::npos || label.back() != ')') return label;
  return label.substr(0, open);
}

// The ridges drawn, in label order: each memory roof (slowest first) with the highest ceiling,
// then the slowest roof with every lower primary ceiling, highest first.
std::vector<Ridge> ridges_of(const RooflineSpec& s, const std::vector<size_t>& roof_order) {
  const double pmax = max_ceiling(s);
  std::vector<const ComputeCeiling*> lower;
  for (const auto& cl : s.ceilings) {
    if (!cl.secondary && cl.gflops < pmax) lower.push_back(&cl);
  }
  std::sort(lower.begin(), lower.end(), [](auto* a, auto* b) { return a->gflops > b->gflops; });
  std::string top;
  for (const auto& cl : s.ceilings) {
    if (cl.gflops == pmax && top.empty()) top = cl.label;
  }
  std::vector<Ridge> out;
  for (size_t k : roof_order) {
    const auto& r = s.roofs[k];
    std::string label = s.roofs.size() > 1 ? bare_name(r.label) + " " : "";
    if (!lower.empty()) label += top + " ";
    out.push_back({peaks::ridge_ai(pmax, r.gbytes_per_s), pmax, label + "ridge "});
  }
  const auto& slowest = s.roofs[roof_order.front()];
  for (const auto* cl : lower) {
    out.push_back({peaks::ridge_ai(cl->gflops, slowest.gbytes_per_s), cl->gflops,
                   (s.roofs.size() > 1 ? bare_name(slowest.label) + " " : "") + cl->label + " ridge "});
  }
  return out;
}

void arrow(Canvas& c, double x0, double y0, double x1, double y1, double shorten) {
  const double dx = x1 - x0, dy = y1 - y0, len = std::hypot(dx, dy);
  if (len <= 2 * shorten + 1) return;
  const double ux = dx / len, uy = dy / len;
  x0 += ux * shorten;
  y0 += uy * shorten;
  x1 -= ux * shorten;
  y1 -= uy * shorten;
  c.line(x0, y0, x1, y1);
  const double h = std::min(7 * c.pt(), len / 2), w = 3 * c.pt();
  cairo_t* cr = c.cr();
  cairo_move_to(cr, x1, y1);
  cairo_line_to(cr, x1 - ux * h - uy * w, y1 - uy * h + ux * w);
  cairo_line_to(cr, x1 - ux * h + uy * w, y1 - uy * h - ux * w);
  cairo_close_path(cr);
  cairo_fill(cr);
}
}  // namespace

// The arithmetic is engine/peaks/roofline's (one owner); GFLOP/s and GB/s scale both roofs alike.
double attainable_gflops(const RooflineSpec& s, double ai) {
  return peaks::attainable_flops(ai, max_ceiling(s), max_roof(s));
}
bool above_roof(const RooflineSpec& s, const RooflinePoint& p) {
  const double ceiling = p.roof_gflops > 0 ? p.roof_gflops : max_ceiling(s);
  const double bw = p.roof_gbps > 0 ? p.roof_gbps : max_roof(s);
  return peaks::above_roof_by(p.gflops, peaks::attainable_flops(p.ai, ceiling, bw));
}
double ridge_ai(const RooflineSpec& s) {
  return peaks::ridge_ai(max_ceiling(s), max_roof(s));
}

Layout roofline_chart(const RooflineSpec& spec_in, const std::string& path) {
  validate(spec_in);
  RooflineSpec spec = spec_in;
  ChartSpec& cs = spec.chart;
  cs.xscale = cs.yscale = Scale::Log10;
  if (cs.xlabel.empty()) cs.xlabel = "Arithmetic intensity (FLOP/byte)";
  if (cs.ylabel.empty()) cs.ylabel = "Attained performance (GFLOP/s)";
  const double pmax = max_ceiling(spec), bmax = max_roof(spec), ridge = peaks::ridge_ai(pmax, bmax);

  // Ranges: every point, every ridge, every ceiling, with room for the labels.
  double pmin = pmax, bmin = bmax;
  for (const auto& c : spec.ceilings) pmin = std::min(pmin, c.gflops);
  for (const auto& r : spec.roofs) bmin = std::min(bmin, r.gbytes_per_s);
  std::vector<double> xs{ridge / 4, pmax / bmin * 8}, ys{pmax * 1.8, pmin / 8};
  for (const auto& cl : spec.ceilings) {
    xs.push_back(cl.gflops / bmin / 2);  // every ridge on the slowest roof
    ys.push_back(cl.gflops * 1.8);       // every ceiling's label, a reference above the roof's too
  }
  for (const auto& p : spec.points) {
    xs.push_back((has_range(p) ? p.ai_lo : p.ai) / 2);
    xs.push_back((has_range(p) ? p.ai_hi : p.ai) * 2);
    ys.push_back(p.gflops / 2);
    ys.push_back(p.gflops * 2);
  }
  Axis x = snapped_log_axis(xs, cs.xmin, cs.xmax);
  Axis y = snapped_log_axis(ys, cs.ymin, cs.ymax);

  std::vector<std::string> ckeys, skeys, corder, sorder;
  for (const auto& p : spec.points) {
    ckeys.push_back(p.color_key);
    skeys.push_back(p.shape_key);
  }
  auto cidx = first_seen(ckeys, corder);
  auto sidx = first_seen(skeys, sorder);
  bool any_above = false;
  for (const auto& p : spec.points) any_above = any_above || above_roof(spec, p);

  std::vector<LegendEntry> legend;
  if (!corder.empty() && !(corder.size() == 1 && corder[0].empty())) {
    if (!spec.color_title.empty()) legend.push_back({spec.color_title, {}, {}, false, false, false, true});
    for (size_t i = 0; i < corder.size(); ++i) legend.push_back({corder[i], palette(i), Marker::Circle});
  }
  if (!sorder.empty() && !(sorder.size() == 1 && sorder[0].empty())) {
    if (!spec.shape_title.empty()) legend.push_back({spec.shape_title, {}, {}, false, false, false, true});
    for (size_t i = 0; i < sorder.size(); ++i)
      legend.push_back({sorder[i], Color{0.45, 0.45, 0.45, 1}, marker(i)});
  }
  if (any_above)
    legend.push_back({"above its roof", Color{0.45, 0.45, 0.45, 1}, Marker::Circle, false, false, true});
  if (!spec.arrows.empty())
    legend.push_back({"fp32 \xE2\x86\x92 other precision", Color{0.4, 0.4, 0.4, 1}, std::nullopt, true});

  Canvas c(path, cs.width, cs.height, cs.dpi);
  Frame f(c, cs, x, y, legend);
  const Layout& L = f.layout();
  const double pt = c.pt();
  Obstacles obs{{L.plot_x0, L.plot_y0, L.plot_x1, L.plot_y1}, {}, {}};
  f.begin_data();

  // Memory roofs, slowest (DRAM) solid and faster levels dashed, from the left edge to the
  // highest ceiling.
  std::vector<size_t> roof_order(spec.roofs.size());
  for (size_t i = 0; i < roof_order.size(); ++i) roof_order[i] = i;
  std::sort(roof_order.begin(), roof_order.end(),
            [&](size_t a, size_t b) { return spec.roofs[a].gbytes_per_s < spec.roofs[b].gbytes_per_s; });
  for (size_t k = 0; k < roof_order.size(); ++k) {
    const auto& r = spec.roofs[roof_order[k]];
    const double x0 = std::max(x.lo(), y.lo() / r.gbytes_per_s), xe = peaks::ridge_ai(pmax, r.gbytes_per_s);
    c.set_color(kRoof);
    c.set_line(2.0, k > 0);
    c.line(f.px(x.lo()), f.py(r.gbytes_per_s * x.lo()), f.px(xe), f.py(pmax));
    obs.segment(f.px(x0), f.py(r.gbytes_per_s * x0), f.px(xe), f.py(pmax), 2 * pt);
  }
  // Compute ceilings, highest solid and lower precisions dashed, from the fastest roof rightwards.
  std::vector<size_t> ceil_order(spec.ceilings.size());
  for (size_t i = 0; i < ceil_order.size(); ++i) ceil_order[i] = i;
  std::sort(ceil_order.begin(), ceil_order.end(),
            [&](size_t a, size_t b) { return spec.ceilings[a].gflops > spec.ceilings[b].gflops; });
  for (size_t k = 0; k < ceil_order.size(); ++k) {
    const auto& cl = spec.ceilings[ceil_order[k]];
    c.set_color(cl.secondary ? kSecondary : kRoof);
    c.set_line(cl.secondary ? 1.5 : 2.0, cl.gflops < pmax || cl.secondary);
    c.line(f.px(cl.gflops / bmax), f.py(cl.gflops), L.plot_x1, f.py(cl.gflops));
    obs.segment(f.px(cl.gflops / bmax), f.py(cl.gflops), L.plot_x1, f.py(cl.gflops), 2 * pt);
  }
  // Ridges: dotted drop line and open diamond where each memory roof meets the highest ceiling,
  // and where the slowest memory roof meets each lower primary ceiling (the ridge a point of that
  // precision is judged by).
  const std::vector<Ridge> ridges = ridges_of(spec, roof_order);
  for (const auto& rd : ridges) {
    c.set_color(Color{0.35, 0.35, 0.35, 1});
    c.set_line(1.1, false, true);
    c.line(f.px(rd.ai), f.py(rd.gflops), f.px(rd.ai), L.plot_y1);
    c.draw_marker(Marker::Diamond, f.px(rd.ai), f.py(rd.gflops), 7, Color{1, 1, 1, 1}, kRoof, false);
    obs.add({f.px(rd.ai) - 5 * pt, f.py(rd.gflops) - 5 * pt, f.px(rd.ai) + 5 * pt, f.py(rd.gflops) + 5 * pt},
            kMarkerWeight);
    obs.add({f.px(rd.ai) - 1, f.py(rd.gflops) + 5 * pt, f.px(rd.ai) + 1, L.plot_y1}, kLineWeight);
  }
  // Arrows under the points.
  c.set_color(Color{0.4, 0.4, 0.4, 1});
  c.set_line(1.2);
  for (const auto& a : spec.arrows) {
    const auto &p = spec.points[a.from], &q = spec.points[a.to];
    arrow(c, f.px(p.ai), f.py(p.gflops), f.px(q.ai), f.py(q.gflops), 6 * pt);
    obs.segment(f.px(p.ai), f.py(p.gflops), f.px(q.ai), f.py(q.gflops), 1.5 * pt);
  }
  // AI ranges under the points: a bar from the lowest to the highest AI the point may have, with
  // end caps, in the point's colour.
  const double r = 5.5 * pt;
  for (const auto& p : spec.points) {
    if (!has_range(p)) continue;
    const double x0 = f.px(p.ai_lo), x1 = f.px(p.ai_hi), py = f.py(p.gflops);
    c.set_color(palette(cidx[p.color_key]));
    c.set_line(1.6);
    c.line(x0, py, x1, py);
    c.line(x0, py - 0.6 * r, x0, py + 0.6 * r);
    c.line(x1, py - 0.6 * r, x1, py + 0.6 * r);
    obs.add({x0, py - 0.6 * r, x1, py + 0.6 * r}, kMarkerWeight);
  }
  // Points: filled and edged in white; above the roof hollow with a thick coloured edge.
  std::vector<Box> point_boxes;
  for (const auto& p : spec.points) {
    const Color col = palette(cidx[p.color_key]);
    const Marker m = marker(sidx[p.shape_key]);
    const double px = f.px(p.ai), py = f.py(p.gflops);
    if (above_roof(spec, p))
      c.draw_marker(m, px, py, 9, col, col, false);
    else
      c.draw_marker(m, px, py, 9, col, Color{1, 1, 1, 1}, true);
    obs.add({px - r, py - r, px + r, py + r}, kMarkerWeight);
    point_boxes.push_back({px - r, py - r, px + r, py + r});
  }

  const double th = c.text_height(9) * 0.85, gap = 3 * pt;
  std::vector<Box> ridge_labels;
  // Ridge labels, vertical beside their drop lines near the bottom; the slowest level's first, and
  // a label that would overlap another is left out (its diamond and drop line still mark it).
  for (size_t k = 0; k < ridges.size(); ++k) {
    const double ra = ridges[k].ai;
    const std::string s = ridges[k].label + num3(ra) + " FLOP/B";
    const double w = c.text_width(s, 8.5);
    // Right or left of the drop line, from the bottom or from just under the diamond: the first
    // that covers nothing (issue 34: points at the ridge sat under its label), else the least.
    // Vertical candidates first, then horizontal ones along the bottom.
    const double xr = f.px(ra) + 2 * pt, xl = f.px(ra) - 3 * pt - th, top = f.py(ridges[k].gflops) + 8 * pt;
    const double yb = L.plot_y1 - 5 * pt, above = f.py(ridges[k].gflops) - 8 * pt;
    const struct {
      Box b;
      bool vertical;
    } cand[] = {{{xr, yb - w, xr + pt + th, yb}, true},
                {{xl, yb - w, xl + pt + th, yb}, true},
                {{xr, top, xr + pt + th, top + w}, true},
                {{xl, top, xl + pt + th, top + w}, true},
                {{xr, above - w, xr + pt + th, above}, true},  // above the diamond, in the headroom
                {{xl, above - w, xl + pt + th, above}, true},
                {{xr + 2 * pt, yb - th, xr + 2 * pt + w, yb}, false},
                {{xl - w, yb - th, xl, yb}, false}};
    // Of the places that cover no point and no earlier ridge's label, the one crossing the fewest
    // lines (the first on a tie): the L3 ridge's label once ran through the DRAM roof where the
    // other side of its drop line was clear. Where every place covers a point or a label, a later
    // ridge's label is left out (its diamond and drop line still mark it).
    size_t pick = std::size(cand);
    int pick_cost = 0;
    for (size_t i = 0; i < std::size(cand); ++i) {
      bool clash = (k > 0 && cand[i].b.x1 > L.plot_x1) || cand[i].b.y0 < L.plot_y0;
      for (const auto& o : ridge_labels) clash = clash || cand[i].b.hits(o);
      for (const auto& o : point_boxes) clash = clash || cand[i].b.hits(o);
      if (clash) continue;
      const int cost = obs.cost(cand[i].b);
      if (pick == std::size(cand) || cost < pick_cost) {
        pick = i;
        pick_cost = cost;
      }
    }
    if (pick == std::size(cand)) {
      if (k > 0) continue;
      pick = 0;
    }
    const Box b = cand[pick].b;
    ridge_labels.push_back(b);
    obs.add(b, kTextWeight);
    if (cand[pick].vertical)
      c.haloed_text(s, b.x0 + pt, b.y1, 8.5, HAlign::Left, VAlign::Top, 90, false, Color{0.3, 0.3, 0.3, 1});
    else
      c.haloed_text(s, b.x0, b.y1, 8.5, HAlign::Left, VAlign::Bottom, 0, false, Color{0.3, 0.3, 0.3, 1});
  }
  // Ceiling labels with their values: right end above the line, else below it, else near the ridge.
  for (const auto& cl : spec.ceilings) {
    const std::string s = cl.label + ": " + num3(cl.gflops) + " GFLOP/s";
    const double w = c.text_width(s, 9), yl = f.py(cl.gflops), xr = L.plot_x1 - 5 * pt,
                 xl = f.px(cl.gflops / bmax) + 8 * pt;
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
    c.haloed_text(s, best.x0, best.y1, 9, HAlign::Left, VAlign::Baseline, 0, false, kLabel);
  }
  // Roof labels along their slope, at the first free place going up the roof.
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
  // Point labels (batch size): the first free one of eight positions around the point, then of
  // two rings further out (drawn with a thin leader line back to the point); in a cluster where
  // none is free, the position that covers least. A place nearer another point than its own reads
  // as that point's label (issue 45: ResNet-50's "bs16" sat beside its batch-32 point), so it costs
  // as much as covering a marker.
  for (size_t i = 0; i < spec.points.size(); ++i) {
    const auto& p = spec.points[i];
    if (p.label.empty()) continue;
    const double px = f.px(p.ai), py = f.py(p.gflops), w = c.text_width(p.label, 8),
                 h = c.text_height(8) * 0.8;
    auto ambiguous = [&](const Box& b) {
      auto dist = [&](double x, double y) {
        return std::hypot(std::clamp(x, b.x0, b.x1) - x, std::clamp(y, b.y0, b.y1) - y);
      };
      const double own = dist(px, py);
      for (size_t j = 0; j < spec.points.size(); ++j) {
        if (j != i && dist(f.px(spec.points[j].ai), f.py(spec.points[j].gflops)) < own - 0.5 * pt)
          return kMarkerWeight;
      }
      return 0;
    };
    Box best{};
    int best_cost = -1;
    bool far = false;
    // A far label's leader line must not run through text or a marker either (MobileNetV2's
    // leaders once crossed the DRAM ridge label): the heaviest such obstacle it meets is added.
    auto leader_cost = [&](const Box& b) {
      const double nx = std::clamp(px, b.x0, b.x1), ny = std::clamp(py, b.y0, b.y1);
      const double d = std::hypot(nx - px, ny - py);
      int worst = 0;
      for (double t = r + 2 * pt; t < d; t += 2 * pt) {
        const double x = px + (nx - px) * t / d, y = py + (ny - py) * t / d;
        const Box dot{x - 0.5 * pt, y - 0.5 * pt, x + 0.5 * pt, y + 0.5 * pt};
        for (size_t i = 0; i < obs.boxes.size(); ++i)
          if (obs.weights[i] >= kMarkerWeight && dot.hits(obs.boxes[i])) {
            worst = std::max(worst, obs.weights[i]);
          }
      }
      return worst;
    };
    for (double g : {1.5 * pt, 9 * pt, 18 * pt, 28 * pt, 40 * pt, 52 * pt}) {
      const double cand[][2] = {{px + r + g, py - r - h / 2},     {px + r + g, py + r - h / 2},
                                {px - r - g - w, py - r - h / 2}, {px - r - g - w, py + r - h / 2},
                                {px - w / 2, py - r - g - h},     {px - w / 2, py + r + g},
                                {px + r + g, py - h / 2},         {px - r - g - w, py - h / 2}};
      for (const auto& cd : cand) {
        const Box b{cd[0], cd[1], cd[0] + w, cd[1] + h};
        int cst = obs.cost(b) + ambiguous(b);
        // The leader is sampled only for a place that could still win (it walks every obstacle).
        if (g > 2 * pt && (best_cost < 0 || cst < best_cost)) cst += leader_cost(b);
        if (best_cost < 0 || cst < best_cost) {
          best = b;
          best_cost = cst;
          far = g > 2 * pt;
        }
        if (best_cost == 0) break;
      }
      if (best_cost == 0) break;
    }
    obs.add(best, kTextWeight);
    if (far) {
      // From the marker's edge to the nearest point of the label's box.
      const double nx = std::clamp(px, best.x0, best.x1), ny = std::clamp(py, best.y0, best.y1);
      const double d = std::hypot(nx - px, ny - py);
      if (d > r + pt) {
        c.set_line(0.6);
        c.set_color(Color{0.45, 0.45, 0.45, 1});
        c.line(px + (nx - px) * (r + 0.5 * pt) / d, py + (ny - py) * (r + 0.5 * pt) / d, nx, ny);
      }
    }
    c.haloed_text(p.label, best.x0, best.y1, 8, HAlign::Left, VAlign::Bottom, 0, false,
                  Color{0.2, 0.2, 0.2, 1});
  }
  f.end_data();
  f.finish();
  c.finish();
  Layout out = f.layout();
  out.path = path;
  return out;
}

}  // namespace rlx::plot
