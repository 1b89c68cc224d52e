// canvas.cpp: Cairo surfaces per format, palette, markers and text (see canvas.h).
#include "canvas.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace rlx::plot {

namespace {
// Okabe & Ito (2008), ordered so the first colours are the most distinct on white; the yellow,
// faint on white, comes late.
constexpr unsigned kPalette[] = {0x0072B2, 0xD55E00, 0x009E73, 0xE69F00, 0xCC79A7, 0x56B4E9, 0xF0E442, 0x000000};
constexpr Marker kMarkers[] = {Marker::Circle,   Marker::Square,       Marker::TriangleUp, Marker::Diamond,
                               Marker::TriangleDown, Marker::Pentagon, Marker::Hexagon,    Marker::Star};
}  // namespace

Color rgb(unsigned hex, double alpha) {
  return Color{((hex >> 16) & 0xFF) / 255.0, ((hex >> 8) & 0xFF) / 255.0, (hex & 0xFF) / 255.0, alpha};
}
unsigned palette_rgb(size_t i) { return kPalette[i % 8]; }
Color palette(size_t i) { return rgb(palette_rgb(i)); }
Marker marker(size_t i) { return kMarkers[i % 8]; }

const char* marker_name(Marker m) {
  switch (m) {
    case Marker::Circle: return "circle";
    case Marker::Square: return "square";
    case Marker::TriangleUp: return "triangle";
    case Marker::Diamond: return "diamond";
    case Marker::TriangleDown: return "triangle_down";
    case Marker::Pentagon: return "pentagon";
    case Marker::Hexagon: return "hexagon";
    case Marker::Star: return "star";
  }
  return "?";
}

Format format_for(const std::string& path) {
  const auto dot = path.find_last_of('.');
  std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ext == "png") return Format::Png;
  if (ext == "svg") return Format::Svg;
  if (ext == "pdf") return Format::Pdf;
  throw std::invalid_argument("cannot tell the image format of '" + path +
                              "': end the file name with .png, .svg or .pdf");
}

const char* format_name(Format f) { return f == Format::Png ? "png" : f == Format::Svg ? "svg" : "pdf"; }

Canvas::Canvas(const std::string& path, int width, int height, double dpi)
    : path_(path), width_(width), height_(height), dpi_(dpi), format_(format_for(path)) {
  if (width < 100 || height < 100 || width > 20000 || height > 20000)
    throw std::invalid_argument("figure size must be between 100 and 20000 pixels per side, got " +
                                std::to_string(width) + "x" + std::to_string(height));
  if (!(dpi >= 10 && dpi <= 2400)) throw std::invalid_argument("dpi must be between 10 and 2400");
  // Fail on an unwritable path before drawing anything, with the path in the message.
  out_ = std::make_unique<util::AtomicFile>(path, std::vector<std::string>{}, "figure");
  const double to_points = 72.0 / dpi;
  switch (format_) {
    case Format::Png: surface_ = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height); break;
    case Format::Svg:
      surface_ = cairo_svg_surface_create_for_stream(write_chunk, this, width * to_points, height * to_points);
      break;
    case Format::Pdf:
      surface_ = cairo_pdf_surface_create_for_stream(write_chunk, this, width * to_points, height * to_points);
      break;
  }
  if (cairo_surface_status(surface_) != CAIRO_STATUS_SUCCESS) {
    std::string why = cairo_status_to_string(cairo_surface_status(surface_));
    cairo_surface_destroy(surface_);
    throw std::runtime_error("cannot create figure '" + path + "': " + why);
  }
  cr_ = cairo_create(surface_);
  if (format_ != Format::Png) cairo_scale(cr_, to_points, to_points);
  cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap(cr_, CAIRO_LINE_CAP_BUTT);
  fill_rect(0, 0, width, height, Color{1, 1, 1, 1});
}

Canvas::~Canvas() {
  if (cr_) cairo_destroy(cr_);
  if (surface_) cairo_surface_destroy(surface_);
}

cairo_status_t Canvas::write_chunk(void* canvas, const unsigned char* data, unsigned int length) {
  auto* self = static_cast<Canvas*>(canvas);
  if (!self->write_error_.empty()) return CAIRO_STATUS_WRITE_ERROR;
  try {
    self->out_->write(std::string_view(reinterpret_cast<const char*>(data), length));
  } catch (const std::exception& e) {
    self->write_error_ = e.what();
    return CAIRO_STATUS_WRITE_ERROR;
  }
  return CAIRO_STATUS_SUCCESS;
}

void Canvas::finish() {
  if (finished_) return;
  finished_ = true;
  cairo_status_t st = cairo_status(cr_);
  if (st == CAIRO_STATUS_SUCCESS) {
    if (format_ == Format::Png) {
      st = cairo_surface_write_to_png_stream(surface_, write_chunk, this);
    } else {
      cairo_surface_finish(surface_);
      st = cairo_surface_status(surface_);
    }
  }
  if (!write_error_.empty()) throw std::runtime_error(write_error_);
  if (st != CAIRO_STATUS_SUCCESS)
    throw std::runtime_error("cannot write figure '" + path_ + "': " + cairo_status_to_string(st));
  out_->commit();
}

void Canvas::set_color(const Color& c) { cairo_set_source_rgba(cr_, c.r, c.g, c.b, c.a); }

void Canvas::set_line(double width_pt, bool dashed, bool dotted) {
  cairo_set_line_width(cr_, width_pt * pt());
  if (dashed) {
    const double d[] = {6 * pt(), 3.5 * pt()};
    cairo_set_dash(cr_, d, 2, 0);
  } else if (dotted) {
    const double d[] = {1.2 * pt(), 2.5 * pt()};
    cairo_set_dash(cr_, d, 2, 0);
  } else {
    cairo_set_dash(cr_, nullptr, 0, 0);
  }
}

