// test_sgd_cuda.cpp: the CUDA optimizer step on a GPU, in a test program of its own
// (rlx_test_train_gpu: one source, so a GPU session builds it in seconds). tests/gpu/sgd_cuda.sh
// runs it with the GPU visible, after tests/gpu/sgd_reference.py has written torch.optim.SGD's
// numbers. Without a CUDA device (every CPU build, ctest with the GPU hidden) each case says so
// and passes: the CPU half is tests/unit/train/test_sgd.cpp.
//
// The parameters and gradients are made from sin/cos of a float64 ramp on the CPU, then cast to
// float32, so Python makes the same values with the same ATen ops (sgd_reference.py).
// LibTorch first: glog (through LibTorch) defines its own CHECK, which aborts; Catch2 included
// afterwards redefines CHECK as the assertion that reports and goes on.
#include <torch/torch.h>
#include "train/sgd.h"

#include <cstdlib>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

using rlx::train::GradScaler;
using rlx::train::MultiTensorSgd;
using rlx::train::SgdKernel;
using rlx::train::SgdSettings;

namespace {

constexpr int kSteps = 5;
const SgdSettings kSettings{0.1, 0.9, 1e-4};

// value(shape, a, b) = sin(a * k + b) for element k of the flat ramp, laid out as `shape`.
torch::Tensor ramp(std::vector<int64_t> shape, double a, double b, bool cos = false) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  const torch::Tensor x = torch::arange(n, torch::kDouble) * a + b;
  return (cos ? torch::cos(x) : torch::sin(x)).to(torch::kFloat).reshape(shape);
}

// Parameter i of the case, and its gradient at step s (the same formulas as sgd_reference.py).
const std::vector<std::vector<int64_t>> kShapes = {{64, 32, 3, 3}, {1000}, {7}};
torch::Tensor initial(size_t i) {
  return ramp(kShapes[i], 0.001, double(i));
}
torch::Tensor gradient(size_t i, int s) {
  return ramp(kShapes[i], 0.002, double(s) + double(i), true);
}

std::vector<torch::Tensor> params_on(const torch::Device& device) {
  std::vector<torch::Tensor> ps;
  for (size_t i = 0; i < kShapes.size(); ++i) {
    torch::Tensor p = initial(i).to(device);
    if (p.dim() == 4) p = p.contiguous(torch::MemoryFormat::ChannelsLast);
    ps.push_back(p.set_requires_grad(true));
  }
  return ps;
}

void set_grads(std::vector<torch::Tensor>& ps, int s) {
  for (size_t i = 0; i < ps.size(); ++i) {
    torch::Tensor g = gradient(i, s).to(ps[i].device());
    if (g.dim() == 4) g = g.contiguous(torch::MemoryFormat::ChannelsLast);
    ps[i].mutable_grad() = g;
  }
}

std::vector<torch::Tensor> run_ours(SgdKernel kernel, const torch::Device& device) {
  std::vector<torch::Tensor> ps = params_on(device);
  MultiTensorSgd sgd(ps, kSettings, kernel);
  for (int s = 0; s < kSteps; ++s) {
    set_grads(ps, s);
    sgd.step();
    sgd.zero_grad();
  }
  return ps;
}

std::vector<torch::Tensor> run_torch_cpp(const torch::Device& device) {
  std::vector<torch::Tensor> ps = params_on(device);
  torch::optim::SGD sgd(ps, torch::optim::SGDOptions(kSettings.lr)
                                .momentum(kSettings.momentum)
                                .weight_decay(kSettings.weight_decay));
  for (int s = 0; s < kSteps; ++s) {
    set_grads(ps, s);
    sgd.step();
  }
  return ps;
}

bool close(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b, double tol) {
  bool ok = true;
  for (size_t i = 0; i < a.size(); ++i) {
    const torch::Tensor x = a[i].detach().cpu(), y = b[i].detach().cpu();
    const bool same = torch::allclose(x, y, tol, tol);
    if (!same) WARN("parameter " << i << ": largest difference " << (x - y).abs().max().item<double>());
    ok = ok && same;
  }
  return ok;
}

