// test_sgd.cpp: OnePassSgd against hand-worked updates and against torch::optim::SGD.
// LibTorch first: glog (through LibTorch) defines its own CHECK, which aborts; Catch2 included
// afterwards redefines CHECK as the assertion that reports and goes on.
#include <torch/torch.h>
#include "train/sgd.h"
#include "train/trainer.h"

#include <limits>
#include <string>

#include <catch2/catch.hpp>

using rlx::train::OnePassSgd;
using rlx::train::SgdSettings;

namespace {
torch::Tensor param(std::initializer_list<float> values) {
  return torch::tensor(std::vector<float>(values)).set_requires_grad(true);
}
void set_grad(torch::Tensor& p, torch::Tensor g) {
  p.mutable_grad() = std::move(g);
}
}  // namespace

TEST_CASE("one-pass SGD: momentum and weight decay, worked by hand") {
  // lr 0.1, momentum 0.9, weight decay 0.1, p = 1, gradient 0.5 twice:
  //   step 1: d = 0.5 + 0.1 * 1 = 0.6;      buf = 0.6;                    p = 1 - 0.06 = 0.94
  //   step 2: d = 0.5 + 0.1 * 0.94 = 0.594; buf = 0.9 * 0.6 + 0.594 = 1.134; p = 0.94 - 0.1134 = 0.8266
  torch::Tensor p = param({1.0f});
  OnePassSgd sgd({p}, SgdSettings{0.1, 0.9, 0.1});
  set_grad(p, torch::tensor({0.5f}));
  sgd.step();
  CHECK(p.item<float>() == Approx(0.94f).epsilon(1e-6));
  set_grad(p, torch::tensor({0.5f}));
  sgd.step();
  CHECK(p.item<float>() == Approx(0.8266f).epsilon(1e-6));
}

TEST_CASE("one-pass SGD without momentum is plain gradient descent with decay") {
  // p = 2, gradient 1, lr 0.5, weight decay 0.25: p = 2 - 0.5 * (1 + 0.5) = 1.25.
  torch::Tensor p = param({2.0f});
  OnePassSgd sgd({p}, SgdSettings{0.5, 0.0, 0.25});
  set_grad(p, torch::tensor({1.0f}));
  sgd.step();
  CHECK(p.item<float>() == 1.25f);
}

TEST_CASE("one-pass SGD matches torch::optim::SGD over several steps, any layout") {
  torch::manual_seed(3);
  const auto make = [] {
    return std::vector<torch::Tensor>{
        torch::randn({64, 32, 3, 3}).contiguous(torch::MemoryFormat::ChannelsLast).set_requires_grad(true),
        torch::randn({100003}).set_requires_grad(true),  // more than one parallel chunk
        torch::randn({7}).set_requires_grad(true)};
  };
  std::vector<torch::Tensor> ours = make(), theirs;
  for (auto& p : ours) theirs.push_back(p.detach().clone().set_requires_grad(true));
  OnePassSgd one_pass(ours, SgdSettings{0.1, 0.9, 1e-4});
  torch::optim::SGD reference(theirs, torch::optim::SGDOptions(0.1).momentum(0.9).weight_decay(1e-4));
  for (int step = 0; step < 4; ++step) {
    for (size_t i = 0; i < ours.size(); ++i) {
      // The last parameter gets no gradient in step 2: both leave it alone and keep its momentum.
      if (step == 2 && i == 2) continue;
      const torch::Tensor g = torch::randn_like(ours[i]);
      set_grad(ours[i], g.clone());
      set_grad(theirs[i], g.clone());
    }
    one_pass.step();
    reference.step();
    one_pass.zero_grad();
    // Dropped gradients on both sides: torch's zero_grad() would leave zeros, and a zero gradient
    // still moves a parameter (weight decay, momentum), where a missing one leaves it alone.
    for (auto& p : theirs) p.mutable_grad().reset();
    for (size_t i = 0; i < ours.size(); ++i) {
      CHECK(torch::allclose(ours[i], theirs[i], 1e-5, 1e-6));
      CHECK_FALSE(ours[i].grad().defined());  // dropped, not zeroed
    }
  }
  CHECK(ours[0].is_contiguous(torch::MemoryFormat::ChannelsLast));
}

TEST_CASE("one-pass SGD takes a gradient laid out unlike its parameter") {
  torch::Tensor p =
      torch::ones({2, 3, 2, 2}).contiguous(torch::MemoryFormat::ChannelsLast).set_requires_grad(true);
  torch::Tensor g = torch::arange(24, torch::kFloat).reshape({2, 3, 2, 2});  // NCHW
  OnePassSgd sgd({p}, SgdSettings{1.0, 0.0, 0.0});
  set_grad(p, g);
  sgd.step();
  CHECK(torch::equal(p.detach(), 1 - g));
}

