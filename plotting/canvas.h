// canvas.h: a Cairo drawing surface chosen by file extension (.png, .svg, .pdf), plus the small
// vocabulary every chart shares: colours (the Okabe-Ito colour-blind-safe palette), marker shapes,
// and text in DejaVu Sans with alignment and rotation.
//
// All drawing happens in pixel units of the figure (width x height). For PNG one unit is one
// pixel; for SVG and PDF the page is width/dpi x height/dpi inches and the same drawing is scaled,
// so one layout serves all three formats. Font sizes are given in points and converted with dpi.
#pragma once

#include <cairo.h>

#include <memory>
#include <string>

#include "util/atomic_file.h"

namespace rlx::plot {

struct Color {
  double r = 0, g = 0, b = 0, a = 1;
};

// Colour i of the Okabe-Ito palette (black last), cycling for i >= 8.
Color palette(size_t i);
// Palette entries as 0xRRGGBB, for tests that sample pixels.
unsigned palette_rgb(size_t i);
Color rgb(unsigned hex, double alpha = 1.0);

enum class Marker { Circle, Square, TriangleUp, Diamond, TriangleDown, Pentagon, Hexagon, Star };
Marker marker(size_t i);  // distinct shapes, cycling
const char* marker_name(Marker m);

enum class Format { Png, Svg, Pdf };
// Format from the path's extension (case-insensitive); throws naming the supported extensions.
Format format_for(const std::string& path);
const char* format_name(Format f);

enum class HAlign { Left, Center, Right };
enum class VAlign { Top, Middle, Baseline, Bottom };

class Canvas {
 public:
  // Opens a temporary file next to `path` now (so a bad directory fails before any drawing). The
  // figure replaces `path` only when finish() succeeds: a chart that fails half-way (a label too
  // long, a full disk) leaves the figure already at `path` as it was.
  Canvas(const std::string& path, int width, int height, double dpi);
  ~Canvas();
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  // Writes the file (PNG) or finishes the document (SVG/PDF), then renames it over the target;
  // throws on I/O errors naming the path and the cause.
  void finish();

  cairo_t* cr() { return cr_; }
  int width() const { return width_; }
  int height() const { return height_; }
  double dpi() const { return dpi_; }
  Format format() const { return format_; }
  // Pixels per point: a 10 pt font is 10 * pt() units tall.
  double pt() const { return dpi_ / 72.0; }

  void set_color(const Color& c);
  void set_line(double width_pt, bool dashed = false, bool dotted = false);
  void line(double x0, double y0, double x1, double y1);
  void fill_rect(double x, double y, double w, double h, const Color& c);
  // Marker of the given size (diameter in points) centred at (x, y): filled with `fill` when
  // filled, always outlined with `edge`.
  void draw_marker(Marker m, double x, double y, double size_pt, const Color& fill, const Color& edge,
                   bool filled = true);

  // Text in DejaVu Sans at `size_pt`; angle in degrees counter-clockwise. Returns the text width.
  double text(const std::string& s, double x, double y, double size_pt, HAlign h = HAlign::Left,
              VAlign v = VAlign::Baseline, double angle_deg = 0, bool bold = false,
              const Color& c = Color{0.1, 0.1, 0.1, 1});
  // The same text with a white halo around its glyphs: legible where it crosses lines and grid
  // (a roofline's labels sit among its roofs), hiding only the pixels next to its strokes.
  double haloed_text(const std::string& s, double x, double y, double size_pt, HAlign h = HAlign::Left,
                     VAlign v = VAlign::Baseline, double angle_deg = 0, bool bold = false,
                     const Color& c = Color{0.1, 0.1, 0.1, 1});
  // Width and height (ascent + descent of the font) of text without drawing it.
  double text_width(const std::string& s, double size_pt, bool bold = false);
  double text_height(double size_pt);

 private:
  void select_font(double size_pt, bool bold);
  double draw_text(const std::string& s, double x, double y, double size_pt, HAlign h, VAlign v,
                   double angle_deg, bool bold, const Color& c, bool halo);
  // Cairo's stream callback: appends to out_, remembering the first error's message.
  static cairo_status_t write_chunk(void* canvas, const unsigned char* data, unsigned int length);
  std::string path_;
  std::unique_ptr<util::AtomicFile> out_;
  std::string write_error_;
  int width_, height_;
  double dpi_;
  Format format_;
  cairo_surface_t* surface_ = nullptr;
  cairo_t* cr_ = nullptr;
  bool finished_ = false;
};

}  // namespace rlx::plot
