// bind_train.cpp: rlx._core.train, the training run of engine/train. Converts the options to data
// for the engine's reader (engine/train/options.h: every check and default is there), creates a
// counters collector when asked, runs the trainer and returns its result as a table. Ctrl-C
// during a run throws util::Interrupted, which guarded turns into the error {exit_code = 130,
// message = "rlx: interrupted"} (lua_bind.h).
#include <fmt/format.h>

#include <memory>

#include "counters/collector.h"
#include "counters/profiler_range.h"
#include "libtorch/tensor_library.h"
#include "lua_bind.h"
#include "registry.h"
#include "startup/startup.h"
#include "train/dataset.h"
#include "train/options.h"
#include "train/trainer.h"

namespace rlx::bindings {
namespace {

bool any_cuda_device() {
  for (const auto& d : startup::tensor_library().devices())
    if (d.value("kind", "") == "cuda") return true;
  return false;
}

// The options as rlx.train was given them, as data: each value converted to json, a value data
// cannot hold (a function, a userdata) by its type's name, so the engine's refusal can name it.
// Which keys exist is the declarations' (train::option_names()); everything else is the engine's
// reader (train/options.h).
train::GivenOptions given_options(lua_State* L, const lua::Options& o) {
  train::GivenOptions given;
  for (const std::string& name : train::option_names()) {
    const int type = o.push(name.c_str());
    lua_pop(L, 1);
    if (type == LUA_TNIL) continue;
    if (type == LUA_TFUNCTION || type == LUA_TUSERDATA || type == LUA_TLIGHTUSERDATA || type == LUA_TTHREAD)
      given.opaque[name] = lua_typename(L, type);
    else
      given.values[name] = o.json(name.c_str());
  }
  return given;
}

nlohmann::json run_train(lua_State* L) {
  lua::Options o(L, 1, train::option_names());
  train::TrainRequest request = train::read_options(given_options(L, o));
  train::TrainConfig& config = request.config;
  const bool want_counters = request.counters;
  const std::vector<std::string>& groups = request.counter_groups;
  const std::string dev = config.device == "auto" ? (any_cuda_device() ? "cuda:0" : "cpu") : config.device;
  std::unique_ptr<counters::Collector> collector;
  if (want_counters) {
    try {
      collector = counters::make_collector(dev, groups);
    } catch (const std::invalid_argument& e) {
      throw lua::Error(fmt::format("option 'counters': {}", e.what()));
    }
  }
  // The counted iterations (after the timed ones) run inside cuProfilerStart/Stop on CUDA; without
  // counters they run only when asked (counter_iters) or when a profiler such as ncu is attached.
  counters::ProfilerRange profiler;
  train::ObserverList observers;
  const bool cuda = dev.rfind("cuda", 0) == 0;
  if (cuda) observers.add(&profiler);
  observers.add(collector.get());
  // Under ncu a run counts one iteration by itself, except a graphed one (no counted iterations).
  if (!collector && config.counter_iters < 0)
    config.counter_iters = cuda && !config.cuda_graphs && counters::cuda_tool_attached() ? 1 : 0;
  train::TrainResult result =
      startup::tensor_library().train(config, observers.empty() || config.ranks > 1 ? nullptr : &observers);
  nlohmann::json out = train::to_json(config, result);
  // What this process chose when it started (OpenMP waiting, huge pages, BLAS kernel, malloc), as
  // fields (engine/startup/startup.h): added here, so engine/train does not reach up into start-up.
  out["startup"] = startup::to_json(startup::current());
  if (collector && result.ok) out["counters"] = collector->result();
  if (cuda && result.ok && result.counter_iters > 0)
    out["profiler_range"] = profiler.why().empty() ? "cuProfilerStart/Stop around the counted iterations" : profiler.why();
  return out;
}

// train{...} -> result table (see docs/lua-api/train.md)
int train_fn(lua_State* L) {
  lua::push_json(L, run_train(L));
  return 1;
}

// devices() -> {{kind=, id=, name=, memory_bytes=, threads=}, ...}
int devices_fn(lua_State* L) {
  lua::push_json(L, startup::tensor_library().devices());
  return 1;
}

// check(options) -> true: a part of rlx.train's options (a sweep's protocol, before any run) read
// and checked as rlx.train would, without a model; raises what rlx.train would raise.
int check_fn(lua_State* L) {
  lua::Options o(L, 1, train::option_names());
  (void)train::read_options(given_options(L, o), /*partial=*/true);
  lua_pushboolean(L, 1);
  return 1;
}

// options() -> {{name =, type =, default =, min =, ...}, ...}: rlx.train's option declarations
// (engine/train/options.cpp), for rlx.train.OPTIONS.
int options_fn(lua_State* L) {
  lua::push_json(L, train::options_json());
  return 1;
}

// dataset(path) -> {kind, root, classes, images}: what a data source holds, opened as rlx.train
// would open it (a study checks data= before planning anything).
int dataset_fn(lua_State* L) {
  const std::string path = lua::check_string(L, 1);
  const std::unique_ptr<train::SampleSource> s = train::open_dataset(path);
  lua::push_json(L, {{"kind", s->kind()},
                     {"root", s->root()},
                     {"classes", s->classes()},
                     {"images", static_cast<long long>(s->size())}});
  return 1;
}

}  // namespace

void open_train(lua_State* L) {
  lua::register_module(L, "train",
                       {{"train", lua::guarded<train_fn>, "rlx.train"},
                        {"devices", lua::guarded<devices_fn>},
                        {"options", lua::guarded<options_fn>},
                        {"check", lua::guarded<check_fn>},
                        {"dataset", lua::guarded<dataset_fn>}});
}

}  // namespace rlx::bindings