TEST_CASE("one-pass SGD takes dense fp32 CPU parameters only") {
  CHECK(OnePassSgd::supports({torch::zeros({3})}));
  CHECK_FALSE(OnePassSgd::supports({torch::zeros({3}, torch::kDouble)}));
  CHECK_FALSE(OnePassSgd::supports({torch::zeros({4, 4}).t().slice(0, 0, 2)}));
  CHECK_THROWS_AS(OnePassSgd({torch::zeros({3}, torch::kBFloat16)}, SgdSettings{}), std::invalid_argument);
}

// MultiTensorSgd: the multi-tensor update the CUDA step runs, tested on CPU tensors (the
// _foreach_ ops have CPU kernels in every LibTorch; _fused_sgd_ has one from LibTorch 2.4).
namespace {
using rlx::train::GradScaler;
using rlx::train::MultiTensorSgd;
using rlx::train::SgdKernel;

std::vector<torch::Tensor> mixed_params() {
  return {torch::randn({64, 32, 3, 3}).contiguous(torch::MemoryFormat::ChannelsLast).set_requires_grad(true),
          torch::randn({1000}).set_requires_grad(true), torch::randn({7}).set_requires_grad(true)};
}
std::vector<torch::Tensor> copies(const std::vector<torch::Tensor>& ps) {
  std::vector<torch::Tensor> out;
  for (const auto& p : ps) out.push_back(p.detach().clone().set_requires_grad(true));
  return out;
}

// Runs `steps` steps of `ours` (kernel) and of torch::optim::SGD from the same parameters and
// gradients, one parameter without a gradient in step 2, and checks the parameters after each.
void check_against_torch(SgdKernel kernel, double momentum, double tolerance) {
  torch::manual_seed(5);
  std::vector<torch::Tensor> ours = mixed_params(), theirs = copies(ours);
  MultiTensorSgd sgd(ours, SgdSettings{0.1, momentum, 1e-4}, kernel);
  torch::optim::SGD reference(theirs, torch::optim::SGDOptions(0.1).momentum(momentum).weight_decay(1e-4));
  for (int step = 0; step < 4; ++step) {
    for (size_t i = 0; i < ours.size(); ++i) {
      if (step == 2 && i == 2) continue;
      const torch::Tensor g = torch::randn_like(ours[i]);
      set_grad(ours[i], g.clone());
      set_grad(theirs[i], g.clone());
    }
    sgd.step();
    reference.step();
    sgd.zero_grad();
    for (auto& p : theirs) p.mutable_grad().reset();
    for (size_t i = 0; i < ours.size(); ++i) {
      INFO("step " << step << ", parameter " << i);
      CHECK(torch::allclose(ours[i], theirs[i], tolerance, tolerance));
      CHECK_FALSE(ours[i].grad().defined());
    }
  }
  CHECK(ours[0].is_contiguous(torch::MemoryFormat::ChannelsLast));
}
}  // namespace

TEST_CASE("multi-tensor SGD (foreach) matches torch::optim::SGD op for op, with and without momentum") {
  // The same ATen ops in the same order as torch::optim::SGD (add of the decay, mul_ and add_ of
  // the buffer, add_ of the parameter): equal to the last bit on the CPU.
  check_against_torch(SgdKernel::foreach, 0.9, 0.0);
  check_against_torch(SgdKernel::foreach, 0.0, 0.0);
}

TEST_CASE("multi-tensor SGD (foreach), worked by hand: the zeroed buffer gives the first-step rule") {
  // As the one-pass case: lr 0.1, momentum 0.9, decay 0.1, p = 1, gradient 0.5 twice -> 0.94, 0.8266.
  torch::Tensor p = param({1.0f});
  MultiTensorSgd sgd({p}, SgdSettings{0.1, 0.9, 0.1}, SgdKernel::foreach);
  CHECK(sgd.momentum_buffers().at(0).item<float>() == 0.0f);
  set_grad(p, torch::tensor({0.5f}));
  sgd.step();
  CHECK(p.item<float>() == Approx(0.94f).epsilon(1e-6));
  CHECK(sgd.momentum_buffers().at(0).item<float>() == Approx(0.6f).epsilon(1e-6));
  set_grad(p, torch::tensor({0.5f}));
  sgd.step();
  CHECK(p.item<float>() == Approx(0.8266f).epsilon(1e-6));
}

TEST_CASE("multi-tensor SGD agrees with the one-pass CPU update") {
  torch::manual_seed(9);
  std::vector<torch::Tensor> a = mixed_params(), b = copies(a);
  MultiTensorSgd multi(a, SgdSettings{0.05, 0.9, 1e-4}, SgdKernel::foreach);
  OnePassSgd one(b, SgdSettings{0.05, 0.9, 1e-4});
  for (int step = 0; step < 3; ++step) {
    for (size_t i = 0; i < a.size(); ++i) {
      const torch::Tensor g = torch::randn_like(a[i]);
      set_grad(a[i], g.clone());
      set_grad(b[i], g.clone());
    }
    multi.step();
    one.step();
    for (size_t i = 0; i < a.size(); ++i) CHECK(torch::allclose(a[i], b[i], 1e-5, 1e-6));
  }
}

