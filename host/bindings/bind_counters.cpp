// bind_counters.cpp: rlx._core.counters, the hardware counters of engine/counters: the Nsight
// Compute CSV import, what a device can measure (list, available), and measure, which runs a Lua
// function as the "measured iterations" of a collector (the trainer uses the same collectors
// through its observer hook). Conversions only; the logic is in engine/counters.
#include <stdexcept>

#include "counters/collector.h"
#include "counters/metrics.h"
#include "counters/ncu_import.h"
#include "lua_bind.h"
#include "util/coded_error.h"
#include "registry.h"

namespace rlx::bindings {
namespace {

// import_ncu(path) -> summary (engine/counters/ncu_import.h).
int import_ncu(lua_State* L) {
  const std::string path = lua::check_string(L, 1);
  lua::push_json(L, counters::import_ncu_file(path));
  return 1;
}

// seed_metrics() -> {{seed, current = {...}, formula, note}, ...}: seed 000's ncu metric list
// mapped to current names (engine/counters/metrics.h).
int seed_metrics(lua_State* L) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& m : counters::seed_metric_map())
    out.push_back({{"seed", m.seed}, {"current", m.current}, {"formula", m.formula}, {"note", m.note}});
  lua::push_json(L, out);
  return 1;
}

// Runs f and turns std::invalid_argument (bad device or group) into an error naming the option.
template <typename F>
auto with_option(const lua::Options& o, const char* key, F&& f) {
  try {
    return f();
  } catch (const std::invalid_argument& e) {
    o.fail(key, std::string("is invalid: ") + e.what());
  }
}

// list{device = "cpu", chip = nil} -> {device, source, available, reason, metrics = {...}, ...}
int list(lua_State* L) {
  auto o = lua::Options::optional(L, 1, {"device", "chip"});
  const std::string device = o.str("device", "cpu");
  const std::string chip = o.str("chip", "");
  const char* key = chip.empty() ? "device" : "chip";
  nlohmann::json j;
  try {
    j = counters::list_metrics(device, chip);
  } catch (const util::CodedError& e) {  // "unknown_chip": a chip CUPTI does not know
    o.fail(key, std::string("is invalid: ") + e.what(), e.code);
  } catch (const std::invalid_argument& e) {
    o.fail(key, std::string("is invalid: ") + e.what());
  } catch (const std::runtime_error& e) {
    o.fail(key, std::string("is invalid: ") + e.what());
  }
  lua::push_json(L, j);
  return 1;
}

// available(device = "cpu") -> {device, source, available, reason}
int available(lua_State* L) {
  std::string device = "cpu";
  if (!lua_isnoneornil(L, 1)) device = lua::check_string(L, 1);
  lua::push_json(L, counters::availability(device));
  return 1;
}

// measure(fn, {device = "cpu", groups = {...}, iters = 1}) -> collector result: fn() is called
// iters times, each call one measured iteration.
int measure(lua_State* L) {
  if (lua_type(L, 1) != LUA_TFUNCTION) {
    throw lua::Error(std::string("argument 1 must be the function to measure, got ") + lua::type_name(L, 1));
  }
  lua::Options o = lua::Options::optional(L, 2, {"device", "groups", "iters"});
  const std::string device = o.str("device", "cpu");
  const auto groups = o.str_list("groups");
  const int iters = static_cast<int>(o.integer("iters", 1, 1));
  auto collector = with_option(o, o.has("groups") ? "groups" : "device",
                               [&] { return counters::make_collector(device, groups); });
  collector->on_measured_begin(iters);
  for (int i = 0; i < iters; ++i) {
    collector->on_iteration_begin(i);
    lua_pushvalue(L, 1);
    if (lua_pcall(L, 0, 0, 0) != 0) {
      // Close the collector, then re-raise the function's error value unchanged (a Ctrl-C or
      // rlx.fail keeps its exit code; a script error keeps its position and fields).
      collector->on_iteration_end(i);
      collector->on_measured_end();
      throw lua::Rethrow();
    }
    collector->on_iteration_end(i);
  }
  collector->on_measured_end();
  lua::push_json(L, collector->result());
  return 1;
}

}  // namespace

void open_counters(lua_State* L) {
  lua::register_module(L, "counters",
                       {{"import_ncu", lua::guarded<import_ncu>},
                        {"list", lua::guarded<list>},
                        {"available", lua::guarded<available>},
                        {"measure", lua::guarded<measure>},
                        {"seed_metrics", lua::guarded<seed_metrics>}});
}

}  // namespace rlx::bindings
