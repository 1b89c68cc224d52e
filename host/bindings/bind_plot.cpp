// bind_plot.cpp: rlx._core.plot, the Lua face of the Cairo chart library in plotting/.
//
// Converts option tables to the chart specs (checking every nested field so an error names the
// series or point and the fix), draws, and returns where things were drawn: the plot area in
// pixels and each axis's scale and range, from which scripts/rlx/plot.lua builds a px() method.
// The public wrappers (rlx.plot.*) in scripts/rlx/plot.lua add the conveniences (peaks tables,
// automatic arrows, colour-by-field) and pass plain roofs, ceilings, points and series here.
#include <cairo.h>
#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "charts.h"
#include "lua_bind.h"
#include "registry.h"
#include "sixel.h"
#include "util/make_dirs.h"

namespace rlx::bindings {
namespace {
using nlohmann::json;
using namespace rlx::plot;

const std::vector<std::string> kCommon = {"out", "title", "subtitle", "xlabel", "ylabel", "width", "height", "dpi",
                                          "xmin", "xmax", "ymin", "ymax", "legend", "grid"};

std::vector<std::string> keys(std::initializer_list<const char*> extra) {
  std::vector<std::string> k = kCommon;
  for (const char* e : extra) k.push_back(e);
  return k;
}

ChartSpec chart_spec(const lua::Options& o) {
  ChartSpec s;
  s.width = static_cast<int>(o.integer("width", 1200, 100));
  s.height = static_cast<int>(o.integer("height", 800, 100));
  s.dpi = o.number("dpi", 150);
  if (!(s.dpi >= 10 && s.dpi <= 2400)) o.fail("dpi", "must be a number between 10 and 2400, got " + std::to_string(s.dpi));
  s.title = o.str("title", "");
  s.subtitle = o.str("subtitle", "");
  s.xlabel = o.str("xlabel", "");
  s.ylabel = o.str("ylabel", "");
  s.xmin = o.opt_number("xmin");
  s.xmax = o.opt_number("xmax");
  s.ymin = o.opt_number("ymin");
  s.ymax = o.opt_number("ymax");
  s.legend = o.boolean("legend", true);
  s.grid = o.boolean("grid", true);
  return s;
}

// A json value that must be an array (an empty Lua table arrives as an empty object).
const json& array_of(const lua::Options& o, const json& j, const char* key, bool required = true) {
  static const json empty = json::array();
  if (j.is_null() && !required) return empty;
  if (j.is_object() && j.empty()) return empty;
  if (!j.is_array()) o.fail(key, "must be an array of tables, got " + std::string(j.is_null() ? "nil" : j.type_name()));
  return j;
}

double num(const lua::Options& o, const json& item, const std::string& where, const char* field, bool positive) {
  if (!item.contains(field) || !item[field].is_number())
    throw lua::Error(o.fname(),
                     where + " needs a number '" + field + "'" +
                         (item.contains(field) ? std::string(", got ") + item[field].type_name() : ""));
  const double v = item[field].get<double>();
  if (!std::isfinite(v) || (positive && !(v > 0)))
    throw lua::Error(o.fname(),
                     where + " field '" + field + "' must be a positive finite number, got " + si_label(v));
  return v;
}

// Text drawn by Cairo ends at a NUL byte: a label "a\0b" would show as "a" without a word.
const std::string& no_nul(const std::string& s, const std::string& what) {
  const size_t at = s.find('\0');
  if (at != std::string::npos)
    throw lua::Error(fmt::format(
        "{} contains a NUL byte (\\0) at byte {}, which would cut the text there: remove it", what, at + 1));
  return s;
}

// Field `field` of item (the table `where`) as text: strings as given, numbers as SI labels.
std::string text(const json& item, const char* field, const std::string& where) {
  if (!item.contains(field) || item[field].is_null()) return "";
  if (item[field].is_string())
    return no_nul(item[field].get<std::string>(), where + " field '" + field + "'");
  if (item[field].is_number()) return si_label(item[field].get<double>());
  if (item[field].is_boolean()) return item[field].get<bool>() ? "true" : "false";
  return "";
}

std::vector<double> numbers(const lua::Options& o, const json& item, const std::string& where, const char* field,
                            bool required) {
  std::vector<double> out;
  if (!item.contains(field) || item[field].is_null()) {
    if (required) throw lua::Error(o.fname(), where + " needs an array of numbers '" + field + "'");
    return out;
  }
  const json& a = item[field];
  if (a.is_object() && a.empty()) return out;
  if (!a.is_array())
    throw lua::Error(o.fname(), where + " field '" + field + "' must be an array of numbers");
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].is_number()) out.push_back(a[i].get<double>());
    else if (a[i].is_null()) out.push_back(NAN);
    else
      throw lua::Error(o.fname(), where + " field '" + field + "' element " + std::to_string(i + 1) +
                                      " must be a number, got " + a[i].type_name());
  }
  return out;
}

