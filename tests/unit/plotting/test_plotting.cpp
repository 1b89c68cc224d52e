// test_plotting.cpp: the chart library draws what it claims where it claims. Axes are checked
// with exact tick positions; charts are rendered to PNG, SVG and PDF, and PNG pixels are sampled
// at positions computed from the returned Layout (roofs, ceilings, points, error bars).
#include <cairo.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "charts.h"
#include "thin.h"

using namespace rlx::plot;

namespace {
std::string tmp(const std::string& name) { return std::string(RLX_TEST_TMP) + "/plot_" + name; }

struct Png {
  cairo_surface_t* s;
  explicit Png(const std::string& path) : s(cairo_image_surface_create_from_png(path.c_str())) {
    REQUIRE(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
  }
  ~Png() { cairo_surface_destroy(s); }
  int width() const { return cairo_image_surface_get_width(s); }
  int height() const { return cairo_image_surface_get_height(s); }
  unsigned rgb(double x, double y) const {
    cairo_surface_flush(s);
    const unsigned char* d = cairo_image_surface_get_data(s);
    const int stride = cairo_image_surface_get_stride(s);
    const auto* p = reinterpret_cast<const uint32_t*>(d + static_cast<int>(y) * stride) + static_cast<int>(x);
    return *p & 0xFFFFFF;
  }
};

// Colour distance per channel (max over R, G, B).
int dist(unsigned a, unsigned b) {
  int m = 0;
  for (int sh : {16, 8, 0}) m = std::max(m, std::abs(static_cast<int>((a >> sh) & 0xFF) - static_cast<int>((b >> sh) & 0xFF)));
  return m;
}

std::string head(const std::string& path, size_t n) {
  std::ifstream f(path, std::ios::binary);
  std::string s(n, '\0');
  f.read(s.data(), n);
  s.resize(f.gcount());
  return s;
}

Series series(std::string label, std::vector<double> x, std::vector<double> y, std::vector<double> sd = {}) {
  Series s;
  s.label = std::move(label);
  s.x = std::move(x);
  s.y = std::move(y);
  s.sd = std::move(sd);
  return s;
}

RooflineSpec sample_roofline() {
  RooflineSpec s;
  s.chart.title = "Roofline: test machine";
  s.roofs = {{"DRAM", 100}, {"L2", 400}};
  s.ceilings = {{"fp32", 1000}, {"bf16", 4000}};
  s.points = {{5, 300, "bs16", "resnet50", "fp32"},
              {20, 900, "bs64", "resnet50", "bf16"},
              {2, 150, "bs32", "vgg16", "fp32"},     // at the DRAM roof of 200: below it
              {1, 500, "bs8", "mobilenet_v2", "fp32"}};  // above the 400 GB/s roof at AI 1: hollow
  s.arrows = {{0, 1}};
  return s;
}
}  // namespace

TEST_CASE("log10 axis maps decades to equal pixel steps exactly", "[plotting]") {
  Axis a(Scale::Log10, 1, 1000, 100, 400);
  CHECK(a.to_px(1) == Approx(100).margin(1e-9));
  CHECK(a.to_px(10) == Approx(200).margin(1e-9));
  CHECK(a.to_px(100) == Approx(300).margin(1e-9));
  CHECK(a.to_px(1000) == Approx(400).margin(1e-9));
  CHECK(a.to_px(2) == Approx(100 + 100 * std::log10(2.0)).margin(1e-9));
  CHECK(a.from_px(250) == Approx(std::sqrt(1000.0)));
  auto t = a.major_ticks();
  REQUIRE(t.size() == 4);
  CHECK(t[0].label == "1");
  CHECK(t[1].label == "10");
  CHECK(t[2].label == "100");
  CHECK(t[3].label == "1k");
  // 8 minor ticks per decade over three decades.
  auto m = a.minor_ticks();
  REQUIRE(m.size() == 24);
  CHECK(m[0] == Approx(2));
  CHECK(m[7] == Approx(9));
  CHECK(m[23] == Approx(900));
}

TEST_CASE("log10 axis ticks for ranges off decades and spanning many decades", "[plotting]") {
  Axis a(Scale::Log10, 0.05, 2e9, 0, 1000);
  auto t = a.major_ticks();
  // 0.1 .. 1G is 11 decades: every other one is labelled.
  REQUIRE(t.size() == 6);
  CHECK(t[0].label == "0.1");
  CHECK(t[1].label == "10");
  CHECK(t[2].label == "1k");
  CHECK(t[3].label == "100k");
  CHECK(t[4].label == "10M");
  CHECK(t[5].label == "1G");
  CHECK(a.to_px(t[0].value) == Approx(1000 * (-1 - std::log10(0.05)) / (std::log10(2e9) - std::log10(0.05))));
  // Less than one decade: 1-2-5 ticks are labelled.
  Axis b(Scale::Log10, 15, 90, 0, 100);
  auto tb = b.major_ticks();
  REQUIRE(tb.size() == 2);
  CHECK(tb[0].value == Approx(20));
  CHECK(tb[1].value == Approx(50));
  // Two decade ticks (1 and 10) between 0.5 and 50: 1-2-5 ticks are labelled too (issue 34).
  Axis c(Scale::Log10, 0.5, 50, 0, 100);
  auto tc = c.major_ticks();
  REQUIRE(tc.size() == 7);
  CHECK(tc[0].label == "0.5");
  CHECK(tc[2].label == "2");
  CHECK(tc[6].label == "50");
}

TEST_CASE("linear axis ticks are 1-2-5 steps and y axes grow upwards", "[plotting]") {
  Axis a(Scale::Linear, 0, 100, 700, 100);
  CHECK(a.to_px(0) == 700);
  CHECK(a.to_px(50) == 400);
  CHECK(a.to_px(100) == 100);
  auto t = a.major_ticks();
  REQUIRE(t.size() == 6);
  CHECK(t[1].value == 20);
  CHECK(t[5].label == "100");
  CHECK(a.minor_ticks().size() == 5);  // 10, 30, 50, 70, 90
  double lo = 3.2, hi = 97;
  nice_range(Scale::Linear, lo, hi);
  CHECK(lo == 0);
  CHECK(hi == 100);
  lo = 0.3; hi = 4500;
  nice_range(Scale::Log10, lo, hi);
  CHECK(lo == Approx(0.1));
  CHECK(hi == Approx(10000));
}

// Issue 17 item 19: peaks of 1e-300 and points at 1e300 drew hundreds of overlapping ticks.
TEST_CASE("a log axis over hundreds of decades has a handful of ticks", "[plotting]") {
  const Axis a(Scale::Log10, 1e-301, 1e301);  // 603 decades: a label every 100 decades, on multiples of 100
  const auto t = a.major_ticks();
  REQUIRE(t.size() == 7);
  CHECK(t[0].label == "1e-300");
  CHECK(t[1].label == "1e-200");
  CHECK(t[3].label == "1");
  CHECK(t[6].label == "1e+300");
  CHECK(a.minor_ticks().empty());
  // 20 decades (1 .. 1e19): every 5th from 1 (1, 1e5, 1e10, 1e15); 12 decades: every other one.
  CHECK(Axis(Scale::Log10, 1, 1e19).major_ticks().size() == 4);
  CHECK(Axis(Scale::Log10, 1, 1e11).major_ticks().size() == 6);
  CHECK(si_label(1e28) == "1e+28");
  CHECK(si_label(2e18) == "2E");
}

TEST_CASE("a roofline with extreme peaks and points still draws bounded axes", "[plotting]") {
  RooflineSpec r;
  r.roofs = {{"DRAM", 1e-300}};
  r.ceilings = {{"peak", 1e-300}};
  r.points = {{1e300, 1e300, "x", "m", "fp32"}};
  const Layout L = roofline_chart(r, tmp("extreme.png"));
  CHECK(L.x.major_ticks().size() <= 9);
  CHECK(L.y.major_ticks().size() <= 9);
}

TEST_CASE("SI tick labels", "[plotting]") {
  CHECK(si_label(0) == "0");
  CHECK(si_label(1) == "1");
  CHECK(si_label(0.01) == "0.01");
  CHECK(si_label(250) == "250");
  CHECK(si_label(1000) == "1k");
  CHECK(si_label(2500) == "2.5k");
  CHECK(si_label(1e7) == "10M");
  CHECK(si_label(1e9) == "1G");
  CHECK(si_label(3.5e12) == "3.5T");
  CHECK(si_label(999999) == "1M");
  CHECK(si_label(-2000) == "-2k");
}

TEST_CASE("axis rejects bad ranges", "[plotting]") {
  CHECK_THROWS_WITH(Axis(Scale::Log10, 0, 10), "a log axis needs a positive range, got lower bound 0");
  CHECK_THROWS_WITH(Axis(Scale::Linear, 5, 5), "axis range must be finite with lo < hi, got [5, 5]");
}

TEST_CASE("format follows the extension", "[plotting]") {
  CHECK(format_for("a/b.PNG") == Format::Png);
  CHECK(format_for("x.svg") == Format::Svg);
  CHECK(format_for("x.pdf") == Format::Pdf);
  CHECK_THROWS_WITH(format_for("x.jpg"),
                    "cannot tell the image format of 'x.jpg': end the file name with .png, .svg or .pdf");
}

TEST_CASE("roofline PNG: size, roofs, ceilings, ridge and points where the axes say", "[plotting]") {
  const auto spec = sample_roofline();
  const std::string path = tmp("roofline.png");
  Layout L = roofline_chart(spec, path);
  Png png(path);
  CHECK(png.width() == 1200);
  CHECK(png.height() == 800);
  CHECK(L.x.scale() == Scale::Log10);
  CHECK(ridge_ai(spec) == Approx(10));  // 4000 GFLOP/s over 400 GB/s
  // The DRAM roof at AI 0.5 is 50 GFLOP/s: the line there is dark.
  const double ai = 0.5 * std::pow(10.0, 0.0);
  CHECK(dist(png.rgb(L.x.to_px(ai), L.y.to_px(100 * ai)), 0x212121) < 60);
  // The bf16 ceiling (the highest, solid) at 4000 GFLOP/s right of the ridge: dark.
  CHECK(dist(png.rgb(L.x.to_px(50), L.y.to_px(4000)), 0x212121) < 60);
  // The fp32 ceiling at 1000 GFLOP/s is dashed: within one dash period some pixel is dark.
  int best = 255;
  for (int i = 0; i < 30; ++i) best = std::min(best, dist(png.rgb(L.x.to_px(50) + i, L.y.to_px(1000)), 0x212121));
  CHECK(best < 60);
  // Halfway between two decades above the roofs there is only white background or grid.
  CHECK(dist(png.rgb(L.x.to_px(0.2), L.y.to_px(3000)), 0xFFFFFF) < 40);
  // Points are filled with their model's palette colour: resnet50 first, vgg16 second.
  CHECK(dist(png.rgb(L.x.to_px(5), L.y.to_px(300)), palette_rgb(0)) < 10);
  CHECK(dist(png.rgb(L.x.to_px(2), L.y.to_px(150)), palette_rgb(1)) < 10);
  // The point above the roof is hollow: white at its centre.
  CHECK(above_roof(spec, spec.points[3]));
  CHECK_FALSE(above_roof(spec, spec.points[2]));
  CHECK(dist(png.rgb(L.x.to_px(1), L.y.to_px(500)), 0xFFFFFF) < 10);
  // Outside the plot area (left margin) nothing of the roof leaks: clipping.
  CHECK(dist(png.rgb(L.plot_x0 - 3, L.y.to_px(100 * L.x.lo()) - 3), 0xFFFFFF) < 10);
}

// Issue 22: a point is judged against its own precision's roof, not the chart's highest.
TEST_CASE("roofline: a point above its own roof is hollow even under a higher ceiling", "[plotting]") {
  RooflineSpec spec = sample_roofline();  // DRAM 100, L2 400 GB/s; fp32 1000, bf16 4000 GFLOP/s
  spec.ceilings.push_back({"GEMM fp32", 800, true});
  // An fp32 point at AI 20 and 1500 GFLOP/s: under the chart's roof min(4000, 400 x 20 = 8000) =
  // 4000, but above its own, min(1000, 100 x 20 = 2000) = 1000.
  spec.points.push_back({20, 1500, "bs128", "resnet50", "fp32", 1000, 100});
  // Its own memory roof binds at AI 2: min(1000, 100 x 2 = 200) = 200 < 300 (the chart's is 800).
  spec.points.push_back({2, 300, "bs1", "vgg16", "fp32", 1000, 100});
  // At its own roof exactly (AI 5, 500 = 100 x 5): not above.
  spec.points.push_back({5, 500, "bs2", "vgg16", "fp32", 1000, 100});
  CHECK(above_roof(spec, spec.points[4]));
  CHECK(above_roof(spec, spec.points[5]));
  CHECK_FALSE(above_roof(spec, spec.points[6]));
  CHECK_FALSE(above_roof(spec, spec.points[0]));  // no roofs of its own: the chart's (min(4000, 400 x 5))
  const std::string path = tmp("roofline_own.png");
  Layout L = roofline_chart(spec, path);
  Png png(path);
  CHECK(dist(png.rgb(L.x.to_px(20), L.y.to_px(1500)), 0xFFFFFF) < 10);  // hollow: white at its centre
  CHECK(dist(png.rgb(L.x.to_px(5), L.y.to_px(500)), palette_rgb(1)) < 10);  // filled, vgg16's colour
  // The secondary ceiling (GEMM, 800 GFLOP/s) is grey, not the roofs' near-black: some pixel of
  // one dash period near x = 50 is mid grey (0x808080).
  int grey = 255;
  for (int i = 0; i < 30; ++i) grey = std::min(grey, dist(png.rgb(L.x.to_px(50) + i, L.y.to_px(800)), 0x808080));
  CHECK(grey < 30);
}

// Issue 45: an estimated point's AI is a range, drawn as a bar in the point's colour from ai_lo to
// ai_hi at its GFLOP/s; a datasheet reference above the measured roofs bounds nothing (the DRAM roof
// stops at the highest primary ceiling, no ridge is drawn at the reference).
TEST_CASE("roofline: an AI range is a bar; a secondary ceiling above the roofs is only a reference",
          "[plotting]") {
  RooflineSpec spec;
  spec.roofs = {{"DRAM", 100}};
  spec.ceilings = {{"GEMM FP32", 1000}, {"FP32 (datasheet)", 4000, true}};
  RooflinePoint p{2, 100, "bs16", "mobilenet_v2", "fp32"};
  p.ai_lo = 1;
  p.ai_hi = 2;
  spec.points = {p};
  CHECK(ridge_ai(spec) == Approx(10));  // 1000 / 100: the reference's 40 is no ridge
  CHECK(attainable_gflops(spec, 50) == Approx(1000));
  const std::string path = tmp("roofline_range.png");
  Layout L = roofline_chart(spec, path);
  Png png(path);
  // Along the bar, between the ends and away from the marker: the point's colour.
  CHECK(dist(png.rgb(L.x.to_px(1.2), L.y.to_px(100)), palette_rgb(0)) < 10);
  // Left of the range: no bar.
  CHECK(dist(png.rgb(L.x.to_px(0.8), L.y.to_px(100)), palette_rgb(0)) > 60);
  // The DRAM roof ends at the GEMM ceiling: at AI 20, 2000 GFLOP/s (on the roof's extension) is blank.
  CHECK(dist(png.rgb(L.x.to_px(20), L.y.to_px(2000)), 0x212121) > 60);
  spec.points[0].ai_lo = 3;  // above the AI itself
  CHECK_THROWS_WITH(roofline_chart(spec, tmp("roofline_range_bad.png")),
                    Catch::Contains("point 1 ('bs16') needs 0 < ai_lo <= ai <= ai_hi"));
}

TEST_CASE("every chart writes PNG, SVG and PDF", "[plotting]") {
  const auto spec = sample_roofline();
  for (const char* ext : {"png", "svg", "pdf"}) {
    const std::string p = tmp(std::string("all.") + ext);
    roofline_chart(spec, p);
    const std::string h = head(p, 8);
    if (std::string(ext) == "png") CHECK(h.substr(1, 3) == "PNG");
    if (std::string(ext) == "svg") CHECK(head(p, 200).find("<svg") != std::string::npos);
    if (std::string(ext) == "pdf") CHECK(h.substr(0, 5) == "%PDF-");
    Series s = series("resnet50 fp32", {16, 32, 64}, {10, 18, 30}, {1, 2, 1.5});
    const std::string q = tmp(std::string("thr.") + ext);
    throughput_chart(ChartSpec{}, {s}, q);
    CHECK(head(q, 8).size() == 8);
    const std::string v = tmp(std::string("var.") + ext);
    variability_chart(ChartSpec{}, {{"a", {1, 2, 3}}, {"b", {2, 2.5}}}, v);
    CHECK(head(v, 8).size() == 8);
    const std::string l = tmp(std::string("line.") + ext);
    line_chart(ChartSpec{}, {s}, l);
    CHECK(head(l, 8).size() == 8);
  }
}

TEST_CASE("SVG and PDF pages are the pixel size at the figure's dpi", "[plotting]") {
  ChartSpec cs;
  cs.width = 900;
  cs.height = 600;
  cs.dpi = 150;  // 6 x 4 inches = 432 x 288 points
  line_chart(cs, {series("a", {1, 2}, {1, 2})}, tmp("size.svg"));
  const std::string h = head(tmp("size.svg"), 400);
  CHECK(h.find("width=\"432") != std::string::npos);
  CHECK(h.find("height=\"288") != std::string::npos);
}

TEST_CASE("throughput chart: error bars and markers at mean and mean ± SD", "[plotting]") {
  ChartSpec cs;
  cs.title = "Throughput";
  Series s = series("resnet50 fp32", {16, 32, 64}, {100, 180, 300}, {10, 20, 15});
  Layout L = throughput_chart(cs, {s}, tmp("throughput.png"));
  Png png(tmp("throughput.png"));
  CHECK(png.width() == 1200);
  CHECK(L.y.lo() == 0);  // throughput starts at zero
  CHECK(L.x.scale() == Scale::Log10);
  auto ticks = L.x.major_ticks();
  REQUIRE(ticks.size() == 3);
  CHECK(ticks[0].label == "16");
  CHECK(ticks[2].label == "64");
  // Marker centre and a point on the error bar halfway between mean and mean + SD (one series:
  // no sideways dodge).
  CHECK(dist(png.rgb(L.x.to_px(32), L.y.to_px(180)), palette_rgb(0)) < 10);
  CHECK(dist(png.rgb(L.x.to_px(32), L.y.to_px(180 + 20 * 0.8)), palette_rgb(0)) < 60);
  CHECK(dist(png.rgb(L.x.to_px(32) + 40, L.y.to_px(180 + 20 * 0.8)), 0xFFFFFF) < 40);
}

// Issue 25 finding 1: a log y axis read s.sd[i] of a series without error bars (an empty
// vector), which segfaulted (exit 139 from rlx.plot.throughput{..., yscale = "log"}).
TEST_CASE("throughput chart: a log y axis without error bars spans the points", "[plotting]") {
  ChartSpec cs;
  cs.yscale = Scale::Log10;
  Layout L = throughput_chart(cs, {series("a", {1, 2}, {1, 2})}, tmp("throughput_log.png"));
  CHECK(L.y.scale() == Scale::Log10);
  // The range holds both points (y = 1 and y = 2, with no bars to widen it).
  CHECK(L.y.lo() <= 1);
  CHECK(L.y.hi() >= 2);
}

TEST_CASE("variability chart: one box per group, quantiles", "[plotting]") {
  CHECK(quantile({1, 2, 3, 4}, 0.5) == Approx(2.5));
  CHECK(quantile({1, 2, 3, 4}, 0.25) == Approx(1.75));
  Layout L = variability_chart(ChartSpec{}, {{"cpu", {10, 11, 12}}, {"vm", {8, 12, 9}}}, tmp("var.png"));
  auto t = L.x.major_ticks();
  REQUIRE(t.size() == 2);
  CHECK(t[0].label == "cpu");
  CHECK(t[1].label == "vm");
  Png png(tmp("var.png"));
  // The median line of group 1 (11) is drawn in its colour, left of the centre dots.
  CHECK(dist(png.rgb(L.x.to_px(1) - (L.x.to_px(2) - L.x.to_px(1)) * 0.1, L.y.to_px(11)), palette_rgb(0)) < 60);
  CHECK_THROWS_WITH(variability_chart(ChartSpec{}, {{"x", {}}}, tmp("v.png")), "group 'x' has no values");
}

TEST_CASE("variability chart: a box from five repeats, a mean bar below; a log axis for machines far apart",
          "[plotting]") {
  // Issue 34: a box of three points said nothing its dots did not. Inside the interquartile range,
  // away from the centre line and the dots, a group of 3 leaves the background and one of 5 is tinted.
  Layout L = variability_chart(ChartSpec{}, {{"three", {10, 11, 12}}, {"five", {10, 10.5, 11, 11.5, 12}}},
                               tmp("var_box.png"));
  Png png(tmp("var_box.png"));
  const double step = L.x.to_px(2) - L.x.to_px(1), off = 0.14 * step;
  CHECK(dist(png.rgb(L.x.to_px(1) - off, L.y.to_px(10.75)), 0xFFFFFFu) < 20);
  CHECK(dist(png.rgb(L.x.to_px(2) - off, L.y.to_px(10.75)), 0xFFFFFFu) > 20);
  // The mean bar of the group of 3 (11) is drawn in its colour across the slot.
  CHECK(dist(png.rgb(L.x.to_px(1) - off, L.y.to_px(11)), palette_rgb(0)) < 60);
  // A CPU beside a GPU on a log axis, snapped to 1-2-5 bounds around both.
  ChartSpec log;
  log.yscale = Scale::Log10;
  Layout G = variability_chart(log, {{"cpu", {3.5, 3.9, 4.3}}, {"gpu", {781, 789}}}, tmp("var_log.png"));
  CHECK(G.y.scale() == Scale::Log10);
  CHECK(G.y.lo() <= 3.5);
  CHECK(G.y.hi() >= 789);
  // Room above the highest value for the annotations: 789 x (789 / 3.5)^0.35 = 5265 -> 10k; below the
  // lowest: 3.5 / (789 / 3.5)^0.15 = 1.55 -> 1.
  CHECK(G.y.lo() == Approx(1));
  CHECK(G.y.hi() == Approx(1e4));
}

TEST_CASE("a fixed axis bound joins the data before the padding", "[plotting]") {
  // Issue 34: AI vs batch with ymin = 0 padded only the data's narrow band (20.1-20.4) and the top
  // points sat on the frame. Now the 5 % pad is of the span shown: 0 to 20.4 + 1.02, then a nice 25.
  const Axis a = make_axis(Scale::Linear, {20.1, 20.4}, 0.0, std::nullopt, 0.05);
  CHECK(a.lo() == 0);
  CHECK(a.hi() == Approx(25));
}

TEST_CASE("chart errors name the problem", "[plotting]") {
  CHECK_THROWS_WITH(line_chart(ChartSpec{}, {series("a", {1, 2}, {1})}, tmp("e.png")),
                    "series 1 ('a') has 2 x values and 1 y values: give one y per x");
  ChartSpec logy;
  logy.yscale = Scale::Log10;
  CHECK_THROWS_WITH(line_chart(logy, {series("a", {1, 2}, {1, 0})}, tmp("e.png")),
                    "series 1 ('a'): y[2] = 0 cannot be shown on a log axis: use a linear y axis or drop it");
  RooflineSpec r;
  r.ceilings = {{"fp32", 10}};
  CHECK_THROWS_WITH(roofline_chart(r, tmp("e.png")),
                    Catch::Contains("needs at least one memory roof"));
  CHECK_THROWS_WITH(line_chart(ChartSpec{}, {series("a", {1}, {1})}, "/nonexistent-dir/x.png"),
                    "cannot write figure '/nonexistent-dir/x.png': the directory '/nonexistent-dir' does not exist");
}

// Issue 17 item 3: a 3,000-character series label used to truncate the good figure to 0 bytes and
// blame the figure size.
TEST_CASE("a failed redraw keeps the good figure and names the long label", "[plotting]") {
  const std::string dir = std::string(RLX_TEST_TMP) + "/plot_redraw";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string label(3000, 'm');
  for (const char* ext : {"png", "svg", "pdf"}) {
    const std::string p = dir + "/o." + ext;
    line_chart(ChartSpec{}, {series("good", {1, 2}, {1, 2})}, p);
    const std::string good = head(p, 1 << 20);
    REQUIRE(good.size() > 100);
    try {
      line_chart(ChartSpec{}, {series(label, {1, 2}, {1, 2})}, p);
      FAIL("a 3000-character label should not fit");
    } catch (const std::invalid_argument& e) {
      const std::string msg = e.what();
      CHECK(msg.rfind("the legend label '" + std::string(40, 'm') +
                          "...' (3000 characters) is too long for a 1200-pixel-wide figure: shorten it to at most about ",
                      0) == 0);
      CHECK(msg.find("characters, or make the figure wider") != std::string::npos);
      // The length the message suggests does fit.
      const size_t fits = std::stoul(msg.substr(msg.find("at most about ") + 14));
      CHECK(fits > 20);
      CHECK(fits < 3000);
      CHECK_NOTHROW(line_chart(ChartSpec{}, {series(std::string(fits, 'm'), {1, 2}, {1, 2})}, dir + "/fits." + ext));
    }
    CHECK(head(p, 1 << 20) == good);
  }
  // Nothing but the figures: no temporary file left behind.
  CHECK(std::distance(std::filesystem::directory_iterator(dir), {}) == 6);
}

TEST_CASE("a figure too small for its text says its size and the plot area it would leave", "[plotting]") {
  ChartSpec cs;
  cs.width = 100;
  cs.height = 100;
  cs.title = "t";
  cs.xlabel = "x";
  cs.ylabel = "y";
  CHECK_THROWS_WITH(line_chart(cs, {series("a", {1, 2}, {1, 2})}, tmp("small.png")),
                    Catch::StartsWith("a 100x100 figure is too small for its labels and legend (the plot area would be "));
}

TEST_CASE("a title or subtitle wider than the plot stays inside the figure", "[plotting]") {
  // Centred over the plot area, this subtitle (about 1,500 px at 10 pt and 150 dpi) would run past
  // both edges of a 1,200 px figure with a legend; it is moved and scaled to fit, so the outermost
  // columns of the heading band stay white, while the text itself is drawn.
  RooflineSpec s = sample_roofline();
  s.chart.subtitle = std::string(200, 'M');
  const Layout L = roofline_chart(s, tmp("wide_subtitle.png"));
  Png png(tmp("wide_subtitle.png"));
  int ink_left = 0, ink_right = 0, ink = 0;
  for (int y = 0; y < static_cast<int>(L.plot_y0); ++y) {
    ink_left += dist(png.rgb(0, y), 0xFFFFFF) > 40 || dist(png.rgb(5, y), 0xFFFFFF) > 40;
    ink_right += dist(png.rgb(png.width() - 1, y), 0xFFFFFF) > 40 || dist(png.rgb(png.width() - 6, y), 0xFFFFFF) > 40;
    for (int x = 0; x < png.width(); ++x) ink += dist(png.rgb(x, y), 0xFFFFFF) > 40;
  }
  CHECK(ink_left == 0);
  CHECK(ink_right == 0);
  CHECK(ink > 1000);
}

TEST_CASE("a 400-character title is wrapped into readable lines, not squashed onto one", "[plotting]") {
  // Issue 25 finding 11: the title was scaled until it fit one line, to about 2 pt. Now it keeps
  // at least 3/4 of its size, wraps at spaces into at most three lines that each fit, and the
  // third ends with an ellipsis when the text is longer still.
  Canvas c(tmp("heading.png"), 1200, 800, 150);
  std::string title;
  for (int i = 0; i < 40; ++i) title += "abcdefghij ";  // 440 characters
  const double room = 1200 - 2 * 8 * c.pt();
  const Heading h = fit_heading(c, title, 14, true, room);
  CHECK(h.size_pt == Approx(10.5));
  REQUIRE(h.lines.size() == 3);
  for (const auto& line : h.lines) CHECK(c.text_width(line, h.size_pt, true) <= room);
  CHECK(h.lines[0].rfind("abcdefghij abcdefghij", 0) == 0);
  CHECK(h.lines[1].rfind("abcdefghij", 0) == 0);  // broken at a space: no word is split
  CHECK(h.lines[2].size() > 3);
  CHECK(h.lines[2].substr(h.lines[2].size() - 3) == "\xE2\x80\xA6");
  // A short title stays one line at its size; one a little too wide is made smaller, not wrapped.
  const Heading short_one = fit_heading(c, "Throughput", 14, true, room);
  CHECK(short_one.size_pt == 14);
  CHECK(short_one.lines == std::vector<std::string>{"Throughput"});
  std::string wide;
  for (size_t n = 1; n < title.size() && c.text_width(wide, 14, true) <= 1.1 * room; ++n)
    wide = title.substr(0, n);
  const Heading smaller = fit_heading(c, wide, 14, true, room);
  CHECK(c.text_width(wide, 14, true) > room);
  CHECK(smaller.lines.size() == 1);
  CHECK(smaller.size_pt < 14);
  CHECK(smaller.size_pt >= 10.5);
  // The chart reserves the three lines' height above the plot area.
  ChartSpec cs;
  cs.title = "t";
  const double short_top = line_chart(cs, {series("a", {1, 2}, {1, 2})}, tmp("title_short.png")).plot_y0;
  cs.title = title;
  const double long_top = line_chart(cs, {series("a", {1, 2}, {1, 2})}, tmp("title_long.png")).plot_y0;
  CHECK(long_top - short_top == Approx(3 * c.text_height(10.5) - c.text_height(14)).margin(2));
}

TEST_CASE("a subtitle wraps after a phrase, never inside one, in up to four lines", "[plotting]") {
  // Issue 34: Figure A's subtitle broke as "95 / % CI". A line ends after its last "; " when that
  // keeps at least half of it; a no-break space (U+00A0) holds a number to its unit.
  Canvas c(tmp("subtitle.png"), 1200, 800, 150);
  const double room = 600;
  std::string text;
  for (int i = 0; i < 12; ++i) text += "phrase number " + std::to_string(i) + " with 95\xC2\xA0% CI; ";
  const Heading h = fit_heading(c, text, 10, false, room, 4);
  REQUIRE(h.lines.size() == 4);
  for (size_t i = 0; i + 1 < h.lines.size(); ++i) {
    CHECK(h.lines[i].back() == ';');  // every full line ends a phrase
    CHECK(c.text_width(h.lines[i], h.size_pt, false) <= room);
  }
  for (const auto& line : h.lines) {
    CHECK(line.rfind("%", 0) != 0);  // no line starts with the unit of a number on the line before
    CHECK(line.find("95 ") == std::string::npos);
  }
  CHECK(h.lines[3].substr(h.lines[3].size() - 3) == "\xE2\x80\xA6");
}

TEST_CASE("haloed text clears a line where it crosses the glyphs, and only there", "[plotting]") {
  // A roofline's labels sit among its roofs; a label drawn over a line was crossed by it (the DRAM
  // roof through "FLOP/B" of the L1 ridge label). A halo (white, 1.2 pt each side of the glyphs'
  // outline) clears the line next to the strokes. One canvas per variant: a black line 3 px thick
  // along row 50, "MMMM" at 20 pt with its baseline at row 60, so the line runs through the glyphs.
  auto whites_on_line = [](bool halo) {
    const std::string path = tmp(halo ? "halo_on.png" : "halo_off.png");
    {
      Canvas c(path, 200, 100, 72);
      c.fill_rect(0, 0, 200, 100, Color{1, 1, 1, 1});
      c.set_color(Color{0, 0, 0, 1});
      c.set_line(3);
      c.line(0, 50, 200, 50);
      if (halo) c.haloed_text("MMMM", 20, 60, 20);
      else c.text("MMMM", 20, 60, 20);
      c.finish();
    }
    Png png(path);
    int whites = 0;
    for (int x = 20; x < 180; ++x) whites += dist(png.rgb(x, 50), 0xFFFFFF) < 40;
    CHECK(dist(png.rgb(195, 50), 0x000000) < 40);  // beyond the text the line is whole
    return whites;
  };
  CHECK(whites_on_line(false) == 0);
  CHECK(whites_on_line(true) > 8);
}

TEST_CASE("a long line is thinned to four points per pixel column, its breaks kept; one marker per pixel") {
  // Issue 48 item 6: 100,000 zig-zag points took more than a minute to draw.
  std::vector<double> x, y;
  for (int i = 0; i < 1000; ++i) {
    x.push_back(i / 100.0);  // ten pixel columns, 100 points each
    y.push_back(i % 2 ? 10.0 + i % 7 : 0.0 - i % 5);
  }
  const auto keep = rlx::plot::thin_line(x, y);
  CHECK(keep.size() <= 40);
  CHECK(keep.front() == 0);
  CHECK(keep.back() == 999);
  for (size_t k = 1; k < keep.size(); ++k) CHECK(keep[k - 1] < keep[k]);
  // Every column's extremes survive: the drawn line covers the same pixels.
  double lo = 1e9, hi = -1e9;
  for (size_t i : keep) lo = std::min(lo, y[i]), hi = std::max(hi, y[i]);
  CHECK(lo == -4.0);
  CHECK(hi == 16.0);
  // A point per column keeps every point; a break (NaN) is kept and splits the column's run.
  CHECK(rlx::plot::thin_line({0.5, 1.5, 2.5}, {1, 2, 3}) == std::vector<size_t>{0, 1, 2});
  const double nan = std::nan("");
  CHECK(rlx::plot::thin_line({0.1, 0.2, 0.3, 0.4, 0.5}, {1, 5, nan, 2, 3}) ==
        std::vector<size_t>{0, 1, 2, 3, 4});
  CHECK(rlx::plot::first_on_pixel({1.1, 0.9, 5.0, 1.2}, {2.0, 2.2, 2.0, nan}) ==
        std::vector<char>{1, 0, 1, 0});
}

TEST_CASE("a line chart of 100,000 zig-zag points draws") {
  std::vector<double> x(100000), y(100000);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<double>(i);
    y[i] = i % 2 ? 1.0 : -1.0;
  }
  rlx::plot::Series s;
  s.x = x;
  s.y = y;
  rlx::plot::ChartSpec spec;
  const std::string path = tmp("zigzag_100k.png");
  rlx::plot::line_chart(spec, {s}, path);
  CHECK(std::filesystem::file_size(path) > 0);
  // Out of x order nothing thins: beyond kMaxLinePoints the line is refused before drawing, and no
  // file is written.
  rlx::plot::Series back;
  for (size_t i = 0; i <= rlx::plot::kMaxLinePoints; ++i) {
    back.x.push_back(static_cast<double>((i * 7919) % 1000));
    back.y.push_back(static_cast<double>(i % 13));
  }
  back.label = "b";
  const std::string refused = tmp("unordered_line.png");
  std::filesystem::remove(refused);
  CHECK_THROWS_WITH(rlx::plot::line_chart(spec, {back}, refused),
                    Catch::StartsWith("series 'b': its line keeps ") &&
                        Catch::Contains("after thinning to the plot's pixel columns (its x values are not in order), "
                                        "more than the 100000 rlx draws as one line; sort the points by x, or draw "
                                        "them as points (line = false)"));
  CHECK_FALSE(std::filesystem::exists(refused));
}
