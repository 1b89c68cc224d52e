// bind_model.cpp: rlx._core.model, the model zoo and complexity estimate of engine/models. Reads
// options, turns the `model` option (a name or a Lua model table) into a ModelSpec and returns
// the summary as a table; everything else is in engine/models.
#include "lua_bind.h"
#include "models/complexity.h"
#include "models/model_spec.h"
#include "registry.h"

namespace rlx::bindings {
namespace {

// list() -> {"resnet18", ...}
int list(lua_State* L) {
  lua::push_json(L, models::builtin_names());
  return 1;
}

// summary{model=, batch=1, input=224, classes=1000, precision="fp32", layers=true} -> table
int summary(lua_State* L) {
  lua::Options o(L, 1, {"model", "batch", "input", "classes", "precision", "layers"});
  if (!o.has("model"))
    o.fail("model", "is required: a built-in name (rlx.model.list()) or a model table");
  const int type = o.push("model");
  lua_pop(L, 1);
  if (type != LUA_TSTRING && type != LUA_TTABLE)
    o.fail("model", std::string("must be a model name or a model table, got a ") +
                        lua_typename(L, type));
  const nlohmann::json model = o.json("model");
  const int64_t batch = o.integer("batch", 1, 1);
  const int64_t input = o.integer("input", 224, 1);
  const int64_t classes = o.integer("classes", 1000, 1);
  const std::string precision = o.choice("precision", "fp32", models::precision_names());
  const bool layers = o.boolean("layers", true);
  const models::ModelSpec spec = models::from_option(model, classes, input);
  lua::push_json(L,
                 models::to_json(models::summarize(spec, batch, models::parse_precision(precision)), layers));
  return 1;
}

// precisions() -> {"fp32", "amp", "bf16"}; memory_formats() -> {"channels_last", "contiguous"};
// device_kinds() -> {"cpu", "cuda"}: every precision, layout and kind of device rlx knows
// (models::precision_names, models::memory_format_names, models::device_kind_names).
int precisions(lua_State* L) {
  lua::push_json(L, models::precision_names());
  return 1;
}

int memory_formats(lua_State* L) {
  lua::push_json(L, models::memory_format_names());
  return 1;
}

int device_kinds(lua_State* L) {
  lua::push_json(L, models::device_kind_names());
  return 1;
}

}  // namespace

void open_model(lua_State* L) {
  lua::register_module(L, "model",
                       {{"list", lua::guarded<list>},
                        {"summary", lua::guarded<summary>},
                        {"precisions", lua::guarded<precisions>},
                        {"memory_formats", lua::guarded<memory_formats>},
                        {"device_kinds", lua::guarded<device_kinds>}});
}

}  // namespace rlx::bindings
