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
#include "roofline_draw.h"

namespace rlx::plot {

namespace roofline_parts {

std::string num3(double v) {
  char buf[64];
  const double a = std::fabs(v);
  std::snprintf(buf, sizeof buf, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3g", v);
  return buf;
}

}  // namespace roofline_parts

namespace {
using namespace roofline_parts;

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
    if (!c.secondary && !c.reference) m = std::max(m, c.gflops);
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
    if (!cl.secondary && !cl.reference && cl.gflops < pmax) lower.push_back(&cl);
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

namespace {

// The axes: every point, every ridge, every ceiling, with room for the labels.
std::pair<Axis, Axis> axes_of(const RooflineSpec& spec, double pmax, double bmax) {
  const ChartSpec& cs = spec.chart;
  const double ridge = peaks::ridge_ai(pmax, bmax);
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
  return {snapped_log_axis(xs, cs.xmin, cs.xmax), snapped_log_axis(ys, cs.ymin, cs.ymax)};
}

// The legend: colours (with their title), shapes (with theirs), and the marks for a point above
// its roof and for the precision arrows when the chart has them.
std::vector<LegendEntry> legend_of(const RooflineSpec& spec, const std::vector<std::string>& corder,
                                   const std::vector<std::string>& sorder) {
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
  return legend;
}

// Memory roofs, slowest (DRAM) solid and faster levels dashed, from the left edge to the highest
// ceiling.
void draw_roofs(Draw& d) {
  const auto& spec = d.spec;
  d.roof_order.resize(spec.roofs.size());
  for (size_t i = 0; i < d.roof_order.size(); ++i) d.roof_order[i] = i;
  std::sort(d.roof_order.begin(), d.roof_order.end(),
            [&](size_t a, size_t b) { return spec.roofs[a].gbytes_per_s < spec.roofs[b].gbytes_per_s; });
  for (size_t k = 0; k < d.roof_order.size(); ++k) {
    const auto& r = spec.roofs[d.roof_order[k]];
    const double x0 = std::max(d.x.lo(), d.y.lo() / r.gbytes_per_s), xe = peaks::ridge_ai(d.pmax, r.gbytes_per_s);
    d.c.set_color(kRoof);
    d.c.set_line(2.0, k > 0);
    d.c.line(d.f.px(d.x.lo()), d.f.py(r.gbytes_per_s * d.x.lo()), d.f.px(xe), d.f.py(d.pmax));
    d.obs.segment(d.f.px(x0), d.f.py(r.gbytes_per_s * x0), d.f.px(xe), d.f.py(d.pmax), 2 * d.pt);
  }
}

// A reference line's dash-dot (issue 55): neither the dashes of a lower or second ceiling nor the
// dots of a ridge's drop line, so a reference never reads as a limit.
void set_reference_line(Canvas& c) {
  c.set_line(1.4);
  const double pat[] = {7 * c.pt(), 2.5 * c.pt(), 1.5 * c.pt(), 2.5 * c.pt()};
  cairo_set_dash(c.cr(), pat, 4, 0);
}

// Compute ceilings, highest solid and lower precisions dashed, from the fastest roof rightwards;
// references dash-dotted and lighter.
void draw_ceilings(Draw& d) {
  const auto& spec = d.spec;
  std::vector<size_t> order(spec.ceilings.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return spec.ceilings[a].gflops > spec.ceilings[b].gflops; });
  for (size_t k : order) {
    const auto& cl = spec.ceilings[k];
    if (cl.reference) {
      d.c.set_color(kReference);
      set_reference_line(d.c);
    } else {
      d.c.set_color(cl.secondary ? kSecondary : kRoof);
      d.c.set_line(cl.secondary ? 1.5 : 2.0, cl.gflops < d.pmax || cl.secondary);
    }
    d.c.line(d.f.px(cl.gflops / d.bmax), d.f.py(cl.gflops), d.L.plot_x1, d.f.py(cl.gflops));
    d.obs.segment(d.f.px(cl.gflops / d.bmax), d.f.py(cl.gflops), d.L.plot_x1, d.f.py(cl.gflops), 2 * d.pt);
  }
}

// Ridges: dotted drop line and open diamond where each memory roof meets the highest ceiling, and
// where the slowest memory roof meets each lower primary ceiling (the ridge a point of that
// precision is judged by).
void draw_ridges(Draw& d) {
  d.ridges = ridges_of(d.spec, d.roof_order);
  const double pt = d.pt;
  for (const auto& rd : d.ridges) {
    const double rx = d.f.px(rd.ai), ry = d.f.py(rd.gflops);
    d.c.set_color(Color{0.35, 0.35, 0.35, 1});
    d.c.set_line(1.1, false, true);
    d.c.line(rx, ry, rx, d.L.plot_y1);
    d.c.draw_marker(Marker::Diamond, rx, ry, 7, Color{1, 1, 1, 1}, kRoof, false);
    d.obs.add({rx - 5 * pt, ry - 5 * pt, rx + 5 * pt, ry + 5 * pt}, kMarkerWeight);
    d.obs.add({rx - 1, ry + 5 * pt, rx + 1, d.L.plot_y1}, kLineWeight);
  }
}

// The precision arrows, then each point's AI range (a bar from the lowest to the highest AI it may
// have, with end caps, in its colour): both under the points.
void draw_arrows_and_ranges(Draw& d) {
  d.c.set_color(Color{0.4, 0.4, 0.4, 1});
  d.c.set_line(1.2);
  for (const auto& a : d.spec.arrows) {
    const auto &p = d.spec.points[a.from], &q = d.spec.points[a.to];
    arrow(d.c, d.f.px(p.ai), d.f.py(p.gflops), d.f.px(q.ai), d.f.py(q.gflops), 6 * d.pt);
    d.obs.segment(d.f.px(p.ai), d.f.py(p.gflops), d.f.px(q.ai), d.f.py(q.gflops), 1.5 * d.pt);
  }
  for (const auto& p : d.spec.points) {
    if (!has_range(p)) continue;
    const double x0 = d.f.px(p.ai_lo), x1 = d.f.px(p.ai_hi), py = d.f.py(p.gflops), cap = 0.6 * d.r;
    d.c.set_color(palette(d.cidx[p.color_key]));
    d.c.set_line(1.6);
    d.c.line(x0, py, x1, py);
    d.c.line(x0, py - cap, x0, py + cap);
    d.c.line(x1, py - cap, x1, py + cap);
    d.obs.add({x0, py - cap, x1, py + cap}, kMarkerWeight);
  }
}

// Points: filled and edged in white; above the roof hollow with a thick coloured edge.
void draw_points(Draw& d) {
  const double r = d.r;
  for (const auto& p : d.spec.points) {
    const Color col = palette(d.cidx[p.color_key]);
    const Marker m = marker(d.sidx[p.shape_key]);
    const double px = d.f.px(p.ai), py = d.f.py(p.gflops);
    if (above_roof(d.spec, p))
      d.c.draw_marker(m, px, py, 9, col, col, false);
    else
      d.c.draw_marker(m, px, py, 9, col, Color{1, 1, 1, 1}, true);
    d.obs.add({px - r, py - r, px + r, py + r}, kMarkerWeight);
    d.point_boxes.push_back({px - r, py - r, px + r, py + r});
  }
}

}  // namespace

Layout roofline_chart(const RooflineSpec& spec_in, const std::string& path) {
  validate(spec_in);
  RooflineSpec spec = spec_in;
  ChartSpec& cs = spec.chart;
  cs.xscale = cs.yscale = Scale::Log10;
  if (cs.xlabel.empty()) cs.xlabel = "Arithmetic intensity (FLOP/byte)";
  if (cs.ylabel.empty()) cs.ylabel = "Attained performance (GFLOP/s)";
  const double pmax = max_ceiling(spec), bmax = max_roof(spec);
  const auto [x, y] = axes_of(spec, pmax, bmax);

  std::vector<std::string> ckeys, skeys, corder, sorder;
  for (const auto& p : spec.points) {
    ckeys.push_back(p.color_key);
    skeys.push_back(p.shape_key);
  }
  auto cidx = first_seen(ckeys, corder);
  auto sidx = first_seen(skeys, sorder);

  Canvas c(path, cs.width, cs.height, cs.dpi);
  Frame f(c, cs, x, y, legend_of(spec, corder, sorder));
  const Layout& L = f.layout();
  Obstacles obs{{L.plot_x0, L.plot_y0, L.plot_x1, L.plot_y1}, {}, {}};
  Draw d{spec, c, f, L, obs, x, y, pmax, bmax, c.pt(), 5.5 * c.pt(), std::move(cidx), std::move(sidx), {}, {}, {}};
  f.begin_data();
  draw_roofs(d);
  draw_ceilings(d);
  draw_ridges(d);
  draw_arrows_and_ranges(d);
  draw_points(d);
  label_ridges(d);
  label_ceilings(d);
  label_roofs(d);
  label_points(d);
  f.end_data();
  f.finish();
  c.finish();
  Layout out = f.layout();
  out.path = path;
  return out;
}

}  // namespace rlx::plot
