// sgd.h: SGD with momentum and weight decay as one pass over each parameter, for CPU training
// (includes LibTorch: only trainer.cpp, sgd.cpp and their tests include it).
//
// The update is torch.optim.SGD's (dampening 0, no Nesterov), element by element:
//   d = grad + weight_decay * p;  buf = first step ? d : momentum * buf + d;  p = p - lr * buf
// torch::optim::SGD makes that three or four passes over every tensor (add, mul_, add_, add_),
// each reading and writing the whole parameter set, and its zero_grad() writes zeros over every
// gradient before backward adds into them. Here each element is read and written once per step,
// and zero_grad() drops the gradients so backward writes fresh ones (PyTorch 2's
// zero_grad(set_to_none=True) default): five tensor passes instead of about eleven, so for
// ResNet-50's 25.6 M parameters about 0.6 GB of memory traffic less per step, for VGG-16's 138 M
// about 3 GB (docs/training.md; measured in docs/benchmarks.md, "What changed in rlx on 2026-11-24").
// Results equal torch::optim::SGD's to within float rounding (ATen fuses some multiply-adds).
#pragma once

#include <torch/torch.h>

#include <vector>

namespace rlx::train {

struct SgdSettings {
  double lr = 0.1;
  double momentum = 0.0;
  double weight_decay = 0.0;
};

class OnePassSgd {
 public:
  OnePassSgd(std::vector<torch::Tensor> params, SgdSettings settings);

  // Whether every parameter is a dense fp32 CPU tensor (what the one-pass kernel handles).
  static bool supports(const std::vector<torch::Tensor>& params);

  // One update of every parameter that has a gradient.
  void step();
  // Drops every gradient: the next backward writes new ones instead of adding into zeros.
  void zero_grad();

 private:
  void update(size_t i);

  std::vector<torch::Tensor> params_;
  std::vector<torch::Tensor> momentum_;  // per parameter; undefined until its first step
  SgdSettings s_;
};

}  // namespace rlx::train
