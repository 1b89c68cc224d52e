// torch_scopes.h: RAII helpers of the training loop that change LibTorch state for a scope and
// put it back: autocast for one forward pass and the global determinism/cuDNN flags of a run.
// Included only by trainer.cpp, the LibTorch translation unit of engine/train that trains (the
// gradient scaler of fp16 training is in sgd.h).
#pragma once

#include <ATen/autocast_mode.h>
#include <torch/torch.h>
#include <torch/version.h>

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
#define RLX_AUTOCAST_DEVICE_API 1
#endif

namespace rlx::train {

// Autocast for one forward pass, as Python's `with torch.autocast(...)`: enable, set the dtype,
// count the nesting, and on the way out clear the cast-weight cache when the outermost scope
// ends (stale low-precision weight copies would otherwise outlive the optimizer step).
class AutocastScope {
 public:
  AutocastScope(bool enabled, bool cuda, at::ScalarType dtype) : enabled_(enabled), cuda_(cuda) {
    if (!enabled_) return;
#ifdef RLX_AUTOCAST_DEVICE_API
    const auto dev = cuda_ ? at::kCUDA : at::kCPU;
    prev_enabled_ = at::autocast::is_autocast_enabled(dev);
    prev_dtype_ = at::autocast::get_autocast_dtype(dev);
    at::autocast::set_autocast_enabled(dev, true);
    at::autocast::set_autocast_dtype(dev, dtype);
#else
    if (cuda_) {
      prev_enabled_ = at::autocast::is_enabled();
      prev_dtype_ = at::autocast::get_autocast_gpu_dtype();
      at::autocast::set_enabled(true);
      at::autocast::set_autocast_gpu_dtype(dtype);
    } else {
      prev_enabled_ = at::autocast::is_cpu_enabled();
      prev_dtype_ = at::autocast::get_autocast_cpu_dtype();
      at::autocast::set_cpu_enabled(true);
      at::autocast::set_autocast_cpu_dtype(dtype);
    }
#endif
    at::autocast::increment_nesting();
  }
  ~AutocastScope() {
    if (!enabled_) return;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
#ifdef RLX_AUTOCAST_DEVICE_API
    const auto dev = cuda_ ? at::kCUDA : at::kCPU;
    at::autocast::set_autocast_enabled(dev, prev_enabled_);
    at::autocast::set_autocast_dtype(dev, prev_dtype_);
#else
    if (cuda_) {
      at::autocast::set_enabled(prev_enabled_);
      at::autocast::set_autocast_gpu_dtype(prev_dtype_);
    } else {
      at::autocast::set_cpu_enabled(prev_enabled_);
      at::autocast::set_autocast_cpu_dtype(prev_dtype_);
    }
#endif
  }
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  bool enabled_, cuda_;
  bool prev_enabled_ = false;
  at::ScalarType prev_dtype_ = at::kFloat;
};

// Global LibTorch flags a run changes, put back when it ends so runs do not leak into each other.
class ContextFlags {
 public:
  // tf32: whether cuBLAS and cuDNN may run fp32 matrix products and convolutions on TF32 tensor
  // cores (Ampere and newer). Pinned for every run, so the stored run says which roof applies.
  ContextFlags(bool deterministic, bool cudnn_benchmark, bool tf32) {
    auto& ctx = at::globalContext();
    det_algorithms_ = ctx.deterministicAlgorithms();
    det_cudnn_ = ctx.deterministicCuDNN();
    bench_ = ctx.benchmarkCuDNN();
    tf32_cublas_ = ctx.allowTF32CuBLAS();
    tf32_cudnn_ = ctx.allowTF32CuDNN();
    // warn_only: an op without a deterministic kernel warns instead of failing the whole run.
    ctx.setDeterministicAlgorithms(deterministic, true);
    ctx.setDeterministicCuDNN(deterministic);
    ctx.setBenchmarkCuDNN(cudnn_benchmark);
    ctx.setAllowTF32CuBLAS(tf32);
    ctx.setAllowTF32CuDNN(tf32);
  }
  ~ContextFlags() {
    auto& ctx = at::globalContext();
    ctx.setDeterministicAlgorithms(det_algorithms_, true);
    ctx.setDeterministicCuDNN(det_cudnn_);
    ctx.setBenchmarkCuDNN(bench_);
    ctx.setAllowTF32CuBLAS(tf32_cublas_);
    ctx.setAllowTF32CuDNN(tf32_cudnn_);
  }
  ContextFlags(const ContextFlags&) = delete;
  ContextFlags& operator=(const ContextFlags&) = delete;

 private:
  bool det_algorithms_, det_cudnn_, bench_, tf32_cublas_, tf32_cudnn_;
};

}  // namespace rlx::train
