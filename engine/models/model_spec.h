// model_spec.h: a CNN as plain data. The built-in models and the models users write in Lua are
// both a ModelSpec; the LibTorch module (torch_model.h) and the complexity estimate
// (complexity.h) are both computed from it, so training and complexity cannot disagree.
// No LibTorch here: this header is cheap to include everywhere.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace rlx::models {

enum class LayerKind {
  conv,              // Conv2d: out channels, kernel, stride, pad, groups, bias
  batchnorm,         // BatchNorm2d (on C,H,W) or BatchNorm1d (on features)
  relu,
  relu6,
  maxpool,           // kernel, stride, pad (floor mode)
  avgpool,           // kernel, stride, pad (padding counted in the divisor, as PyTorch)
  adaptive_avgpool,  // out = output side
  linear,            // out features (0 = the model's classes), bias
  dropout,           // p
  flatten,           // (C,H,W) -> (C*H*W)
  sequential,        // body, run in order
  residual,          // body(x) + projection(x) (identity when projection is empty), then `after`
};

// Name used in Lua tables, JSON and tables ("conv", "bn", "relu", ...).
const char* kind_name(LayerKind kind);

// One layer or block. Fields that a kind does not use keep their defaults.
struct Layer {
  LayerKind kind = LayerKind::relu;
  std::string name;   // unique among siblings; becomes the LibTorch submodule name
  std::string where;  // where the layer was written ("layers[3].body[2]"), for error messages
  int64_t out = 0;    // conv: out channels; linear: out features (0 = classes); adaptive pool: side
  int64_t kernel = 1, stride = 1, pad = 0, groups = 1;
  bool bias = false;                   // conv and linear
  double p = 0.5;                      // dropout probability
  double eps = 1e-5, momentum = 0.1;   // batchnorm
  bool trainable = true;               // false: parameters frozen (requires_grad = false)
  std::vector<Layer> body;             // sequential children, residual main branch
  std::vector<Layer> projection;       // residual shortcut ("downsample"); empty = identity
  LayerKind after = LayerKind::flatten;  // residual: relu/relu6 after the add; flatten = none
};

// Initialisation rules (torchvision's, per model family).
enum class ConvInit { torch_default, kaiming_fan_out };  // kaiming: normal, fan_out, relu gain; bias 0
enum class LinearInit { torch_default, normal_001 };    // normal(0, 0.01), bias 0

struct ModelSpec {
  std::string name;
  int64_t input = 224;   // square input side in pixels
  int64_t classes = 1000;
  int64_t channels = 3;
  std::vector<Layer> layers;
  ConvInit conv_init = ConvInit::kaiming_fan_out;
  LinearInit linear_init = LinearInit::torch_default;
};

// Per-image tensor shape: {C, H, W} for feature maps, {F} after flatten.
using Shape = std::vector<int64_t>;
std::string shape_string(const Shape& s);  // "64x56x56"

// Output shape of one layer (recursing into blocks) for an input shape; throws
// std::invalid_argument naming the layer (its `where`) and the fix when the layer cannot apply.
Shape output_shape(const Layer& layer, const Shape& in, int64_t classes);

// Whether an activation directly after a layer of kind `prev` runs in place (its input is a fresh
// tensor that no backward needs): after conv, batchnorm, linear and residual adds, as
// torchvision's inplace=True. The module and the memory estimate both follow this rule.
bool activation_in_place(LayerKind prev);

// Names of the built-in models ("resnet18", ..., "alexnet").
std::vector<std::string> builtin_names();
// A built-in by name; throws std::invalid_argument naming the known models when unknown.
ModelSpec builtin(const std::string& name, int64_t classes = 1000, int64_t input = 224);
// A user model from its description (the Lua table converted to json); throws
// std::invalid_argument with a message naming the offending layer and field.
ModelSpec from_json(const nlohmann::json& description, int64_t classes = 1000, int64_t input = 224);
// Checks classes/input and every layer's shape; throws std::invalid_argument. builtin() and
// from_json() call it, so a ModelSpec they return always builds.
void validate(const ModelSpec& spec);

// A `model` option as the bindings receive it: a string names a built-in, an object is a user
// description (from_json). Throws std::invalid_argument otherwise.
ModelSpec from_option(const nlohmann::json& model, int64_t classes = 1000, int64_t input = 224);

}  // namespace rlx::models
