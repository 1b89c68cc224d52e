// sgd.cpp: see sgd.h.
#include "train/sgd.h"

#include <ATen/Parallel.h>

#include <stdexcept>

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

}  // namespace rlx::train
