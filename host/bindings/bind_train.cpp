// bind_train.cpp: rlx._core.train, the training run of engine/train. Reads and checks the options
// (each error names its option), creates a counters collector when asked, runs the trainer and
// returns its result as a table. Ctrl-C during a run throws util::Interrupted, which guarded turns
// into the error {exit_code = 130, message = "rlx: interrupted"} (lua_bind.h).
#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <regex>
#include <algorithm>

#include "counters/collector.h"
#include "counters/profiler_range.h"
#include "libtorch/tensor_library.h"
#include "lua_bind.h"
#include "models/complexity.h"
#include "registry.h"
#include "startup/startup.h"
#include "train/dataset.h"
#include "train/progress.h"
#include "train/trainer.h"
#include "util/cpu_stat.h"

namespace rlx::bindings {
namespace {

// A number option that must be > 0 (or >= 0 when zero is allowed).
double non_negative(const lua::Options& o, const char* key, double def, bool allow_zero) {
  const double v = o.number(key, def);
  if (!std::isfinite(v) || v < 0 || (!allow_zero && v == 0))
    o.fail(key, fmt::format("must be a number {} 0, got {}", allow_zero ? ">=" : ">", v));
  return v;
}

// A count of threads to start: above util::max_threads() it is refused with the limit named (the
// same words as for OMP_NUM_THREADS: engine/startup/startup.cpp).
int64_t thread_count(const lua::Options& o, const char* key, int64_t def) {
  const long long v = o.integer(key, def, 0);
  if (v > util::max_threads()) o.fail(key, util::too_many_threads(v));
  return v;
}

bool any_cuda_device() {
  for (const auto& d : startup::tensor_library().devices())
    if (d.value("kind", "") == "cuda") return true;
  return false;
}

// min_stable = true, or {drift = 0.05, cv = 0.25, max_extra = 2 x iters}: extend the timed
// section until steady (docs/training.md "Steady state").
void read_min_stable(lua_State* L, const lua::Options& o, train::TrainConfig& c) {
  const int type = o.push("min_stable");
  if (type == LUA_TTABLE) {
    lua::Options t = o.nested(lua_gettop(L), "min_stable", {"drift", "cv", "max_extra"});
    c.stability.max_drift = non_negative(t, "drift", c.stability.max_drift, false);
    c.stability.max_cv = non_negative(t, "cv", c.stability.max_cv, false);
    c.max_extra_iters = t.integer("max_extra", 0, 1);
    c.min_stable = true;
  }
  lua_pop(L, 1);
  if (type == LUA_TBOOLEAN || type == LUA_TNIL) c.min_stable = o.boolean("min_stable", false);
  else if (type != LUA_TTABLE)
    o.fail("min_stable", fmt::format("must be true, false or a table {{drift =, cv =, max_extra =}}, got a {}",
                                     lua_typename(L, type)));
}

// warmup = N or "auto" (until steady, max_warmup); target_ci with min_iters, max_iters and
// max_seconds (docs/training.md "Precision-targeted iterations"). With target_ci the warm-up
// defaults to "auto" and `iters` (a fixed count) is refused: the run decides its count.
void read_protocol(lua_State* L, const lua::Options& o, train::TrainConfig& c) {
  c.target_ci = o.has("target_ci") ? non_negative(o, "target_ci", 0, false) : 0;
  if (c.target_ci >= 1)
    o.fail("target_ci", fmt::format("must be a fraction below 1 (0.02 = +/-2 %), got {}", c.target_ci));
  const bool targeted = c.target_ci > 0;
  if (targeted && o.has("iters"))
    o.fail("iters",
           "is a fixed count; with target_ci the run measures until precise (bound it with max_iters, "
           "max_seconds)");
  for (const char* key : {"min_iters", "max_iters", "max_seconds"})
    if (!targeted && o.has(key)) o.fail(key, "applies with target_ci only (e.g. target_ci = 0.02)");
  c.iters = o.integer("iters", c.iters, 1);
  c.min_iters = o.integer("min_iters", c.min_iters, 2);
  c.max_iters = o.integer("max_iters", c.max_iters, 1);
  if (targeted && c.max_iters < c.min_iters)
    o.fail("max_iters", fmt::format("must be >= min_iters ({}), got {}", c.min_iters, c.max_iters));
  c.max_seconds = o.has("max_seconds") ? non_negative(o, "max_seconds", 0, false) : 0;
  const int type = o.push("warmup");
  const bool is_string = type == LUA_TSTRING;
  std::string text = is_string ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  if (is_string && text != "auto")
    o.fail("warmup",
           fmt::format("must be a number of iterations or \"auto\" (until steady), got \"{}\"", text));
  c.warmup_auto = is_string || (type == LUA_TNIL && targeted);
  if (!c.warmup_auto) c.warmup = o.integer("warmup", c.warmup, 0);
  if (!c.warmup_auto && o.has("max_warmup")) o.fail("max_warmup", "applies with warmup = \"auto\" only");
  c.max_warmup = o.integer("max_warmup", c.max_warmup, 1);
}

// Reads every option into a config; throws lua::Error naming the option.
train::TrainConfig read_config(lua_State* L, const lua::Options& o, bool& want_counters, std::vector<std::string>& groups) {
  train::TrainConfig c;
  // Scalars first, so `rlx.train{batch=0}` names batch even before the model is looked at.
  c.batch = o.integer("batch", c.batch, 1);
  read_protocol(L, o, c);
  c.device = o.str("device", c.device);
  static const std::regex device_re("^(cpu|auto|cuda|cuda:[0-9]+)$");
  if (!std::regex_match(c.device, device_re))
    o.fail("device", fmt::format("must be \"cpu\", \"cuda\", \"cuda:N\" or \"auto\", got \"{}\"", c.device));
  c.precision = o.choice("precision", c.precision, models::precision_names());
  c.data = o.str("data", c.data);
  if (c.data.empty()) o.fail("data", "must be \"synthetic\" or a dataset folder, got \"\"");
  c.augment = o.boolean("augment", c.augment);
  c.workers = thread_count(o, "workers", c.workers);
  c.prefetch = o.integer("prefetch", c.prefetch, 1);
  c.threads = thread_count(o, "threads", c.threads);
  if (o.has("memory_format"))  // absent: the model's default (channels_last for convolutional models)
    c.memory_format = o.choice("memory_format", "", models::memory_format_names());
  c.grad_accum = o.integer("grad_accum", c.grad_accum, 1);
  c.deterministic = o.boolean("deterministic", c.deterministic);
  c.cudnn_benchmark = o.boolean("cudnn_benchmark", c.cudnn_benchmark);
  c.nvtx = o.boolean("nvtx", c.nvtx);
  c.tf32 = o.boolean("tf32", c.tf32);
  c.cuda_graphs = o.boolean("cuda_graphs", c.cuda_graphs);
  c.ranks = o.integer("ranks", c.ranks, 1);
  c.rendezvous_port = o.integer("rendezvous_port", c.rendezvous_port, 0);
  c.lr = non_negative(o, "lr", c.lr, false);
  c.momentum = non_negative(o, "momentum", c.momentum, true);
  c.weight_decay = non_negative(o, "weight_decay", c.weight_decay, true);
  c.seed = o.integer("seed", c.seed, 0);
  c.input = o.opt_integer("input", 1).value_or(0);
  c.classes = o.opt_integer("classes", 1).value_or(0);
  c.label = o.str("label", "");
  c.progress = o.boolean("progress", train::ProgressBar::stderr_is_terminal());
  c.pin_memory = o.boolean("pin_memory", c.pin_memory);
  c.counter_iters = o.opt_integer("counter_iters", 0).value_or(-1);
  read_min_stable(L, o, c);

  const int ctype = o.push("counters");
  lua_pop(L, 1);
  if (ctype == LUA_TBOOLEAN) {
    want_counters = o.boolean("counters", false);
  } else if (ctype == LUA_TSTRING || ctype == LUA_TTABLE) {
    groups = o.str_list("counters");
    want_counters = true;
  } else if (ctype != LUA_TNIL) {
    o.fail("counters", fmt::format("must be true, false or a list of metric groups, got a {}",
                                   lua_typename(L, ctype)));
  }

  const int mtype = o.push("model");
  lua_pop(L, 1);
  if (mtype == LUA_TNIL)
    o.fail("model", "is required: a built-in name (rlx.model.list()) or a model table");
  if (mtype != LUA_TSTRING && mtype != LUA_TTABLE)
    o.fail("model", fmt::format("must be a model name or a model table, got a {}", lua_typename(L, mtype)));
  c.model = o.json("model");
  train::validate(c);
  return c;
}

nlohmann::json run_train(lua_State* L) {
  lua::Options o(
      L, 1, {"model",        "batch",         "iters",           "warmup",     "device",     "precision",
             "data",         "augment",       "workers",         "prefetch",   "threads",    "memory_format",
             "grad_accum",   "deterministic", "cudnn_benchmark", "nvtx",       "lr",         "momentum",
             "weight_decay", "seed",          "input",           "classes",    "label",      "counters",
             "progress",     "counter_iters", "pin_memory",      "min_stable", "target_ci",  "min_iters",
             "max_iters",    "max_seconds",   "max_warmup",      "tf32",       "cuda_graphs",
             "ranks",        "rendezvous_port"});
  bool want_counters = false;
  std::vector<std::string> groups;
  train::TrainConfig config = read_config(L, o, want_counters, groups);
  if (want_counters && config.cuda_graphs)
    o.fail("counters",
           "cannot be combined with cuda_graphs: rlx has not verified that its counters see the kernels of a "
           "replayed graph; count in a run without cuda_graphs");
  if (want_counters && config.ranks > 1)
    o.fail("counters", "are collected in one process, and ranks > 1 trains in several: count in a run with ranks=1");
  const std::string dev = config.device == "auto" ? (any_cuda_device() ? "cuda:0" : "cpu") : config.device;
  std::unique_ptr<counters::Collector> collector;
  if (want_counters) {
    try {
      collector = counters::make_collector(dev, groups);
    } catch (const std::invalid_argument& e) {
      throw lua::Error(fmt::format("option 'counters': {}", e.what()));
    }
  }
  if (collector && config.counter_iters == 0)
    o.fail("counter_iters", "must be >= 1 when counters are collected (they count the counted iterations)");
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
                        {"dataset", lua::guarded<dataset_fn>}});
}

}  // namespace rlx::bindings
