// model_spec.cpp: shape inference and validation of a ModelSpec. Both the LibTorch builder and
// the complexity estimate call output_shape(), so a spec that validates here builds and runs.
#include "models/model_spec.h"

#include <fmt/format.h>

#include <stdexcept>

namespace rlx::models {

const char* kind_name(LayerKind kind) {
  switch (kind) {
    case LayerKind::conv: return "conv";
    case LayerKind::batchnorm: return "bn";
    case LayerKind::relu: return "relu";
    case LayerKind::relu6: return "relu6";
    case LayerKind::maxpool: return "maxpool";
    case LayerKind::avgpool: return "avgpool";
    case LayerKind::adaptive_avgpool: return "adaptive_avgpool";
    case LayerKind::linear: return "linear";
    case LayerKind::dropout: return "dropout";
    case LayerKind::flatten: return "flatten";
    case LayerKind::sequential: return "sequential";
    case LayerKind::residual: return "residual";
  }
  return "?";
}

std::string shape_string(const Shape& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) out += 'x';
    out += std::to_string(s[i]);
  }
  return out;
}

bool activation_in_place(LayerKind prev) {
  return prev == LayerKind::conv || prev == LayerKind::batchnorm || prev == LayerKind::linear ||
         prev == LayerKind::residual;
}

namespace {

[[noreturn]] void fail(const Layer& l, const std::string& what) {
  const std::string& at = l.where.empty() ? l.name : l.where;
  throw std::invalid_argument(fmt::format("model layer {} ({}): {}", at, kind_name(l.kind), what));
}

void need_map(const Layer& l, const Shape& in) {
  if (in.size() != 3)
    fail(l, fmt::format("needs a CxHxW feature map but gets {} features; move it before the "
                        "flatten", in.empty() ? 0 : in[0]));
}

// Sliding-window output side (floor mode), shared by conv and pooling.
int64_t window_out(const Layer& l, int64_t side) {
  if (l.kernel < 1 || l.stride < 1 || l.pad < 0)
    fail(l, "kernel and stride must be >= 1 and pad >= 0");
  int64_t span = side + 2 * l.pad - l.kernel;
  if (span < 0)
    fail(l, fmt::format("kernel {} does not fit the {}x{} input (pad {}); use a larger model "
                        "input or a smaller kernel", l.kernel, side, side, l.pad));
  return span / l.stride + 1;
}

Shape run_list(const std::vector<Layer>& layers, Shape s, int64_t classes) {
  for (const Layer& l : layers) s = output_shape(l, s, classes);
  return s;
}

}  // namespace

Shape output_shape(const Layer& l, const Shape& in, int64_t classes) {
  switch (l.kind) {
    case LayerKind::conv: {
      need_map(l, in);
      if (l.out < 1) fail(l, "'out' (output channels) must be >= 1");
      if (l.groups < 1 || in[0] % l.groups != 0 || l.out % l.groups != 0)
        fail(l, fmt::format("groups {} must divide both the input channels {} and 'out' {}",
                            l.groups, in[0], l.out));
      return {l.out, window_out(l, in[1]), window_out(l, in[2])};
    }
    case LayerKind::maxpool:
    case LayerKind::avgpool:
      need_map(l, in);
      if (2 * l.pad > l.kernel) fail(l, "pad must be at most half the kernel (PyTorch's rule)");
      return {in[0], window_out(l, in[1]), window_out(l, in[2])};
    case LayerKind::adaptive_avgpool:
      need_map(l, in);
      if (l.out < 1) fail(l, "'out' (output side) must be >= 1");
      return {in[0], l.out, l.out};
    case LayerKind::linear:
      if (in.size() != 1)
        fail(l, fmt::format("needs flat features but gets a {} map; add {{\"flatten\"}} before "
                            "it", shape_string(in)));
      if (l.out < 0) fail(l, "'out' must be >= 1 (or omitted for the model's classes)");
      return {l.out == 0 ? classes : l.out};
    case LayerKind::flatten: {
      int64_t n = 1;
      for (int64_t d : in) n *= d;
      return {n};
    }
    case LayerKind::batchnorm:
    case LayerKind::relu:
    case LayerKind::relu6:
    case LayerKind::dropout:
      if (l.kind == LayerKind::dropout && !(l.p >= 0.0 && l.p < 1.0))
        fail(l, "'p' must be in [0, 1)");
      return in;
    case LayerKind::sequential:
      return run_list(l.body, in, classes);
    case LayerKind::residual: {
      if (l.body.empty()) fail(l, "'body' must hold at least one layer");
      Shape main = run_list(l.body, in, classes);
      Shape skip = run_list(l.projection, in, classes);
      if (main != skip)
        fail(l, fmt::format("the body gives {} but the shortcut gives {}; add a 'projection' "
                            "(e.g. a 1x1 conv with the body's stride and width)",
                            shape_string(main), shape_string(skip)));
      return main;
    }
  }
  fail(l, "unknown layer kind");
}

void validate(const ModelSpec& spec) {
  if (spec.classes < 1)
    throw std::invalid_argument(fmt::format("model '{}': classes must be >= 1, got {}", spec.name,
                                            spec.classes));
  if (spec.input < 1)
    throw std::invalid_argument(fmt::format("model '{}': input must be >= 1, got {}", spec.name,
                                            spec.input));
  if (spec.layers.empty())
    throw std::invalid_argument(fmt::format("model '{}' has no layers", spec.name));
  Shape s = run_list(spec.layers, {spec.channels, spec.input, spec.input}, spec.classes);
  if (s.size() != 1)
    throw std::invalid_argument(fmt::format(
        "model '{}' ends in a {} map; end it with flatten and linear layers", spec.name,
        shape_string(s)));
  if (s[0] != spec.classes)
    throw std::invalid_argument(fmt::format(
        "model '{}' ends with {} outputs but classes = {}; omit the last linear's 'out' so it "
        "follows classes", spec.name, s[0], spec.classes));
}

}  // namespace rlx::models
