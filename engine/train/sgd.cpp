// sgd.cpp: see sgd.h.
#include "train/sgd.h"

#include <ATen/Parallel.h>
#ifdef RLX_HAVE_FUSED_SGD
#include <ATen/ops/_fused_sgd.h>
#endif

#include <stdexcept>
#include <string>

#include "train/trainer.h"

namespace rlx::train {

OnePassSgd::OnePassSgd(std::vector<torch::Tensor> params, SgdSettings settings)
    : params_(std::move(params)), momentum_(params_.size()), s_(settings) {
  if (!supports(params_)) throw std::invalid_argument("one-pass SGD takes dense fp32 CPU parameters only");
}

bool OnePassSgd::supports(const std::vector<torch::Tensor>& params) {
  for (const auto& p : params)
    if (!p.device().is_cpu() || p.scalar_type() != torch::kFloat || !p.is_non_overlapping_and_dense())
      return false;
  return true;
}

void OnePassSgd::step() {
  torch::NoGradGuard no_grad;
  for (size_t i = 0; i < params_.size(); ++i) update(i);
}

void OnePassSgd::update(size_t i) {
  torch::Tensor& p = params_[i];
  torch::Tensor g = p.grad();
  if (!g.defined()) return;
  // The kernel walks p, its gradient and its momentum buffer as flat arrays, so all three must lay
  // their elements out in the same order; a gradient with other strides is copied into p's.
  if (g.strides() != p.strides() || g.scalar_type() != torch::kFloat) g = torch::empty_like(p).copy_(g);
  const bool first = !momentum_[i].defined();
  if (first && s_.momentum != 0) momentum_[i] = torch::empty_like(p);
  float* w_all = p.data_ptr<float>();
  const float* d_all = g.data_ptr<float>();
  float* buf_all = s_.momentum != 0 ? momentum_[i].data_ptr<float>() : nullptr;
  const auto lr = static_cast<float>(s_.lr), m = static_cast<float>(s_.momentum);
  const auto wd = static_cast<float>(s_.weight_decay);
  const int64_t grain = 32 * 1024;
  // Three loops rather than branches in one, so that each vectorizes.
  at::parallel_for(0, p.numel(), grain, [&](int64_t begin, int64_t end) {
    float* __restrict w = w_all;
    float* __restrict buf = buf_all;
    const float* __restrict d = d_all;
    if (buf == nullptr) {
      for (int64_t k = begin; k < end; ++k) w[k] -= lr * (d[k] + wd * w[k]);
    } else if (first) {
      for (int64_t k = begin; k < end; ++k) {
        buf[k] = d[k] + wd * w[k];
        w[k] -= lr * buf[k];
      }
    } else {
      for (int64_t k = begin; k < end; ++k) {
        buf[k] = m * buf[k] + (d[k] + wd * w[k]);
        w[k] -= lr * buf[k];
      }
    }
  });
  p.unsafeGetTensorImpl()->bump_version();  // an in-place change, as p.add_() would record
}

void OnePassSgd::zero_grad() {
  for (auto& p : params_) p.mutable_grad().reset();
}

bool have_fused_sgd() {
#ifdef RLX_HAVE_FUSED_SGD
  return true;
#else
  return false;
#endif
}

SgdKernel cuda_sgd_kernel() {
  return have_fused_sgd() ? SgdKernel::fused : SgdKernel::foreach;
}

const char* kernel_name(SgdKernel kernel) {
  return kernel == SgdKernel::fused ? "_fused_sgd_" : "_foreach_";
}

MultiTensorSgd::MultiTensorSgd(std::vector<torch::Tensor> params, SgdSettings settings, SgdKernel kernel)
    : params_(std::move(params)), s_(settings), kernel_(kernel) {
  if (kernel_ == SgdKernel::fused && !have_fused_sgd())
    throw std::invalid_argument(
        "this LibTorch has no _fused_sgd_ (it came in LibTorch 2.3); use the foreach kernel");
  torch::NoGradGuard no_grad;
  if (s_.momentum != 0)
    for (const auto& p : params_) momentum_.push_back(torch::zeros_like(p));  // p's layout (preserve_format)
}

void MultiTensorSgd::step(const torch::Tensor& found_inf) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> p, g, buf;
  for (size_t i = 0; i < params_.size(); ++i) {
    const torch::Tensor& grad = params_[i].grad();
    if (!grad.defined()) continue;  // as torch.optim.SGD: no gradient, no update, momentum kept
    p.push_back(params_[i]);
    g.push_back(grad);
    if (!momentum_.empty()) buf.push_back(momentum_[i]);
  }
  if (p.empty()) return;
  if (kernel_ == SgdKernel::fused) {
#ifdef RLX_HAVE_FUSED_SGD
    // dampening 0, nesterov and maximize off, never the first-step rule (the buffers start at 0);
    // no grad_scale (GradScaler::unscale has divided the gradients already).
    if (found_inf.defined())
      at::_fused_sgd_(p, g, buf, s_.weight_decay, s_.momentum, s_.lr, 0.0, false, false, false, {},
                      found_inf);
    else
      at::_fused_sgd_(p, g, buf, s_.weight_decay, s_.momentum, s_.lr, 0.0, false, false, false);
#endif
    return;
  }
  if (found_inf.defined() && found_inf.item<float>() != 0.0f) return;  // a host sync (sgd.h)
  step_foreach(p, g, buf);
}

// torch.optim.SGD's multi-tensor path, op for op (its _multi_tensor_sgd), with the weight decay
// added into the gradients rather than into a copy of them.
void MultiTensorSgd::step_foreach(const std::vector<torch::Tensor>& p, std::vector<torch::Tensor>& g,
                                  const std::vector<torch::Tensor>& buf) {
  if (s_.weight_decay != 0) at::_foreach_add_(g, p, s_.weight_decay);
  if (buf.empty()) {
    at::_foreach_add_(p, g, -s_.lr);
    return;
  }
  at::_foreach_mul_(buf, s_.momentum);
  at::_foreach_add_(buf, g);
  at::_foreach_add_(p, buf, -s_.lr);
}

void MultiTensorSgd::zero_grad() {
  for (auto& p : params_) p.mutable_grad().reset();
}

GradScaler::GradScaler(const torch::Device& device, double initial_scale)
    : scale_(torch::full({1}, initial_scale, torch::dtype(torch::kFloat).device(device))),
      growth_tracker_(torch::zeros({1}, torch::dtype(torch::kInt).device(device))),
      found_inf_(torch::zeros({1}, torch::dtype(torch::kFloat).device(device))) {}

void GradScaler::unscale(const std::vector<torch::Tensor>& params) {
  std::vector<torch::Tensor> grads;
  for (const auto& p : params)
    if (p.grad().defined()) grads.push_back(p.grad());
  found_inf_.zero_();
  // 1/scale in double, as Python's GradScaler computes it, then float for the kernel.
  const torch::Tensor inv_scale = scale_.to(torch::kDouble).reciprocal().to(torch::kFloat);
  at::_amp_foreach_non_finite_check_and_unscale_(grads, found_inf_, inv_scale);
}

void GradScaler::update() {
  at::_amp_update_scale_(scale_, growth_tracker_, found_inf_, 2.0, 0.5, 2000);
}

std::string optimizer_note() {
  return std::string("sgd: one pass per parameter on CPU, gradients dropped rather than zeroed; on CUDA ") +
         (have_fused_sgd()
              ? "multi-tensor _fused_sgd_ (one kernel per step)"
              : "multi-tensor _foreach_ ops (this LibTorch has no _fused_sgd_, which came in 2.3)");
}

}  // namespace rlx::train
