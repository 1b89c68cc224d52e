// test_reference_lines.cpp: issue 55 point 6 in the chart library. A reference line (a GEMM the
// training points exceed, a datasheet figure) bounds nothing and is drawn dash-dotted; a long
// ceiling label stays inside the plot; Figure D's hollow (estimated) markers; Figure B's spreads
// drawn relative to each group's median. Values are the Zen 5 study's (tests/fixtures/studies/
// epyc-zen5-study.db): FP32 FMA 491.4 GFLOP/s, GEMM FP32 213.2 (OpenBLAS's Haswell kernels), DRAM
// 79.13 GB/s; ResNet-50 fp32 batch 64 at 11.2407, 12.1330, 13.2015 images/s; the H200's 838.16.
#include <cairo.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "charts.h"

using namespace rlx::plot;

namespace {
std::string tmp(const std::string& name) { return std::string(RLX_TEST_TMP) + "/plot55_" + name; }

struct Png {
  cairo_surface_t* s;
  explicit Png(const std::string& path) : s(cairo_image_surface_create_from_png(path.c_str())) {
    REQUIRE(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
  }
  ~Png() { cairo_surface_destroy(s); }
  unsigned rgb(double x, double y) const {
    cairo_surface_flush(s);
    const unsigned char* d = cairo_image_surface_get_data(s);
    const int stride = cairo_image_surface_get_stride(s);
    return *(reinterpret_cast<const uint32_t*>(d + static_cast<int>(y) * stride) + static_cast<int>(x)) & 0xFFFFFF;
  }
};

int dist(unsigned a, unsigned b) {
  int m = 0;
  for (int sh : {16, 8, 0})
    m = std::max(m, std::abs(static_cast<int>((a >> sh) & 0xFF) - static_cast<int>((b >> sh) & 0xFF)));
  return m;
}

RooflineSpec zen5_roofline() {
  RooflineSpec spec;
  spec.roofs = {{"DRAM", 79.13}};
  ComputeCeiling gemm{"GEMM FP32 on OpenBLAS Haswell kernels (reference: training points exceed it)", 213.2, true};
  gemm.reference = true;
  spec.ceilings = {{"FP32 FMA", 491.4}, gemm};
  spec.points = {{144.2, 388.9, "bs64", "vgg16", "fp32"}, {33.8, 292.0, "bs64", "resnet50", "fp32"}};
  return spec;
}
}  // namespace

TEST_CASE("a reference line bounds nothing and is dash-dotted, lighter than a 2nd ceiling", "[plotting]") {
  RooflineSpec spec = zen5_roofline();
  // The roof is the FP32 FMA peak: ridge 491.4 / 79.13 = 6.210 FLOP/byte; the points, 292-389
  // GFLOP/s, are under it and above the reference, and not "above their roof".
  CHECK(ridge_ai(spec) == Approx(491.4 / 79.13));
  CHECK_FALSE(above_roof(spec, spec.points[0]));
  // A reference above every other ceiling still bounds nothing (like a secondary one): a datasheet
  // FP32 of 989.5 TFLOP/s leaves the ridge where it was.
  ComputeCeiling sheet{"FP16 tensor datasheet (reference)", 989500};
  sheet.reference = true;
  spec.ceilings.push_back(sheet);
  CHECK(ridge_ai(spec) == Approx(491.4 / 79.13));
  spec.ceilings.pop_back();
  const std::string path = tmp("reference.png");
  const Layout L = roofline_chart(spec, path);
  Png png(path);
  // Along the reference at 213.2 GFLOP/s between AI 20 and 30 (left of the label at the right
  // end): some pixels in its light grey (0x949494), some background: a broken line.
  int grey = 0, blank = 0;
  for (double x = L.x.to_px(12); x < L.x.to_px(20); x += 1) {
    const unsigned c = png.rgb(x, L.y.to_px(213.2));
    if (dist(c, 0x949494) < 25) ++grey;
    if (dist(c, 0xFFFFFF) < 25) ++blank;
  }
  CHECK(grey > 10);
  CHECK(blank > 3);
}

TEST_CASE("a ceiling label wider than the plot keeps inside it, its parenthetical on a second line",
          "[plotting]") {
  RooflineSpec spec = zen5_roofline();
  spec.chart.width = 700;  // a plot area narrower than the 96-character label at 9 pt
  const std::string path = tmp("reference_narrow.png");
  const Layout L = roofline_chart(spec, path);
  Png png(path);
  // At the plot's left edge, beside the reference line, no text: the label began off the frame
  // (issue 55: clipped to "he environment) (reference: ..."), its grey (0x808080) glyphs cut there.
  int text = 0;
  for (double dy = -30; dy <= 30; dy += 1)
    for (double dx = 1; dx <= 4; dx += 1)
      if (dist(png.rgb(L.plot_x0 + dx, L.y.to_px(213.2) + dy), 0x808080) < 30) ++text;
  CHECK(text == 0);
}

TEST_CASE("hollow markers: per point or for a whole series, and the legend sample follows", "[plotting]") {
  Series est, meas;
  est.label = "epyc-2c fp32";
  est.x = {16, 32, 64};
  est.y = {32.1, 33.0, 33.8};
  est.hollow = {true};  // every point an estimate
  meas.label = "h200 fp32";
  meas.x = {64, 128};
  meas.y = {16.5, 15.6};
  meas.hollow = {false, true};
  ChartSpec spec;
  spec.xscale = Scale::Log10;
  const std::string path = tmp("hollow.png");
  const Layout L = line_chart(spec, {est, meas}, path);
  Png png(path);
  CHECK(dist(png.rgb(L.x.to_px(32), L.y.to_px(33.0)), 0xFFFFFF) < 20);           // hollow: white inside
  CHECK(dist(png.rgb(L.x.to_px(64), L.y.to_px(16.5)), palette_rgb(1)) < 20);      // filled
  CHECK(dist(png.rgb(L.x.to_px(128), L.y.to_px(15.6)), 0xFFFFFF) < 20);          // hollow
  meas.hollow = {true, false, true};
  CHECK_THROWS_WITH(line_chart(spec, {meas}, tmp("hollow_bad.png")),
                    Catch::Contains("3 hollow flags for 2 points: give one per point, or one for all"));
}

TEST_CASE("variability relative to each group's median: a CPU's spread beside a GPU on one linear axis",
          "[plotting]") {
  // Zen 5: median 12.1330; 11.2407 / 12.1330 - 1 = -7.354 %, 13.2015 / 12.1330 - 1 = +8.807 %.
  // The H200's single run is its own median: 0 %.
  const std::vector<Group> groups = {{"epyc-2c", {11.2407, 12.1330, 13.2015}}, {"h200", {838.16}}};
  ChartSpec spec;
  spec.yscale = Scale::Log10;  // asked for, but a relative chart is linear: it plots differences
  const std::string path = tmp("relative.png");
  const Layout L = variability_chart(spec, groups, path, true);
  CHECK(L.y.scale() == Scale::Linear);
  CHECK(L.y.lo() <= -7.354);
  CHECK(L.y.hi() >= 8.807);
  CHECK(L.y.hi() - L.y.lo() < 40);  // the 16 % spread fills the axis, not a few pixels of it
  Png png(path);
  // The dots: value i sits at x = group + (frac(0.618 i) - 0.5) x 0.6 x box_w, box_w = 0.35 slot;
  // the first (-7.354 %) at -0.3 box_w, the third (+8.807 %) at (0.236 - 0.5) x 0.6 box_w.
  const double box_w = 0.35 * (L.x.to_px(2) - L.x.to_px(1));
  CHECK(dist(png.rgb(L.x.to_px(1) - 0.3 * box_w, L.y.to_px(-7.354)), palette_rgb(0)) < 30);
  CHECK(dist(png.rgb(L.x.to_px(1) + (std::fmod(2 * 0.6180339887, 1.0) - 0.5) * 0.6 * box_w, L.y.to_px(8.807)),
             palette_rgb(0)) < 30);
  CHECK(dist(png.rgb(L.x.to_px(2), L.y.to_px(0)), palette_rgb(1)) < 30);
  CHECK_THROWS_WITH(variability_chart(ChartSpec{}, {{"broken", {0, 0, 1}}}, tmp("relative_bad.png"), true),
                    Catch::Contains("group 'broken' has median 0: values relative to their median need a positive"));
}

// The 2-core Zen 5's fresh-clone study of 2026-12-02 (the figure as drawn): DRAM 52.3 GB/s, BF16
// VDPBF16PS 870.9 and FP32 FMA 470.3 GFLOP/s, so ridges at 16.65 and 8.992 FLOP/B; MobileNetV2 bf16
// at 9.1 FLOP/B sits on the FP32 ridge's drop line, and the BF16 ridge's label holds the bottom to
// its right.
TEST_CASE("a ridge label with no room keeps inside the plot, said by its value alone", "[plotting]") {
  RooflineSpec spec;
  spec.roofs = {{"DRAM", 52.3}};
  ComputeCeiling gemm_bf16{"GEMM BF16 (2nd ceiling)", 839.1, true};
  ComputeCeiling gemm_fp32{"GEMM FP32 (reference: training points exceed it)", 190.6, true};
  gemm_fp32.reference = true;
  spec.ceilings = {{"BF16 VDPBF16PS", 870.9}, {"FP32 FMA", 470.3}, gemm_bf16, gemm_fp32};
  spec.points = {{4.8, 96, "bs16", "mobilenet_v2", "fp32"},  {4.7, 97, "bs32", "mobilenet_v2", "fp32"},
                 {4.6, 95, "bs64", "mobilenet_v2", "fp32"},  {9.1, 90, "bs16*", "mobilenet_v2", "bf16"},
                 {33, 300, "bs16", "resnet50", "fp32"},      {34, 305, "bs32", "resnet50", "fp32"},
                 {32, 298, "bs64*", "resnet50", "fp32"},     {60, 510, "bs16", "resnet50", "bf16"},
                 {110, 370, "bs16*", "vgg16", "fp32"},       {130, 360, "bs32", "vgg16", "fp32"},
                 {145, 375, "bs64* n=1", "vgg16", "fp32"},   {150, 700, "bs16", "vgg16", "bf16"}};
  spec.chart.width = 1100;  // the study's plot area, 720 pixels wide beside its wider legend
  const std::string path = tmp("ridge_label_left.png");
  const Layout L = roofline_chart(spec, path);
  Png png(path);
  // The ridge labels' grey (0x4D4D4D): none at the plot's left edge along the bottom (the FP32
  // ridge's long label was cut off there by the frame, "32 FMA ridge 8.99 FLOP/B"), and the short
  // label ("ridge 8.99 FLOP/B") beside the FP32 drop line, short of the BF16 one's label.
  const auto grey_pixels = [&](double x0, double x1, double y0) {
    int n = 0;
    for (double y = y0; y <= L.plot_y1 - 3; y += 1)
      for (double x = x0; x <= x1; x += 1)
        if (dist(png.rgb(x, y), 0x4D4D4D) < 30) ++n;
    return n;
  };
  CHECK(grey_pixels(L.plot_x0 + 1, L.plot_x0 + 6, L.plot_y1 - 30) == 0);
  const double fp32_ridge_px = L.x.to_px(470.3 / 52.3);
  CHECK(grey_pixels(L.x.to_px(4.5), fp32_ridge_px + 25, L.y.to_px(60)) > 100);
}