std::optional<Color> color_of(const lua::Options& o, const json& item, const std::string& where) {
  if (!item.contains("color")) return std::nullopt;
  const json& c = item["color"];
  if (c.is_number_integer() && c.get<long long>() >= 1) return palette(static_cast<size_t>(c.get<long long>() - 1));
  if (c.is_string()) {
    const std::string s = c.get<std::string>();
    unsigned v = 0;
    if (s.size() == 7 && s[0] == '#' && std::sscanf(s.c_str() + 1, "%6x", &v) == 1) return rgb(v);
  }
  throw lua::Error(o.fname(), where + " field 'color' must be \"#RRGGBB\" or a palette index >= 1");
}

std::optional<Marker> marker_of(const lua::Options& o, const json& item, const std::string& where) {
  if (!item.contains("marker")) return std::nullopt;
  const json& m = item["marker"];
  if (m.is_number_integer() && m.get<long long>() >= 1) return marker(static_cast<size_t>(m.get<long long>() - 1));
  std::string names;
  for (size_t i = 0; i < 8; ++i) {
    if (m.is_string() && m.get<std::string>() == marker_name(marker(i))) return marker(i);
    names += (i ? ", " : "") + std::string(marker_name(marker(i)));
  }
  throw lua::Error(o.fname(), where + " field 'marker' must be one of " + names + " (or an index >= 1)");
}

bool flag(const json& item, const char* field, bool def) {
  return item.contains(field) && item[field].is_boolean() ? item[field].get<bool>() : def;
}

// A series' `hollow`: true / false for every point, or an array of booleans, one per point.
std::vector<bool> hollow_flags(const lua::Options& o, const json& item, const std::string& where) {
  if (!item.contains("hollow") || item["hollow"].is_null()) return {};
  const json& h = item["hollow"];
  if (h.is_boolean()) return {h.get<bool>()};
  if (h.is_object() && h.empty()) return {};  // an empty Lua table
  std::vector<bool> out;
  if (h.is_array())
    for (const auto& b : h) {
      if (!b.is_boolean()) break;
      out.push_back(b.get<bool>());
    }
  if (!h.is_array() || out.size() != h.size())
    throw lua::Error(o.fname(), where + " field 'hollow' must be a boolean or an array of booleans (one per point)");
  return out;
}

std::vector<Series> read_series(const lua::Options& o) {
  const json j = o.json("series");
  if (j.is_null())
    throw lua::Error(o.fname(), "option 'series' is required (an array of {label=, x=, y=, sd=})");
  const json& arr = array_of(o, j, "series");
  if (arr.empty()) throw lua::Error(o.fname(), "option 'series' is empty: give at least one series");
  std::vector<Series> out;
  for (size_t k = 0; k < arr.size(); ++k) {
    const json& it = arr[k];
    const std::string where = "series[" + std::to_string(k + 1) + "]";
    if (!it.is_object()) throw lua::Error(o.fname(), where + " must be a table {label=, x=, y=, sd=}");
    Series s;
    s.label = text(it, "label", where);
    s.x = numbers(o, it, where, "x", true);
    s.y = numbers(o, it, where, "y", true);
    s.sd = numbers(o, it, where, "sd", false);
    if (it.contains("labels") && it["labels"].is_array())
      for (const auto& l : it["labels"])
        s.point_labels.push_back(l.is_string() ? no_nul(l.get<std::string>(), where + " field 'labels'")
                                               : l.dump());
    s.color = color_of(o, it, where);
    s.marker = marker_of(o, it, where);
    s.line = flag(it, "line", true);
    s.markers = flag(it, "markers", true);
    s.dashed = flag(it, "dashed", false);
    s.hollow = hollow_flags(o, it, where);
    s.labels_below = flag(it, "labels_below", false);
    out.push_back(std::move(s));
  }
  return out;
}