void Canvas::line(double x0, double y0, double x1, double y1) {
  cairo_move_to(cr_, x0, y0);
  cairo_line_to(cr_, x1, y1);
  cairo_stroke(cr_);
}

void Canvas::fill_rect(double x, double y, double w, double h, const Color& c) {
  set_color(c);
  cairo_rectangle(cr_, x, y, w, h);
  cairo_fill(cr_);
}

namespace {
void polygon(cairo_t* cr, double x, double y, double r, int n, double rot_deg) {
  for (int i = 0; i < n; ++i) {
    const double a = (rot_deg + 360.0 * i / n) * M_PI / 180.0;
    const double px = x + r * std::cos(a), py = y - r * std::sin(a);
    if (i == 0) cairo_move_to(cr, px, py); else cairo_line_to(cr, px, py);
  }
  cairo_close_path(cr);
}
}  // namespace

void Canvas::draw_marker(Marker m, double x, double y, double size_pt, const Color& fill, const Color& edge,
                         bool filled) {
  // Shapes are scaled to roughly equal visual area, so no shape looks more important.
  const double r = size_pt * pt() / 2;
  cairo_new_path(cr_);
  switch (m) {
    case Marker::Circle: cairo_arc(cr_, x, y, r, 0, 2 * M_PI); break;
    case Marker::Square: cairo_rectangle(cr_, x - 0.88 * r, y - 0.88 * r, 1.76 * r, 1.76 * r); break;
    case Marker::TriangleUp: polygon(cr_, x, y + 0.2 * r, 1.3 * r, 3, 90); break;
    case Marker::TriangleDown: polygon(cr_, x, y - 0.2 * r, 1.3 * r, 3, -90); break;
    case Marker::Diamond: polygon(cr_, x, y, 1.25 * r, 4, 90); break;
    case Marker::Pentagon: polygon(cr_, x, y, 1.1 * r, 5, 90); break;
    case Marker::Hexagon: polygon(cr_, x, y, 1.05 * r, 6, 0); break;
    case Marker::Star:
      for (int i = 0; i < 10; ++i) {
        const double a = (90 + 36.0 * i) * M_PI / 180.0, rr = (i % 2 ? 0.55 : 1.35) * r;
        if (i == 0) cairo_move_to(cr_, x + rr * std::cos(a), y - rr * std::sin(a));
        else cairo_line_to(cr_, x + rr * std::cos(a), y - rr * std::sin(a));
      }
      cairo_close_path(cr_);
      break;
  }
  set_color(filled ? fill : Color{1, 1, 1, 1});
  cairo_fill_preserve(cr_);
  set_line(filled ? 0.8 : 1.6);
  set_color(edge);
  cairo_stroke(cr_);
}

void Canvas::select_font(double size_pt, bool bold) {
  // The toy API resolves "DejaVu Sans" through fontconfig (fonts-dejavu-core).
  cairo_select_font_face(cr_, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr_, size_pt * pt());
}

double Canvas::text_width(const std::string& s, double size_pt, bool bold) {
  select_font(size_pt, bold);
  cairo_text_extents_t te;
  cairo_text_extents(cr_, s.c_str(), &te);
  return te.x_advance;
}

double Canvas::text_height(double size_pt) {
  select_font(size_pt, false);
  cairo_font_extents_t fe;
  cairo_font_extents(cr_, &fe);
  return fe.ascent + fe.descent;
}

double Canvas::text(const std::string& s, double x, double y, double size_pt, HAlign h, VAlign v,
                    double angle_deg, bool bold, const Color& c) {
  return draw_text(s, x, y, size_pt, h, v, angle_deg, bold, c, false);
}

double Canvas::haloed_text(const std::string& s, double x, double y, double size_pt, HAlign h, VAlign v,
                           double angle_deg, bool bold, const Color& c) {
  return draw_text(s, x, y, size_pt, h, v, angle_deg, bold, c, true);
}

double Canvas::draw_text(const std::string& s, double x, double y, double size_pt, HAlign h, VAlign v,
                         double angle_deg, bool bold, const Color& c, bool halo) {
  select_font(size_pt, bold);
  cairo_text_extents_t te;
  cairo_text_extents(cr_, s.c_str(), &te);
  cairo_font_extents_t fe;
  cairo_font_extents(cr_, &fe);
  double dx = h == HAlign::Left ? 0 : h == HAlign::Center ? -te.x_advance / 2 : -te.x_advance;
  // Vertical placement uses the font's ascent/descent, not the glyphs', so labels line up.
  const double cap = fe.ascent * 0.72;
  double dy = v == VAlign::Baseline ? 0 : v == VAlign::Top ? cap : v == VAlign::Middle ? cap / 2 : -fe.descent;
  cairo_save(cr_);
  cairo_translate(cr_, x, y);
  cairo_rotate(cr_, -angle_deg * M_PI / 180.0);
  cairo_move_to(cr_, dx, dy);
  if (halo) {
    // The glyphs' outline stroked in white, 2.4 pt wide (1.2 pt each side), under the glyphs.
    cairo_text_path(cr_, s.c_str());
    set_color(Color{1, 1, 1, 1});
    cairo_set_line_width(cr_, 2.4 * pt());
    cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
    cairo_set_dash(cr_, nullptr, 0, 0);
    cairo_stroke(cr_);
    cairo_move_to(cr_, dx, dy);
  }
  set_color(c);
  cairo_show_text(cr_, s.c_str());
  cairo_new_path(cr_);
  cairo_restore(cr_);
  return te.x_advance;
}

}  // namespace rlx::plot
