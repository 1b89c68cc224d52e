// test_torch_model.cpp: the LibTorch module built from a spec has exactly the parameters and
// buffers the summary counts, runs forward and backward, follows the initialisation rules and
// uses torchvision's parameter names. Small inputs keep it fast.
// REQUIRE, not CHECK: LibTorch's headers bring glog, whose CHECK macro replaces Catch's.
// LibTorch first: glog (through LibTorch) defines its own CHECK, which aborts; Catch2 included
// afterwards redefines CHECK as the assertion that reports and goes on.
#include "models/complexity.h"
#include "models/torch_model.h"

#include <catch2/catch.hpp>

using namespace rlx::models;
using json = nlohmann::json;

TEST_CASE("module parameters equal the summary's, built-ins at 32x32") {
  for (const char* name : {"resnet18", "resnet50", "mobilenet_v2"}) {
    INFO(name);
    ModelSpec spec = builtin(name, 10, 32);
    auto net = build_module(spec);
    Summary s = summarize(spec, 1);
    REQUIRE(count_parameters(*net) == s.params);
    REQUIRE(count_parameters(*net, true) == s.trainable_params);
    REQUIRE(count_buffers(*net) == s.buffers);
  }
}

TEST_CASE("resnet18 uses torchvision's parameter names and init") {
  auto net = build_module(builtin("resnet18", 10, 32));
  auto params = net->named_parameters();
  REQUIRE(params.contains("conv1.weight"));
  REQUIRE(params.contains("layer1.0.conv1.weight"));
  REQUIRE(params.contains("layer2.0.downsample.0.weight"));
  REQUIRE(params.contains("layer2.0.downsample.1.bias"));
  REQUIRE(params.contains("fc.weight"));
  REQUIRE_FALSE(params.contains("layer1.0.downsample.0.weight"));
  // kaiming_normal fan_out: std = sqrt(2 / (64 * 7 * 7)) = 0.0253 for conv1 (9408 samples).
  const double sd = params["conv1.weight"].std().item<double>();
  REQUIRE(sd == Approx(std::sqrt(2.0 / (64 * 49))).epsilon(0.05));
  REQUIRE(params["bn1.weight"].eq(1).all().item<bool>());
  REQUIRE(params["bn1.bias"].eq(0).all().item<bool>());
}

TEST_CASE("a Lua-style model trains a step and matches its summary") {
  json j = json::parse(R"({"name": "tiny", "linear_init": "normal", "layers": [
    {"1": "conv", "out": 4, "k": 3, "pad": 1, "bias": false}, ["bn"], ["relu"],
    {"1": "maxpool", "k": 2},
    {"1": "residual", "body": [{"1": "conv", "out": 4, "k": 3, "pad": 1, "bias": false}, ["bn"]],
     "after": "relu"},
    ["flatten"], ["dropout"], ["linear"]]})");
  ModelSpec spec = from_json(j, 10, 8);
  auto net = build_module(spec);
  REQUIRE(count_parameters(*net) == 918);
  REQUIRE(count_buffers(*net) == 18);
  REQUIRE(net->named_parameters().contains("5.1.weight"));
  REQUIRE(net->named_parameters()["8.bias"].eq(0).all().item<bool>());
  net->train();
  torch::manual_seed(0);
  auto x = torch::randn({2, 3, 8, 8});
  auto y = net->forward(x);
  REQUIRE(y.sizes() == torch::IntArrayRef({2, 10}));
  auto loss = torch::nn::functional::cross_entropy(y, torch::tensor({1, 2}));
  loss.backward();
  for (auto& p : net->parameters()) REQUIRE(p.grad().defined());
  net->eval();
  REQUIRE(net->forward(x).sizes() == torch::IntArrayRef({2, 10}));
}

TEST_CASE("frozen layers have requires_grad false") {
  json j = json::parse(R"({"layers": [{"1": "conv", "out": 2, "k": 1, "trainable": false},
    ["flatten"], ["linear"]]})");
  auto net = build_module(from_json(j, 3, 2));
  REQUIRE(count_parameters(*net) == 2 * 3 + 2 + 8 * 3 + 3);
  REQUIRE(count_parameters(*net, true) == 8 * 3 + 3);
  REQUIRE(count_parameters(*net, true) == summarize(net->spec(), 1).trainable_params);
}

TEST_CASE("relu6 and avg pooling, 1-d batchnorm") {
  json j = json::parse(R"({"layers": [{"1": "conv", "out": 2, "k": 1}, ["relu6"],
    {"1": "avgpool", "k": 2}, {"1": "adaptive_avgpool", "out": 3}, ["flatten"], ["bn"], ["linear"]]})");
  ModelSpec spec = from_json(j, 4, 4);
  auto net = build_module(spec);
  REQUIRE(count_parameters(*net) == summarize(spec, 1).params);
  REQUIRE(count_buffers(*net) == 2 * 18 + 1);
  net->train();
  REQUIRE(net->forward(torch::rand({3, 3, 4, 4})).sizes() == torch::IntArrayRef({3, 4}));
}

TEST_CASE("built-ins with in-place activations run backward (mobilenet_v2 at 32x32)") {
  // relu6 runs in place after batchnorm and relu after residual adds, as torchvision's
  // inplace=True; autograd must accept it.
  auto net = build_module(builtin("mobilenet_v2", 10, 32));
  net->train();
  auto y = net->forward(torch::randn({2, 3, 32, 32}));
  REQUIRE(y.sizes() == torch::IntArrayRef({2, 10}));
  y.sum().backward();
  int64_t with_grad = 0;
  for (auto& p : net->parameters()) with_grad += p.grad().defined() ? p.numel() : 0;
  REQUIRE(with_grad == summarize(net->spec(), 2).trainable_params);
}
