// bind_peaks.cpp: rlx._core.peaks, the measured machine peaks of engine/peaks (measure.h, cpu.h).
// The datasheet and the user's own entries live in Lua (scripts/rlx/peaks/init.lua); this file only
// converts options and results.
#include <cmath>

#include "lua_bind.h"
#include "models/complexity.h"
#include "peaks/cpu.h"
#include "peaks/measure.h"
#include "registry.h"
#include "libtorch/tensor_library.h"

namespace rlx::bindings {
namespace {

// measure{device=, repeats=, quick=, threads=, only=, isa=, clock=, remeasure=, spread_limit_pct=}
// -> peaks table (see measure.h).
int measure(lua_State* L) {
  lua::Options o(L, 1,
                 {"device", "repeats", "quick", "threads", "only", "isa", "clock", "remeasure", "spread_limit_pct"});
  const std::string device = o.choice("device", "cpu", models::device_kind_names());
  peaks::MeasureOptions m;
  m.repeats = int(o.integer("repeats", 5, 1));
  m.quick = o.boolean("quick", false);
  m.threads = int(o.integer("threads", 0, 1));
  m.only = o.str_list("only");
  const auto& valid = device == "cpu" ? peaks::cpu_figures() : peaks::cuda_figures();
  for (const auto& f : m.only) {
    bool ok = false;
    for (const auto& v : valid) ok = ok || v == f;
    if (!ok) {
      std::string list;
      for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
      o.fail("only", "names unknown figure '" + f + "' for device " + device + " (valid: " + list + ")");
    }
  }
  m.isa = o.has("isa") ? o.choice("isa", "", {"avx512", "avx2+fma", "sve", "neon", "scalar"}) : "";
  if (device == "cuda" && o.has("isa")) o.fail("isa", "applies to device 'cpu' only");
  m.clock = o.choice("clock", "wall", {"cpu", "wall"});
  m.remeasure = int(o.integer("remeasure", 2, 0));
  m.spread_limit_pct = o.number("spread_limit_pct", 10);
  if (!(m.spread_limit_pct > 0) || !std::isfinite(m.spread_limit_pct)) {
    o.fail("spread_limit_pct", "must be a finite number > 0 (percent of the best repeat)");
  }
  if (device == "cuda" && (o.has("remeasure") || o.has("spread_limit_pct"))) {
    o.fail(o.has("remeasure") ? "remeasure" : "spread_limit_pct", "applies to device 'cpu' only");
  }
  // The GEMM figures time LibTorch's mm through the library loader, loaded only if one is asked for.
  m.cpu_gemm = [](const std::string& dtype, int n, int threads, int repeats, double target_s) {
    return startup::tensor_library().cpu_gemm(dtype, n, threads, repeats, target_s);
  };
  lua::push_json(L, device == "cpu" ? peaks::measure_cpu(m) : startup::tensor_library().measure_cuda(m));
  return 1;
}

// cpu_info() -> {name, isa, cores = {cpu ids, one per core}, caches = {{level, bytes, shared_by_cpus}},
// bf16 = {vector = "avx512_bf16"|"emulated", matrix = "amx"|""}, cuda_available}
int cpu_info(lua_State* L) {
  nlohmann::json j;
  j["name"] = peaks::cpu_model_name();
  j["isa"] = peaks::isa_name(peaks::detect_isa());
  j["cores"] = peaks::one_cpu_per_core();
  j["caches"] = nlohmann::json::array();
  for (const auto& c : peaks::cpu_caches()) {
    j["caches"].push_back({{"level", c.level}, {"bytes", c.bytes}, {"shared_by_cpus", c.shared_by_cpus}});
  }
  const peaks::Bf16Support bf16 = peaks::detect_bf16_support();
  j["bf16"] = {{"vector", bf16.vector}, {"matrix", bf16.matrix}};
  j["cuda_available"] = startup::tensor_library().cuda_available();
  lua::push_json(L, j);
  return 1;
}

// summarize(rates) -> {best, median, worst, spread_pct, repeats}: the statistic every figure uses.
int summarize(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const nlohmann::json j = lua::to_json(L, 1, "argument 1");
  std::vector<double> v;
  if (!j.is_array() || j.empty()) throw lua::Error("expected a non-empty array of numbers");
  for (const auto& x : j) {
    if (!x.is_number()) throw lua::Error("expected a non-empty array of numbers");
    v.push_back(x.get<double>());
  }
  lua::push_json(L, peaks::to_json(peaks::summarize(v)));
  return 1;
}

// contended_share() -> the CPU share below which a peak or a run was contended (one constant,
// engine/util/thread_cpu.h: rlx.roofline._quality reads it here instead of copying it).
int contended_share(lua_State* L) {
  lua_pushnumber(L, util::kContendedShare);
  return 1;
}

}  // namespace

void open_peaks(lua_State* L) {
  lua::register_module(L, "peaks",
                       {{"measure", lua::guarded<measure>},
                        {"cpu_info", lua::guarded<cpu_info>},
                        {"summarize", lua::guarded<summarize>},
                        {"contended_share", lua::guarded<contended_share>}});
}

}  // namespace rlx::bindings
