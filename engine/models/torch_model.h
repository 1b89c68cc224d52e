// torch_model.h: the LibTorch module built from a ModelSpec. Includes LibTorch: include it only
// from files that need torch, and link rlx_torch_deps from their library.
// The module tree mirrors the spec: sequential blocks and residual blocks are submodules named as
// in the spec (torchvision's names for the built-ins: conv1.weight, layer1.0.downsample.0.weight),
// and the initialisation follows the spec's rules (torchvision's defaults for the built-ins).
#pragma once

#include <torch/torch.h>

#include <functional>
#include <memory>
#include <vector>

#include "models/model_spec.h"

namespace rlx::models {

// One step of a forward pass (a layer, or a block holding its own steps).
using Step = std::function<torch::Tensor(torch::Tensor)>;

class Net : public torch::nn::Module {
 public:
  explicit Net(const ModelSpec& spec);
  // x: [N, channels, input, input] -> logits [N, classes].
  torch::Tensor forward(torch::Tensor x);
  const ModelSpec& spec() const { return spec_; }

 private:
  ModelSpec spec_;
  std::vector<Step> steps_;
};

// The module for a spec, initialised by the spec's rules (torchvision's for the built-ins).
// Throws std::invalid_argument when the spec does not validate.
std::shared_ptr<Net> build_module(const ModelSpec& spec);

// Number of elements in the module's parameters (all, or only those with requires_grad).
int64_t count_parameters(torch::nn::Module& module, bool trainable_only = false);
int64_t count_buffers(torch::nn::Module& module);

}  // namespace rlx::models
