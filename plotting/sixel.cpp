// sixel.cpp: see sixel.h. The format (DEC VT340 / xterm "Sixel Graphics"): after ESC P q, a
// sixel character 63 + b encodes six vertical pixels of one column (bit 0 at the top); "#n"
// selects colour register n, "!k c" repeats c k times, "$" returns to the start of the band and
// "-" moves to the next band of six rows. ESC \ ends the image.
#include "sixel.h"

#include <cairo.h>
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace rlx::plot {

namespace {

// 0..255 -> 0..5, rounded to the nearest level.
int level(uint32_t c) {
  return static_cast<int>((c * 5 + 127) / 255);
}

// Appends a run of `count` identical sixel characters, compressed when that is shorter.
void put_run(std::string& out, char c, int count) {
  if (count <= 3) {
    out.append(static_cast<size_t>(count), c);
  } else {
    out += fmt::format("!{}{}", count, c);
  }
}

}  // namespace

int sixel_register(uint32_t rgb) {
  return level((rgb >> 16) & 0xFF) * 36 + level((rgb >> 8) & 0xFF) * 6 + level(rgb & 0xFF);
}

std::string sixel_encode(const Pixels& px) {
  std::string out = fmt::format("\x1bPq\"1;1;{};{}", px.width, px.height);
  std::vector<int> reg(px.rgb.size());
  std::vector<bool> used(216, false);
  for (size_t i = 0; i < px.rgb.size(); ++i)
    used[static_cast<size_t>(reg[i] = sixel_register(px.rgb[i]))] = true;
  for (int r = 0; r < 216; ++r) {
    if (!used[static_cast<size_t>(r)]) continue;
    // Registers are defined in percent (0..100) per channel.
    out += fmt::format("#{};2;{};{};{}", r, r / 36 * 20, r / 6 % 6 * 20, r % 6 * 20);
  }
  std::vector<char> line(static_cast<size_t>(px.width));
  for (int top = 0; top < px.height; top += 6) {
    const int rows = std::min(6, px.height - top);
    bool first = true;
    for (int r = 0; r < 216; ++r) {
      bool any = false;
      for (int x = 0; x < px.width; ++x) {
        int bits = 0;
        for (int k = 0; k < rows; ++k)
          if (reg[static_cast<size_t>((top + k) * px.width + x)] == r) bits |= 1 << k;
        line[static_cast<size_t>(x)] = static_cast<char>(63 + bits);
        any = any || bits != 0;
      }
      if (!any) continue;
      if (!first) out += '$';
      first = false;
      out += fmt::format("#{}", r);
      int x = 0;
      while (x < px.width) {
        int end = x;
        while (end < px.width && line[static_cast<size_t>(end)] == line[static_cast<size_t>(x)]) ++end;
        put_run(out, line[static_cast<size_t>(x)], end - x);
        x = end;
      }
    }
    out += '-';
  }
  out += "\x1b\\";
  return out;
}

std::string sixel_from_png(const std::string& path, int max_width) {
  cairo_surface_t* src = cairo_image_surface_create_from_png(path.c_str());
  if (cairo_surface_status(src) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(src);
    throw std::runtime_error("cannot read PNG '" + path + "'");
  }
  const int w0 = cairo_image_surface_get_width(src), h0 = cairo_image_surface_get_height(src);
  const double scale = max_width > 0 && w0 > max_width ? static_cast<double>(max_width) / w0 : 1.0;
  const int w = std::max(1, static_cast<int>(w0 * scale)), h = std::max(1, static_cast<int>(h0 * scale));
  cairo_surface_t* dst = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
  cairo_t* cr = cairo_create(dst);
  cairo_set_source_rgb(cr, 1, 1, 1);  // transparent parts become white
  cairo_paint(cr);
  cairo_scale(cr, scale, scale);
  cairo_set_source_surface(cr, src, 0, 0);
  cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
  cairo_paint(cr);
  cairo_destroy(cr);
  cairo_surface_flush(dst);
  Pixels px{w, h, std::vector<uint32_t>(static_cast<size_t>(w) * static_cast<size_t>(h))};
  const unsigned char* data = cairo_image_surface_get_data(dst);
  const int stride = cairo_image_surface_get_stride(dst);
  for (int y = 0; y < h; ++y) {
    const auto* row = reinterpret_cast<const uint32_t*>(data + y * stride);
    for (int x = 0; x < w; ++x) px.rgb[static_cast<size_t>(y * w + x)] = row[x] & 0xFFFFFF;
  }
  cairo_surface_destroy(dst);
  cairo_surface_destroy(src);
  return sixel_encode(px);
}

}  // namespace rlx::plot