// torch.optim.SGD's parameters after kSteps from sgd_reference.py, for variant "foreach" or
// "fused"; empty when RLX_SGD_REFERENCE is not set or the file lacks it.
std::vector<torch::Tensor> python_reference(const std::string& variant) {
  const char* path = std::getenv("RLX_SGD_REFERENCE");
  if (!path) return {};
  std::ifstream f(path);
  REQUIRE(f.good());
  const nlohmann::json j = nlohmann::json::parse(f);
  if (!j.contains(variant)) return {};
  std::vector<torch::Tensor> out;
  for (size_t i = 0; i < kShapes.size(); ++i) {
    const auto values = j[variant].at(i).get<std::vector<float>>();
    out.push_back(torch::tensor(values).reshape(kShapes[i]));
  }
  return out;
}

bool have_gpu() {
  if (torch::cuda::is_available()) return true;
  WARN("no CUDA device: the GPU half of the SGD tests did not run (tests/gpu/sgd_cuda.sh runs it)");
  return false;
}

}  // namespace

TEST_CASE("SGD on a GPU: the multi-tensor kernels against torch::optim::SGD and torch.optim.SGD", "[gpu]") {
  if (!have_gpu()) return;
  const torch::Device cuda(torch::kCUDA, 0);
  const auto cpu_reference = run_torch_cpp(torch::kCPU);
  for (const SgdKernel kernel : {rlx::train::cuda_sgd_kernel(), SgdKernel::foreach}) {
    const std::string name = rlx::train::kernel_name(kernel);
    INFO("kernel " << name);
    const auto ours = run_ours(kernel, cuda);
    CHECK(ours[0].is_contiguous(torch::MemoryFormat::ChannelsLast));
    CHECK(close(ours, run_torch_cpp(cuda), 1e-5));
    CHECK(close(ours, cpu_reference, 1e-5));
    const auto python = python_reference(kernel == SgdKernel::fused ? "fused" : "foreach");
    if (python.empty()) {
      WARN("no torch.optim.SGD numbers (RLX_SGD_REFERENCE): compared with LibTorch's C++ SGD only");
    } else {
      // The same kernels as Python's (fused: torch.optim.SGD(fused=True); foreach: its default).
      CHECK(close(ours, python, 1e-6));
    }
  }
}

TEST_CASE("SGD on a GPU: a planted inf is found on the device, the step skipped, the scale halved", "[gpu]") {
  if (!have_gpu()) return;
  const torch::Device cuda(torch::kCUDA, 0);
  for (const SgdKernel kernel : {rlx::train::cuda_sgd_kernel(), SgdKernel::foreach}) {
    INFO("kernel " << rlx::train::kernel_name(kernel));
    std::vector<torch::Tensor> ps = params_on(cuda);
    const std::vector<torch::Tensor> before = {ps[0].detach().clone(), ps[1].detach().clone(),
                                               ps[2].detach().clone()};
    MultiTensorSgd sgd(ps, kSettings, kernel);
    GradScaler scaler(cuda, 1024.0);
    set_grads(ps, 0);
    for (auto& p : ps) p.mutable_grad().mul_(1024.0);  // as a scaled loss's backward leaves them
    ps[1].mutable_grad()[17].fill_(std::numeric_limits<float>::infinity());
    scaler.unscale(ps);
    sgd.step(scaler.found_inf());
    scaler.update();
    CHECK(scaler.found_inf().item<float>() == 1.0f);
    for (size_t i = 0; i < ps.size(); ++i) CHECK(torch::equal(ps[i].detach(), before[i]));
    CHECK(sgd.momentum_buffers()[0].abs().sum().item<float>() == 0.0f);
    CHECK(scaler.current_scale().item<float>() == 512.0f);
    // The next, clean step: unscaled by 512, one plain momentum step from the zero buffers.
    set_grads(ps, 1);
    for (auto& p : ps) p.mutable_grad().mul_(512.0);
    scaler.unscale(ps);
    CHECK(scaler.found_inf().item<float>() == 0.0f);
    sgd.step(scaler.found_inf());
    for (size_t i = 0; i < ps.size(); ++i) {
      const torch::Tensor want =
          before[i] - kSettings.lr * (gradient(i, 1).to(cuda) + kSettings.weight_decay * before[i]);
      CHECK(torch::allclose(ps[i].detach(), want, 1e-5, 1e-6));
    }
  }
}
