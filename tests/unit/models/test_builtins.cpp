// test_builtins.cpp: the six built-in models against torchvision 0.14: exact parameter and
// buffer counts, conv + linear MACs at 224x224 (counted from torchvision, shared notes), and the
// counts at other input sizes and class counts.
#include <catch2/catch.hpp>

#include "models/complexity.h"
#include "models/model_spec.h"

using namespace rlx::models;

namespace {
struct Expected {
  const char* name;
  int64_t params, buffers, macs_224;
  int64_t last_in;  // in-features of the final linear layer, for the classes check
};
const Expected kExpected[] = {
    {"resnet18", 11689512, 9620, 1814073344, 512},
    {"resnet34", 21797672, 17060, 3663761408, 512},
    {"resnet50", 25557032, 53173, 4089184256, 2048},
    {"vgg16", 138357544, 0, 15470264320, 4096},
    {"mobilenet_v2", 3504872, 34164, 300774272, 1280},
    {"alexnet", 61100840, 0, 714188480, 4096},
};
}  // namespace

TEST_CASE("built-in names are the six torchvision models") {
  CHECK(builtin_names() ==
        std::vector<std::string>{"resnet18", "resnet34", "resnet50", "vgg16", "mobilenet_v2",
                                 "alexnet"});
}

TEST_CASE("built-ins match torchvision's parameter, buffer and MAC counts at 224") {
  for (const auto& e : kExpected) {
    INFO(e.name);
    Summary s = summarize(builtin(e.name), 1);
    CHECK(s.params == e.params);
    CHECK(s.trainable_params == e.params);
    CHECK(s.buffers == e.buffers);
    CHECK(s.forward_macs == e.macs_224);
    CHECK(s.forward_flops == 2 * e.macs_224);
  }
}

TEST_CASE("classes change only the last linear layer") {
  for (const auto& e : kExpected) {
    INFO(e.name);
    Summary s = summarize(builtin(e.name, 10, 224), 1);
    // (last_in + 1) x 1000 parameters become (last_in + 1) x 10.
    CHECK(s.params == e.params - (e.last_in + 1) * 990);
    CHECK(s.forward_macs == e.macs_224 - e.last_in * 990);
    CHECK(s.layers.back().output == Shape{10});
  }
}

TEST_CASE("other input sizes: shapes and MACs follow the convolution arithmetic") {
  // ResNet-18 at 32x32: conv1 gives 64x16x16, the maxpool 64x8x8, layer4 512x1x1.
  Summary s = summarize(builtin("resnet18", 10, 32), 1);
  CHECK(s.layers.front().output == Shape{64, 16, 16});
  CHECK(s.layers.front().macs == 64 * 16 * 16 * 3 * 49);
  // Every conv of ResNet-18 scales with the output area: (32/224)^2 = 1/49 of the 224 count,
  // exactly, because every feature map side divides evenly; fc is unchanged (512 x 10).
  CHECK(s.forward_macs == (1814073344 - 512000) / 49 + 5120);
  // Parameters do not depend on the input size (global average pooling).
  CHECK(s.params == 11689512 - 513 * 990);
  // VGG-16 at 64: adaptive pooling replicates the 2x2 map to 7x7, so the classifier is unchanged.
  Summary v = summarize(builtin("vgg16", 1000, 64), 1);
  CHECK(v.params == 138357544);
  const int64_t classifier_macs = 25088 * 4096 + 4096 * 4096 + 4096 * 1000;
  CHECK(v.forward_macs == (15470264320 - classifier_macs) * 64 * 64 / (224 * 224) + classifier_macs);
  // MobileNetV2 and AlexNet accept 64; AlexNet rejects 32 (its third max pool gets a 1x1 map).
  CHECK(summarize(builtin("mobilenet_v2", 10, 64), 1).layers.back().output == Shape{10});
  CHECK(summarize(builtin("alexnet", 10, 64), 1).params == 61100840 - 4097 * 990);
  CHECK_THROWS_WITH(builtin("alexnet", 10, 32),
                    Catch::Contains("kernel 3 does not fit the 1x1 input") &&
                        Catch::Contains("features.12"));
}

TEST_CASE("unknown built-in names list the known ones") {
  CHECK_THROWS_WITH(builtin("resnet19"),
                    "unknown model 'resnet19' (built-in models: resnet18, resnet34, resnet50, "
                    "vgg16, mobilenet_v2, alexnet; or pass a Lua model table)");
  CHECK_THROWS_WITH(builtin("resnet18", 0), Catch::Contains("classes must be >= 1, got 0"));
}

TEST_CASE("training FLOPs are about three forward passes") {
  Summary s = summarize(builtin("resnet50"), 8);
  const double ratio = double(s.train_flops) / double(8 * s.forward_flops);
  CHECK(ratio > 2.9);
  CHECK(ratio < 3.1);
  // The rule exactly: batch x (forward + elementwise + backward) + 6 FLOPs per parameter.
  CHECK(s.train_flops ==
        8 * (s.forward_flops + s.elementwise_flops + s.backward_flops) + 6 * s.params);
  // Backward: the first conv computes no input gradient (the image needs none); every other
  // conv/linear costs 2 x its forward FLOPs, fc's bias gradient 1000 adds, and the elementwise
  // layers repeat their forward FLOPs except the residual adds, whose backward is free.
  int64_t ew_backward = 0;
  for (const auto& l : s.layers)
    if (l.kind != "add" && l.kind != "conv" && l.kind != "linear") ew_backward += l.elementwise_flops;
  CHECK(s.backward_flops == 2 * s.forward_flops - 2 * s.layers.front().macs + 1000 + ew_backward);
}

TEST_CASE("other inputs and classes match torchvision 0.14 exactly") {
  // Parameters and conv + linear MACs counted with torchvision 0.14 (forward hooks on Conv2d and
  // Linear, batch 1) for these inputs and class counts.
  struct Row { const char* name; int64_t input, classes, params, macs; };
  const Row rows[] = {
    {"resnet18", 112, 100, 11227812, 484898816},
    {"resnet18", 64, 10, 11181642, 148050944},
    {"resnet18", 32, 10, 11181642, 37016576},
    {"resnet34", 112, 100, 21335972, 965015552},
    {"resnet34", 64, 10, 21289802, 299045888},
    {"resnet34", 32, 10, 21289802, 74765312},
    {"resnet50", 112, 100, 23712932, 1076056064},
    {"resnet50", 64, 10, 23528522, 333664256},
    {"resnet50", 32, 10, 23528522, 83431424},
    {"vgg16", 112, 100, 134670244, 3956604928},
    {"vgg16", 64, 10, 134301514, 1372364800},
    {"vgg16", 32, 10, 134301514, 432775168},
    {"mobilenet_v2", 112, 100, 2351972, 81031808},
    {"mobilenet_v2", 64, 10, 2236682, 24461312},
    {"mobilenet_v2", 32, 10, 2236682, 6124928},
    {"alexnet", 112, 100, 57413540, 200760512},
    {"alexnet", 64, 10, 57044810, 94089920}};
  for (const Row& r : rows) {
    INFO(r.name << " at " << r.input << " with " << r.classes << " classes");
    Summary s = summarize(builtin(r.name, r.classes, r.input), 1);
    CHECK(s.params == r.params);
    CHECK(s.forward_macs == r.macs);
  }
}
