// bind_roofline.cpp: rlx._core.roofline, the roofline arithmetic of engine/peaks/roofline.h in
// base units (FLOP, byte, second, FLOP/s, byte/s): the one owner of a point's attainable rate,
// ridge, bound and "above the roof" (every Lua module calls it). Resolving roofs from a peaks table by precision
// and memory level, and the per-run rows, are done in scripts/rlx/roofline/init.lua.
#include <cmath>

#include "lua_bind.h"
#include "peaks/roofline.h"
#include "registry.h"

namespace rlx::bindings {
namespace {

// A point's fields as a Lua table; flops, bytes and seconds only where they are known (not NaN).
void push_point(lua_State* L, const peaks::RooflinePoint& p, double flops, double bytes, double seconds,
                double peak_flops, double peak_bw) {
  nlohmann::json j = {{"ai", p.ai_flops_per_byte},
                      {"gflops", p.gflops},
                      {"attainable_gflops", p.attainable_gflops},
                      {"ridge_ai", p.ridge_ai},
                      {"bound", p.bound},
                      {"efficiency", p.efficiency},
                      {"above_roof", p.above_roof},
                      {"above_compute_roof", p.above_compute_roof},
                      {"above_memory_roof", p.above_memory_roof},
                      {"peak_gflops", peak_flops / 1e9},
                      {"peak_gbps", peak_bw / 1e9}};
  if (!std::isnan(flops)) j["flops"] = flops;
  if (!std::isnan(bytes)) j["bytes"] = bytes;
  if (!std::isnan(seconds)) j["seconds"] = seconds;
  lua::push_json(L, j);
}

// point{flops=, bytes=, seconds=, peak_flops=, peak_bw=} -> {ai, gflops, attainable_gflops,
// ridge_ai, bound, efficiency, above_roof}
int point(lua_State* L) {
  lua::Options o(L, 1, {"flops", "bytes", "seconds", "peak_flops", "peak_bw"});
  peaks::RooflineInput in;
  in.flops = o.required_number("flops");
  in.bytes = o.required_number("bytes");
  in.seconds = o.required_number("seconds");
  in.peak_flops = o.required_number("peak_flops");
  in.peak_bytes_per_s = o.required_number("peak_bw");
  if (in.flops < 0 || !std::isfinite(in.flops)) o.fail("flops", "must be a finite number >= 0 (FLOP)");
  if (in.bytes <= 0 || !std::isfinite(in.bytes)) o.fail("bytes", "must be a finite number > 0 (byte)");
  if (in.seconds <= 0 || !std::isfinite(in.seconds)) o.fail("seconds", "must be a finite number > 0 (s)");
  if (in.peak_flops <= 0 || !std::isfinite(in.peak_flops)) o.fail("peak_flops", "must be a finite number > 0 (FLOP/s)");
  if (in.peak_bytes_per_s <= 0 || !std::isfinite(in.peak_bytes_per_s)) {
    o.fail("peak_bw", "must be a finite number > 0 (byte/s)");
  }
  push_point(L, peaks::roofline_point(in), in.flops, in.bytes, in.seconds, in.peak_flops, in.peak_bytes_per_s);
  return 1;
}

// place{ai=, flops_per_s=, peak_flops=, peak_bw=} -> point's fields without flops, bytes and
// seconds: a point known by its intensity and rate (a group's means, a CSV row).
int place(lua_State* L) {
  lua::Options o(L, 1, {"ai", "flops_per_s", "peak_flops", "peak_bw"});
  const double ai = o.required_number("ai");
  const double attained = o.required_number("flops_per_s");
  const double pf = o.required_number("peak_flops");
  const double pb = o.required_number("peak_bw");
  if (ai < 0 || !std::isfinite(ai)) o.fail("ai", "must be a finite number >= 0 (FLOP/byte)");
  if (attained < 0 || !std::isfinite(attained)) o.fail("flops_per_s", "must be a finite number >= 0 (FLOP/s)");
  if (pf <= 0 || !std::isfinite(pf)) o.fail("peak_flops", "must be a finite number > 0 (FLOP/s)");
  if (pb <= 0 || !std::isfinite(pb)) o.fail("peak_bw", "must be a finite number > 0 (byte/s)");
  push_point(L, peaks::roofline_place(ai, attained, pf, pb), NAN, NAN, NAN, pf, pb);
  return 1;
}

// ridge(peak_flops, peak_bw) -> FLOP/byte: where the two roofs meet.
int ridge(lua_State* L) {
  lua_pushnumber(L, peaks::ridge_ai(lua::check_number(L, 1), lua::check_number(L, 2)));
  return 1;
}

// ceilings(peaks) -> array of {name, kind, label, value, unit}, compute roofs first, highest first.
int ceilings(lua_State* L) {
  if (lua_type(L, 1) != LUA_TTABLE) {
    throw lua::Error(std::string("expected a peaks table, got ") + lua::type_name(L, 1));
  }
  const nlohmann::json j = lua::to_json(L, 1, "peaks");
  std::vector<peaks::PeakField> fields;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.value().is_number()) fields.push_back({it.key(), it.value().get<double>()});
    }
  }
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : peaks::ceilings_from_fields(fields)) {
    out.push_back({{"name", c.name}, {"kind", c.kind}, {"label", c.label}, {"value", c.value},
                   {"unit", c.kind == "compute" ? "FLOP/s" : "byte/s"}});
  }
  lua::push_json(L, out);
  return 1;
}

// compute_fields(precision) -> candidate peaks fields, in order of preference.
int compute_fields(lua_State* L) {
  const std::string p = lua::check_string(L, 1);
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : peaks::compute_field_candidates(p)) out.push_back(f);
  lua::push_json(L, out);
  return 1;
}

// memory_field(level) -> "<level>_gbps"
int memory_field(lua_State* L) {
  const std::string level = lua::check_string(L, 1);
  const std::string f = peaks::memory_field(level);
  lua_pushlstring(L, f.data(), f.size());
  return 1;
}

// attainable(ai, peak_flops, peak_bw) -> FLOP/s: the roof at one intensity (for drawing).
int attainable(lua_State* L) {
  const double ai = lua::check_number(L, 1);
  const double pf = lua::check_number(L, 2);
  const double pb = lua::check_number(L, 3);
  lua_pushnumber(L, peaks::attainable_flops(ai, pf, pb));
  return 1;
}

}  // namespace

void open_roofline(lua_State* L) {
  lua::register_module(L, "roofline",
                       {{"point", lua::guarded<point>},
                        {"ceilings", lua::guarded<ceilings>},
                        {"compute_fields", lua::guarded<compute_fields>},
                        {"memory_field", lua::guarded<memory_field>},
                        {"attainable", lua::guarded<attainable>},
                        {"place", lua::guarded<place>},
                        {"ridge", lua::guarded<ridge>}});
}

}  // namespace rlx::bindings
