// model_spec.h: a CNN as plain data. The built-in models and the models users write in Lua are
// both a ModelSpec; the LibTorch module (torch_model.h) and the complexity estimate
// (complexity.h) are both computed from it, so training and complexity cannot disagree.
// The layer representation inside ModelSpec belongs to engine/models; other components only use
// the functions below.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rlx::models {

struct ModelSpec;  // defined in engine/models (layers, input size, classes, name)

// Names of the built-in models ("resnet18", ..., "alexnet").
std::vector<std::string> builtin_names();
// A built-in by name; throws std::invalid_argument naming the known models when unknown.
ModelSpec builtin(const std::string& name, int64_t classes = 1000, int64_t input = 224);
// A user model from its description (the Lua table converted to json); throws
// std::invalid_argument with a message naming the offending layer and field.
ModelSpec from_json(const nlohmann::json& description, int64_t classes = 1000, int64_t input = 224);

}  // namespace rlx::models
