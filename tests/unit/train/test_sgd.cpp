// test_sgd.cpp: OnePassSgd against hand-worked updates and against torch::optim::SGD.
// LibTorch first: glog (through LibTorch) defines its own CHECK, which aborts; Catch2 included
// afterwards redefines CHECK as the assertion that reports and goes on.
#include <torch/torch.h>
#include "train/sgd.h"

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