// Runs a chart call; its errors carry fname, the public function that drew (rlx.plot.scatter draws
// through line): the chart's own messages name no function.
template <typename F>
Layout draw(const std::string& fname, F&& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    throw lua::Error(fname, e.what());
  }
}

void push_axis(lua_State* L, const Axis& a) {
  lua_createtable(L, 0, 5);
  lua_pushstring(L, a.scale() == Scale::Log10 ? "log" : "linear");
  lua_setfield(L, -2, "scale");
  lua_pushnumber(L, a.lo());
  lua_setfield(L, -2, "min");
  lua_pushnumber(L, a.hi());
  lua_setfield(L, -2, "max");
  lua_pushnumber(L, a.px_lo());
  lua_setfield(L, -2, "px_min");
  lua_pushnumber(L, a.px_hi());
  lua_setfield(L, -2, "px_max");
}

int push_layout(lua_State* L, const Layout& lay) {
  json j = {{"out", lay.path},
            {"format", format_name(lay.format)},
            {"width", lay.width},
            {"height", lay.height},
            {"plot", {{"x0", lay.plot_x0}, {"y0", lay.plot_y0}, {"x1", lay.plot_x1}, {"y1", lay.plot_y1}}}};
  lua::push_json(L, j);
  push_axis(L, lay.x);
  lua_setfield(L, -2, "x");
  push_axis(L, lay.y);
  lua_setfield(L, -2, "y");
  return 1;
}

Scale scale_of(const lua::Options& o, const char* key) {
  return o.choice(key, "linear", {"linear", "log"}) == "log" ? Scale::Log10 : Scale::Linear;
}

