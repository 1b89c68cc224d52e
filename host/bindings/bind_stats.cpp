// bind_stats.cpp: rlx._core.stats, the statistics of engine/train/stats.h (the one owner of
// Student's t, the 95 % CI of a mean, percentiles and the steady-state verdict): rlx.stats checks
// its arguments in Lua and calls these, so a report, a frame and the trainer's precision target
// compute them alike.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lua_bind.h"
#include "registry.h"
#include "train/stats.h"

namespace rlx::bindings {
namespace {

// The numbers of the array at idx (rlx.stats has checked that every element is a number).
std::vector<double> samples_at(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) {
    throw lua::Error(std::string("expected an array of numbers, got ") + lua::type_name(L, idx));
  }
  const size_t n = lua_objlen(L, idx);
  std::vector<double> out;
  out.reserve(n);
  for (size_t i = 1; i <= n; ++i) {
    lua_rawgeti(L, idx, static_cast<int>(i));
    if (lua_type(L, -1) != LUA_TNUMBER) {
      const std::string got = lua::type_name(L, -1);
      lua_pop(L, 1);
      throw lua::Error("element " + std::to_string(i) + " must be a number, got " + got);
    }
    out.push_back(lua_tonumber(L, -1));
    lua_pop(L, 1);
  }
  return out;
}

// A NaN among the values makes every order statistic NaN (std::sort needs an order NaN has not).
bool has_nan(const std::vector<double>& xs) {
  return std::any_of(xs.begin(), xs.end(), [](double x) { return std::isnan(x); });
}

// t975(df) -> the two-sided 95 % critical value of Student's t (0 for df < 1).
int t975(lua_State* L) {
  lua_pushnumber(L, train::t975(lua::check_number(L, 1)));
  return 1;
}

// percentile(xs, p) -> the p-th percentile (p in [0, 100]), linear between order statistics.
int percentile(lua_State* L) {
  const std::vector<double> xs = samples_at(L, 1);
  const double p = lua::check_number(L, 2);
  lua_pushnumber(L, has_nan(xs) ? NAN : train::percentile(xs, p));
  return 1;
}

// ci95_half(xs) -> t975(n - 1) * sd / sqrt(n) (infinity for fewer than two values).
int ci95_half(lua_State* L) {
  lua_pushnumber(L, train::ci_half95(samples_at(L, 1)));
  return 1;
}

// summary(xs) -> {mean, sd, median, min, max, p5, p95} (zeros for no values; sd 0 below two).
int summary(lua_State* L) {
  const std::vector<double> xs = samples_at(L, 1);
  if (has_nan(xs)) {
    lua::push_json(
        L,
        {{"mean", NAN}, {"sd", NAN}, {"median", NAN}, {"min", NAN}, {"max", NAN}, {"p5", NAN}, {"p95", NAN}});
    return 1;
  }
  const train::Summary s = train::summarize(xs);
  lua::push_json(L, {{"mean", s.mean},
                     {"sd", s.sd},
                     {"median", s.median},
                     {"min", s.min},
                     {"max", s.max},
                     {"p5", s.p5},
                     {"p95", s.p95}});
  return 1;
}

// iters_for_ci(cv, ci, lo, hi) -> the least n in [lo, hi] with t975(n - 1) * cv / sqrt(n) <= ci,
// else hi (train::iters_for_ci): the timed iterations a plan gives a run.
int iters_for_ci(lua_State* L) {
  const double cv = lua::check_number(L, 1), ci = lua::check_number(L, 2);
  const auto lo = static_cast<int64_t>(lua::check_number(L, 3));
  const auto hi = static_cast<int64_t>(lua::check_number(L, 4));
  lua_pushnumber(L, static_cast<double>(train::iters_for_ci(cv, ci, lo, hi)));
  return 1;
}

// steady_state(xs [, max_drift [, max_cv]]) -> {drift, cv, stable, judged, drift_t, drift_significant,
// max_drift, max_cv} (nil thresholds: the trainer's defaults, train::StabilityRule):
// the trainer's steady-state verdict (docs/training.md "Steady state"), so a report that re-judges
// a run stored by an older rule applies the rule the trainer applies today.
int steady_state(lua_State* L) {
  const std::vector<double> xs = samples_at(L, 1);
  train::StabilityRule rule;
  if (!lua_isnoneornil(L, 2)) rule.max_drift = lua::check_number(L, 2);
  if (!lua_isnoneornil(L, 3)) rule.max_cv = lua::check_number(L, 3);
  const train::Stability s = train::steady_state(xs, rule);
  lua::push_json(L, {{"drift", s.drift},
                     {"cv", s.cv},
                     {"stable", s.stable},
                     {"judged", s.judged},
                     {"drift_t", s.drift_t},
                     {"drift_significant", s.drift_significant},
                     {"max_drift", rule.max_drift},
                     {"max_cv", rule.max_cv}});
  return 1;
}

}  // namespace

void open_stats(lua_State* L) {
  lua::register_module(L, "stats",
                       {{"t975", lua::guarded<t975>},
                        {"percentile", lua::guarded<percentile>},
                        {"ci95_half", lua::guarded<ci95_half>},
                        {"iters_for_ci", lua::guarded<iters_for_ci>},
                        {"summary", lua::guarded<summary>},
                        {"steady_state", lua::guarded<steady_state>}});
}

}  // namespace rlx::bindings
