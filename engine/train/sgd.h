// sgd.h: the optimizer step of a training run and the gradient scaler of fp16 training (includes
// LibTorch: only trainer.cpp, sgd.cpp and their tests include it).
//
// The update is torch.optim.SGD's (dampening 0, no Nesterov), element by element:
//   d = grad + weight_decay * p;  buf = first step ? d : momentum * buf + d;  p = p - lr * buf
// Two implementations of it:
// - OnePassSgd (CPU): each element read and written once per step. torch::optim::SGD makes the
//   update three or four passes over every tensor (add, mul_, add_, add_), each reading and writing
//   the whole parameter set, and its zero_grad() writes zeros over every gradient before backward
//   adds into them. Here zero_grad() drops the gradients so backward writes fresh ones (PyTorch 2's
//   zero_grad(set_to_none=True) default): five tensor passes instead of about eleven, so for
//   ResNet-50's 25.6 M parameters about 0.6 GB of memory traffic less per step, for VGG-16's 138 M
//   about 3 GB (docs/training.md; measured in docs/benchmarks.md, "What changed in rlx on 2026-11-24").
// - MultiTensorSgd (CUDA): every parameter in a few kernel launches instead of a few per parameter
//   (ResNet-50 has 161 parameter tensors; a launch-bound GPU step pays for each launch on the host).
//   LibTorch's `_fused_sgd_` (one kernel for the whole update, LibTorch 2.3 and newer) where this
//   LibTorch has it, else the `_foreach_*` ops torch.optim.SGD runs on CUDA by default. Both take
//   the gradient scaler's found_inf on the device, and the fused kernel skips the step there: no
//   host sync, so a CUDA graph can capture the step (trainer.cpp, cuda_graphs).
// Results equal torch::optim::SGD's to within float rounding (ATen fuses some multiply-adds; the
// fused kernel computes the momentum update in double).
#pragma once

#include <torch/torch.h>

#include <vector>

#if __has_include(<ATen/ops/_fused_sgd.h>)
#define RLX_HAVE_FUSED_SGD 1
#endif

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

// How MultiTensorSgd runs the update.
enum class SgdKernel {
  fused,    // at::_fused_sgd_: one multi-tensor kernel (LibTorch 2.3+; CUDA, and CPU from 2.4)
  foreach,  // at::_foreach_mul_/_foreach_add_: three or four multi-tensor kernels
};

// Whether this LibTorch has at::_fused_sgd_ (decided when rlx was compiled).
bool have_fused_sgd();
// The kernel a CUDA run uses: fused where this LibTorch has it, else foreach.
SgdKernel cuda_sgd_kernel();
// "_fused_sgd_" or "_foreach_" (what `rlx version` names).
const char* kernel_name(SgdKernel kernel);

class MultiTensorSgd {
 public:
  // Momentum buffers are allocated here, zero-filled and laid out like their parameters: with
  // dampening 0, momentum * 0 + d is exactly d, torch's first-step rule, so every step runs the
  // same kernels (nothing for a CUDA graph to re-capture, nothing left half-initialized when the
  // first step is skipped for an inf gradient). Throws std::invalid_argument for a fused kernel
  // this LibTorch lacks.
  MultiTensorSgd(std::vector<torch::Tensor> params, SgdSettings settings, SgdKernel kernel);

  // One update of every parameter that has a gradient. With found_inf (a one-element float tensor
  // on the parameters' device, as GradScaler::unscale leaves it) the step is skipped when it is
  // not 0: inside the fused kernel, on the device; on the foreach path by reading it on the host
  // (a sync, which is why a CUDA graph of an amp step needs the fused kernel). The foreach path
  // adds the weight decay into the gradients in place (they are dropped after the step).
  void step(const torch::Tensor& found_inf = {});
  // Drops every gradient, as OnePassSgd does.
  void zero_grad();
  SgdKernel kernel() const { return kernel_; }
  const std::vector<torch::Tensor>& momentum_buffers() const { return momentum_; }

 private:
  void step_foreach(const std::vector<torch::Tensor>& p, std::vector<torch::Tensor>& g,
                    const std::vector<torch::Tensor>& buf);

  std::vector<torch::Tensor> params_;
  std::vector<torch::Tensor> momentum_;  // empty without momentum
  SgdSettings s_;
  SgdKernel kernel_;
};

// Python's GradScaler, written with the two ATen ops it uses: scale the loss, unscale the
// gradients while looking for inf/NaN (found_inf), skip the step when any was found (the
// optimizer reads found_inf), then grow or back off the scale. Every tensor stays on the device
// and nothing is read on the host, so the whole sequence can be captured in a CUDA graph. The
// ATen ops have CPU kernels only from LibTorch 2.3; fp16 training (amp) runs on CUDA only.
class GradScaler {
 public:
  explicit GradScaler(const torch::Device& device, double initial_scale = 65536.0);
  torch::Tensor scale(const torch::Tensor& loss) const { return loss * scale_; }
  // Divides every defined gradient of params by the scale, found_inf = 1 when any is inf or NaN.
  void unscale(const std::vector<torch::Tensor>& params);
  // After the optimizer step: the scale halves after a step with an inf, doubles after 2000 without.
  void update();
  const torch::Tensor& found_inf() const { return found_inf_; }
  const torch::Tensor& current_scale() const { return scale_; }

 private:
  torch::Tensor scale_, growth_tracker_, found_inf_;
};

}  // namespace rlx::train