int roofline(lua_State* L) {
  lua::Options o(L, 1, keys({"roofs", "ceilings", "points", "arrows", "color_title", "shape_title"}));
  RooflineSpec spec;
  spec.chart = chart_spec(o);
  const std::string out = o.required_str("out");
  spec.color_title = o.str("color_title", "model");
  spec.shape_title = o.str("shape_title", "precision");
  const json roofs = o.json("roofs"), ceilings = o.json("ceilings"), points = o.json("points"), arrows = o.json("arrows");
  if (roofs.is_null()) o.fail("roofs", "is required (an array of {label=, gbps=})");
  if (ceilings.is_null()) o.fail("ceilings", "is required (an array of {label=, gflops=})");
  const json& ra = array_of(o, roofs, "roofs");
  for (size_t i = 0; i < ra.size(); ++i)
    spec.roofs.push_back({text(ra[i], "label", "roofs[" + std::to_string(i + 1) + "]"),
                          num(o, ra[i], "roofs[" + std::to_string(i + 1) + "]", "gbps", true)});
  const json& ca = array_of(o, ceilings, "ceilings");
  for (size_t i = 0; i < ca.size(); ++i)
    spec.ceilings.push_back({text(ca[i], "label", "ceilings[" + std::to_string(i + 1) + "]"),
                             num(o, ca[i], "ceilings[" + std::to_string(i + 1) + "]", "gflops", true),
                             flag(ca[i], "secondary", false), flag(ca[i], "reference", false)});
  const json& pa = array_of(o, points, "points", false);
  for (size_t i = 0; i < pa.size(); ++i) {
    const std::string where = "points[" + std::to_string(i + 1) + "]";
    if (!pa[i].is_object())
      throw lua::Error(o.fname(), where + " must be a table {ai=, gflops=, label=, ...}");
    spec.points.push_back({num(o, pa[i], where, "ai", true), num(o, pa[i], where, "gflops", true),
                           text(pa[i], "label", where), text(pa[i], "color_key", where),
                           text(pa[i], "shape_key", where),
                           pa[i].contains("roof_gflops") ? num(o, pa[i], where, "roof_gflops", true) : 0,
                           pa[i].contains("roof_gbps") ? num(o, pa[i], where, "roof_gbps", true) : 0,
                           pa[i].contains("ai_lo") ? num(o, pa[i], where, "ai_lo", true) : 0,
                           pa[i].contains("ai_hi") ? num(o, pa[i], where, "ai_hi", true) : 0});
  }
  const json& aa = array_of(o, arrows, "arrows", false);
  for (size_t i = 0; i < aa.size(); ++i) {
    const std::string where = "arrows[" + std::to_string(i + 1) + "]";
    const double from = num(o, aa[i], where, "from", true), to = num(o, aa[i], where, "to", true);
    if (from > static_cast<double>(spec.points.size()) || to > static_cast<double>(spec.points.size()) ||
        from != std::floor(from) || to != std::floor(to))
      throw lua::Error(o.fname(), where + " must name points 1.." + std::to_string(spec.points.size()));
    spec.arrows.push_back({static_cast<size_t>(from) - 1, static_cast<size_t>(to) - 1});
  }
  push_layout(L, draw(o.fname(), [&] { return roofline_chart(spec, out); }));
  // Which points were drawn as above the roof, and the ridge, for the caller's report.
  lua_createtable(L, static_cast<int>(spec.points.size()), 0);
  for (size_t i = 0; i < spec.points.size(); ++i) {
    lua_pushboolean(L, above_roof(spec, spec.points[i]));
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
  lua_setfield(L, -2, "above_roof");
  lua_pushnumber(L, ridge_ai(spec));
  lua_setfield(L, -2, "ridge_ai");
  return 1;
}

int throughput(lua_State* L) {
  lua::Options o(L, 1, keys({"series", "yscale"}));
  ChartSpec spec = chart_spec(o);
  spec.yscale = scale_of(o, "yscale");
  const std::string out = o.required_str("out");
  const auto series = read_series(o);
  return push_layout(L, draw(o.fname(), [&] { return throughput_chart(spec, series, out); }));
}

// line(opts [, fname]): fname is the public function whose name the errors carry (rlx.plot.scatter
// and rlx.plot.ai_vs_batch draw through here); rlx.plot.line by default.
int line(lua_State* L) {
  const int name_type = lua_type(L, 2);
  if (name_type != LUA_TNONE && name_type != LUA_TNIL && name_type != LUA_TSTRING)
    throw lua::Error(std::string("argument 2 must be the caller's name (a string), got ") +
                     lua::type_name(L, 2));
  const std::string fname = name_type == LUA_TSTRING ? lua_tostring(L, 2) : lua::fn_name(L);
  lua::Options o(L, 1, fname, keys({"series", "xscale", "yscale", "xticks", "yticks", "kind"}));
  ChartSpec spec = chart_spec(o);
  const std::string out = o.required_str("out");
  spec.xscale = scale_of(o, "xscale");
  spec.yscale = scale_of(o, "yscale");
  auto series = read_series(o);
  if (o.choice("kind", "line", {"line", "scatter"}) == "scatter")
    for (auto& s : series) s.line = false;
  if (o.has("xticks")) {
    const json xt = o.json("xticks");
    spec.xticks = numbers(o, json{{"xticks", xt}}, "option", "xticks", true);
  }
  if (o.has("yticks")) {
    const json yt = o.json("yticks");
    spec.yticks = numbers(o, json{{"yticks", yt}}, "option", "yticks", true);
  }
  return push_layout(L, draw(o.fname(), [&] { return line_chart(spec, series, out); }));
}

int variability(lua_State* L) {
  lua::Options o(L, 1, keys({"groups", "yscale", "relative"}));
  ChartSpec spec = chart_spec(o);
  spec.yscale = scale_of(o, "yscale");
  const bool relative = o.boolean("relative", false);
  const std::string out = o.required_str("out");
  const json g = o.json("groups");
  if (g.is_null()) o.fail("groups", "is required (an array of {label=, values={...}})");
  const json& ga = array_of(o, g, "groups");
  std::vector<Group> groups;
  for (size_t i = 0; i < ga.size(); ++i) {
    const std::string where = "groups[" + std::to_string(i + 1) + "]";
    if (!ga[i].is_object()) throw lua::Error(o.fname(), where + " must be a table {label=, values={...}}");
    groups.push_back({text(ga[i], "label", where), numbers(o, ga[i], where, "values", true)});
  }
  return push_layout(L, draw(o.fname(), [&] { return variability_chart(spec, groups, out, relative); }));
}

// pixel(path, x, y) -> "#rrggbb": the colour of one pixel of a PNG (for tests and checks).
int pixel(lua_State* L) {
  const std::string path = lua::check_string(L, 1);
  const double x = lua::check_number(L, 2), y = lua::check_number(L, 3);
  cairo_surface_t* s = cairo_image_surface_create_from_png(path.c_str());
  if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
    cairo_surface_destroy(s);
    throw lua::Error("cannot read PNG '" + path + "': give the path of a PNG file");
  }
  const int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
  const int xi = static_cast<int>(x), yi = static_cast<int>(y);
  if (xi < 0 || yi < 0 || xi >= w || yi >= h) {
    cairo_surface_destroy(s);
    throw lua::Error("(" + std::to_string(xi) + ", " + std::to_string(yi) + ") is outside the " +
                     std::to_string(w) + "x" + std::to_string(h) + " image");
  }
  cairo_surface_flush(s);
  const auto* row = reinterpret_cast<const uint32_t*>(cairo_image_surface_get_data(s) + yi * cairo_image_surface_get_stride(s));
  const unsigned v = row[xi] & 0xFFFFFF;
  cairo_surface_destroy(s);
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%06x", v);
  lua_pushstring(L, buf);
  lua_pushinteger(L, w);
  lua_pushinteger(L, h);
  return 3;
}