TEST_CASE("multi-tensor SGD skips the step when found_inf is set (a planted inf)") {
  // An inf in one gradient, found_inf = 1 as the gradient scaler leaves it: no parameter and no
  // momentum buffer moves. Then found_inf = 0 with clean gradients: the step happens.
  torch::Tensor p = param({1.0f, 2.0f}), q = param({3.0f});
  MultiTensorSgd sgd({p, q}, SgdSettings{0.1, 0.9, 0.0}, SgdKernel::foreach);
  set_grad(p, torch::tensor({std::numeric_limits<float>::infinity(), 1.0f}));
  set_grad(q, torch::tensor({1.0f}));
  sgd.step(torch::ones({1}));
  CHECK(torch::equal(p.detach(), torch::tensor({1.0f, 2.0f})));
  CHECK(torch::equal(q.detach(), torch::tensor({3.0f})));
  CHECK(sgd.momentum_buffers().at(0).abs().sum().item<float>() == 0.0f);
  set_grad(p, torch::tensor({1.0f, 1.0f}));
  set_grad(q, torch::tensor({1.0f}));
  sgd.step(torch::zeros({1}));
  CHECK(p.detach()[0].item<float>() == Approx(0.9f));
  CHECK(q.item<float>() == Approx(2.9f));
}

TEST_CASE(
    "the CUDA SGD kernel is _fused_sgd_ where this LibTorch has it, else _foreach_; rlx version says which") {
  const std::string note = rlx::train::optimizer_note();
  if (rlx::train::have_fused_sgd()) {
    CHECK(rlx::train::cuda_sgd_kernel() == SgdKernel::fused);
    CHECK(note.find("_fused_sgd_") != std::string::npos);
  } else {
    CHECK(rlx::train::cuda_sgd_kernel() == SgdKernel::foreach);
    CHECK(note.find("_foreach_") != std::string::npos);
    CHECK_THROWS_AS(MultiTensorSgd({torch::zeros({3})}, SgdSettings{}, SgdKernel::fused),
                    std::invalid_argument);
  }
  CHECK(note.find("torch::optim::SGD") == std::string::npos);
  CHECK(std::string(rlx::train::kernel_name(SgdKernel::foreach)) == "_foreach_");
  CHECK(std::string(rlx::train::kernel_name(SgdKernel::fused)) == "_fused_sgd_");
}

TEST_CASE("multi-tensor SGD with _fused_sgd_ on the CPU, where this LibTorch has its CPU kernel") {
  if (!rlx::train::have_fused_sgd()) {
    WARN("this LibTorch has no _fused_sgd_ (LibTorch " << TORCH_VERSION
                                                       << "): only the foreach path is tested");
    return;
  }
  try {
    check_against_torch(SgdKernel::fused, 0.9, 1e-6);  // the fused kernel computes in double
  } catch (const c10::Error& e) {
    WARN("_fused_sgd_ has no CPU kernel in this LibTorch (" << e.what_without_backtrace() << ")");
  }
}

TEST_CASE(
    "gradient scaler: a planted inf is found, the step skipped and the scale halved (where the CPU ops "
    "exist)") {
  // _amp_foreach_non_finite_check_and_unscale_ and _amp_update_scale_ have CPU kernels from
  // LibTorch 2.3; tests/gpu/sgd_cuda.sh checks the same on a GPU.
  torch::Tensor p = param({1.0f, 2.0f});
  GradScaler scaler(torch::kCPU, 4.0);
  MultiTensorSgd sgd({p}, SgdSettings{0.5, 0.0, 0.0}, SgdKernel::foreach);
  set_grad(p, torch::tensor({4.0f, std::numeric_limits<float>::infinity()}));
  try {
    scaler.unscale({p});
  } catch (const c10::Error& e) {
    WARN("the gradient scaler's ops have no CPU kernel in LibTorch " << TORCH_VERSION
                                                                     << ": tested on a GPU only");
    return;
  }
  CHECK(scaler.found_inf().item<float>() == 1.0f);
  sgd.step(scaler.found_inf());
  scaler.update();
  CHECK(torch::equal(p.detach(), torch::tensor({1.0f, 2.0f})));  // skipped
  CHECK(scaler.current_scale().item<float>() == 2.0f);           // backed off x0.5
  // A clean step: 8 / 2 = 4 unscaled, p = 1 - 0.5 * 4 = -1; found_inf back to 0.
  set_grad(p, torch::tensor({8.0f, 2.0f}));
  scaler.unscale({p});
  CHECK(scaler.found_inf().item<float>() == 0.0f);
  sgd.step(scaler.found_inf());
  CHECK(torch::equal(p.detach(), torch::tensor({-1.0f, 1.5f})));
}
