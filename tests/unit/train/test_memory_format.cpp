// test_memory_format.cpp: the default memory layout per model kind and its conversion of 4-D
// weights (train/memory_format.h), on real LibTorch modules.
// LibTorch first: glog (through LibTorch) defines its own CHECK, which aborts; Catch2 included
// afterwards redefines CHECK as the assertion that reports and goes on.
#include "models/torch_model.h"
#include "train/memory_format.h"

#include <catch2/catch.hpp>

using namespace rlx;

namespace {

std::shared_ptr<models::Net> net(const char* layers) {
  const auto spec = models::from_option(nlohmann::json::parse(std::string(R"({"name": "t", "layers": )") + layers + "}"),
                                        3, 8);
  return models::build_module(spec);
}

const char* kConv = R"([{"kind": "conv", "out": 4, "k": 3, "pad": 1}, {"kind": "bn"}, {"kind": "relu"},
    {"kind": "adaptive_avgpool", "out": 1}, {"kind": "flatten"}, {"kind": "linear"}])";
const char* kMlp = R"([{"kind": "flatten"}, {"kind": "linear", "out": 5}, {"kind": "relu"}, {"kind": "linear"}])";

torch::Tensor first_4d(torch::nn::Module& m) {
  for (const auto& p : m.parameters())
    if (p.dim() == 4) return p;
  return {};
}

}  // namespace

TEST_CASE("the default layout is channels_last for a model with a convolution, contiguous otherwise") {
  auto conv = net(kConv), mlp = net(kMlp);
  CHECK(train::resolve_memory_format("", *conv) == "channels_last");
  CHECK(train::resolve_memory_format("", *mlp) == "contiguous");
  CHECK(train::resolve_memory_format("contiguous", *conv) == "contiguous");
  CHECK(train::resolve_memory_format("channels_last", *mlp) == "channels_last");
}

TEST_CASE("apply_memory_format converts the 4-D weights and names the format for the inputs") {
  auto conv = net(kConv);
  REQUIRE(first_4d(*conv).sizes().vec() == std::vector<int64_t>{4, 3, 3, 3});
  CHECK(train::apply_memory_format("channels_last", *conv) == torch::MemoryFormat::ChannelsLast);
  const auto w = first_4d(*conv);
  CHECK(w.is_contiguous(torch::MemoryFormat::ChannelsLast));
  CHECK_FALSE(w.is_contiguous());
  CHECK((w.strides().vec() == std::vector<int64_t>{27, 1, 9, 3}));  // NHWC strides of [4, 3, 3, 3]
  CHECK(train::apply_memory_format("contiguous", *conv) == torch::MemoryFormat::Contiguous);
  CHECK((first_4d(*conv).strides().vec() == std::vector<int64_t>{27, 9, 3, 1}));
}