// palette() -> {"#0072b2", ...}: the colours charts use, in order.
int palette_colors(lua_State* L) {
  lua_createtable(L, 8, 0);
  for (int i = 0; i < 8; ++i) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "#%06x", palette_rgb(i));
    lua_pushstring(L, buf);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

int ticks(lua_State* L) {
  lua::Options o(L, 1, {"scale", "min", "max"});
  const Scale sc = scale_of(o, "scale");
  const double lo = o.required_number("min"), hi = o.required_number("max");
  // The axis's own checks, worded for the caller: which option is wrong and what to give instead.
  if (!std::isfinite(lo)) o.fail("min", fmt::format("must be a finite number, got {}", lo));
  if (!std::isfinite(hi)) o.fail("max", fmt::format("must be a finite number, got {}", hi));
  if (!(lo < hi))
    throw lua::Error(fmt::format("option 'min' must be less than 'max', got min {} and max {} ({})", lo, hi,
                                 lo > hi ? "swap them" : "widen the range"));
  if (sc == Scale::Log10 && !(lo > 0))
    throw lua::Error(
        fmt::format("a log axis needs min > 0, got min {} (give a positive min, or scale = \"linear\")", lo));
  const Axis a(sc, lo, hi);
  lua_newtable(L);
  int i = 0;
  for (const auto& t : a.major_ticks()) {
    lua_createtable(L, 0, 2);
    lua_pushnumber(L, t.value);
    lua_setfield(L, -2, "value");
    lua_pushstring(L, t.label.c_str());
    lua_setfield(L, -2, "label");
    lua_rawseti(L, -2, ++i);
  }
  return 1;
}
// mkdir(path): creates a directory and its parents (figure directories) by util::make_directories,
// the one way rlx makes a folder; true when it exists.
int make_dir(lua_State* L) {
  const std::string path = lua::check_string(L, 1);
  if (const auto failed = util::make_directories(path))
    throw lua::Error("cannot create directory '" + path + "': " + failed->error.message());
  lua_pushboolean(L, 1);
  return 1;
}

// sixel(path, max_width) -> the PNG as sixel text (plotting/sixel.h), for inline display.
int sixel(lua_State* L) {
  const std::string path = lua::check_string(L, 1);
  const double max_width = lua::check_number(L, 2);
  std::string text;
  try {
    text = sixel_from_png(path, static_cast<int>(max_width));
  } catch (const std::runtime_error& e) {
    throw lua::Error(std::string(e.what()) + ": give the path of a PNG file");
  }
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}
}  // namespace

void open_plot(lua_State* L) {
  lua::register_module(L, "plot",
                       {{"roofline", lua::guarded<roofline>},
                        {"throughput", lua::guarded<throughput>},
                        {"line", lua::guarded<line>},
                        {"variability", lua::guarded<variability>},
                        {"pixel", lua::guarded<pixel>},
                        {"palette", lua::guarded<palette_colors>},
                        {"ticks", lua::guarded<ticks>},
                        {"mkdir", lua::guarded<make_dir>},
                        {"sixel", lua::guarded<sixel>}});
}

}  // namespace rlx::bindings
