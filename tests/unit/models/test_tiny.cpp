// test_tiny.cpp: a small model worked by hand, layer by layer (the arithmetic is in the comments
// and in docs/complexity.md's rules): shapes, parameters, buffers, MACs, elementwise and backward
// FLOPs, saved activations, traffic, and the totals at batch 2 in fp32 and amp.
#include <catch2/catch.hpp>

#include "models/complexity.h"
#include "models/model_spec.h"

using namespace rlx::models;
using json = nlohmann::json;

namespace {
// 3x8x8 input, 10 classes. The same table a Lua user writes:
//   {name="tiny", layers={{"conv", out=4, k=3, pad=1, bias=false}, {"bn"}, {"relu"},
//    {"maxpool", k=2}, {"residual", body={{"conv", out=4, k=3, pad=1, bias=false}, {"bn"}},
//    after="relu"}, {"flatten"}, {"dropout"}, {"linear"}}}
json tiny_json() {
  return json::parse(R"({"name": "tiny", "layers": [
    {"1": "conv", "out": 4, "k": 3, "pad": 1, "bias": false}, ["bn"], ["relu"],
    {"1": "maxpool", "k": 2},
    {"1": "residual", "body": [{"1": "conv", "out": 4, "k": 3, "pad": 1, "bias": false}, ["bn"]],
     "after": "relu"},
    ["flatten"], ["dropout"], ["linear"]]})");
}
}  // namespace

TEST_CASE("tiny model: every layer by hand") {
  Summary s = summarize(from_json(tiny_json(), 10, 8), 2, Precision::fp32);
  REQUIRE(s.layers.size() == 11);
  const auto& L = s.layers;
  // names: the Lua index, dotted into blocks; the residual's add and activation after it.
  std::vector<std::string> names, kinds;
  for (const auto& l : L) names.push_back(l.name), kinds.push_back(l.kind);
  CHECK(names == std::vector<std::string>{"1", "2", "3", "4", "5.1", "5.2", "5.add", "5.relu", "6",
                                          "7", "8"});
  CHECK(kinds == std::vector<std::string>{"conv", "bn", "relu", "maxpool", "conv", "bn", "add",
                                          "relu", "flatten", "dropout", "linear"});
  // 1 conv 3->4, 3x3, pad 1: 4x8x8; params 4*3*9 = 108; MACs 256 outputs x 27 = 6912.
  // Backward: weight gradient only (the image needs no gradient) = 2 x 6912.
  CHECK(L[0].output == Shape{4, 8, 8});
  CHECK(L[0].params == 108);
  CHECK(L[0].macs == 6912);
  CHECK(L[0].flops == 13824);
  CHECK(L[0].elementwise_flops == 0);
  CHECK(L[0].backward_flops == 13824);
  CHECK_FALSE(L[0].input_grad);
  // Bytes at batch 2, fp32: input 2*192*4 = 1536, weights 432, output 2*256*4 = 2048;
  // traffic = forward (1536 + 432 + 2048) + backward (grad out 2048 + saved input 1536 +
  // weight gradient 432) = 8032. Saved: its output, 2048.
  CHECK(L[0].input_bytes == 1536);
  CHECK(L[0].weight_bytes == 432);
  CHECK(L[0].output_bytes == 2048);
  CHECK(L[0].traffic_bytes == 8032);
  CHECK(L[0].saved_bytes == 2048);
  // 2 bn over 4 channels: params 8, buffers 4+4+1 = 9; 5 FLOPs x 256 elements = 1280 both ways.
  CHECK(L[1].params == 8);
  CHECK(L[1].buffers == 9);
  CHECK(L[1].elementwise_flops == 1280);
  CHECK(L[1].backward_flops == 1280);
  CHECK(L[1].input_grad);
  // 3 relu, in place after bn: 256 FLOPs, nothing saved.
  CHECK(L[2].elementwise_flops == 256);
  CHECK(L[2].in_place);
  CHECK(L[2].saved_bytes == 0);
  // 4 maxpool 2x2 stride 2: 4x4x4 = 64 outputs x 3 comparisons = 192; saved: output 2*64*4 =
  // 512 plus int64 indices 2*64*8 = 1024.
  CHECK(L[3].output == Shape{4, 4, 4});
  CHECK(L[3].elementwise_flops == 192);
  CHECK(L[3].saved_bytes == 1536);
  // 5.1 conv 4->4 3x3 on 4x4: params 144, MACs 64 x 36 = 2304, backward 4 x 2304 = 9216.
  CHECK(L[4].params == 144);
  CHECK(L[4].macs == 2304);
  CHECK(L[4].backward_flops == 9216);
  // 5.2 bn: 8 params, 9 buffers, 5 x 64 = 320. 5.add: 64 adds, free backward. 5.relu: 64.
  CHECK(L[5].elementwise_flops == 320);
  CHECK(L[6].elementwise_flops == 64);
  CHECK(L[6].backward_flops == 0);
  CHECK(L[6].input_bytes == 2 * 2 * 64 * 4);
  CHECK(L[7].elementwise_flops == 64);
  CHECK(L[7].in_place);
  // 6 flatten: a view, 64 features, no cost. 7 dropout: 64 multiplies, saves output + 1-byte mask.
  CHECK(L[8].output == Shape{64});
  CHECK(L[8].traffic_bytes == 0);
  CHECK(L[9].elementwise_flops == 64);
  CHECK(L[9].saved_bytes == 2 * 64 * 4 + 2 * 64);
  // 8 linear 64->10 (out omitted: classes): params 650, MACs 640, bias adds 10;
  // backward = weight 1280 + bias 10 + input 1280 = 2570.
  CHECK(L[10].output == Shape{10});
  CHECK(L[10].params == 650);
  CHECK(L[10].macs == 640);
  CHECK(L[10].elementwise_flops == 10);
  CHECK(L[10].backward_flops == 2570);

  // Totals.
  CHECK(s.params == 918);
  CHECK(s.buffers == 18);
  CHECK(s.forward_macs == 9856);
  CHECK(s.forward_flops == 19712);
  CHECK(s.elementwise_flops == 2250);
  CHECK(s.backward_flops == 27786);
  CHECK(s.optimizer_flops == 6 * 918);
  CHECK(s.train_flops == 2 * (19712 + 2250 + 27786) + 6 * 918);  // 105004
  // Memory: params, grads, momentum 3 x 918 x 4; buffers 2 x (8 x 4 + 8) = 80; activations: input
  // 1536 + conv 2048 + bn 2048 + maxpool 1536 + conv 512 + bn 512 + add 512 + dropout 640 +
  // linear 80 = 9424.
  CHECK(s.buffer_bytes == 80);
  CHECK(s.activation_bytes == 9424);
  CHECK(s.memory_bytes == 3 * 918 * 4 + 80 + 9424);
  CHECK(s.memory_fp32_bytes == s.memory_bytes);
  CHECK(s.optimizer_traffic_bytes == 918 * 20);
  CHECK(s.bytes == s.layer_traffic_bytes + 918 * 20);
  CHECK(s.ai == Approx(double(s.train_flops) / double(s.bytes)));
}

TEST_CASE("tiny model in amp: 2-byte activations and weight copies") {
  Summary s = summarize(from_json(tiny_json(), 10, 8), 2, Precision::amp);
  // Conv and linear parameters 108 + 144 + 650 = 902 get 2-byte copies.
  CHECK(s.conv_linear_params == 902);
  CHECK(s.weight_copy_bytes == 1804);
  CHECK(s.layers[0].weight_bytes == 216);
  CHECK(s.layers[0].output_bytes == 1024);
  // Activations halve except the fp32 input batch and the 1-byte masks / 8-byte indices:
  // input 1536 + conv 1024 + bn 1024 + maxpool 256 + 1024 + conv 256 + bn 256 + add 256 +
  // dropout 256 + 128 + linear 40 = 6056.
  CHECK(s.activation_bytes == 6056);
  CHECK(s.memory_bytes == 3 * 918 * 4 + 80 + 1804 + 6056);
  CHECK(s.memory_amp_bytes == s.memory_bytes);
  CHECK(s.memory_fp32_bytes == 3 * 918 * 4 + 80 + 9424);
  CHECK(s.optimizer_flops == 7 * 918);
  CHECK(s.optimizer_traffic_bytes == 918 * 20 + 902 * 6);
  CHECK(summarize(from_json(tiny_json(), 10, 8), 2, Precision::bf16).optimizer_flops == 6 * 918);
}

TEST_CASE("frozen layers: no trainable parameters, no weight gradient") {
  json j = tiny_json();
  j["layers"][0]["trainable"] = false;
  Summary s = summarize(from_json(j, 10, 8), 1);
  CHECK(s.params == 918);
  CHECK(s.trainable_params == 810);
  CHECK(s.layers[0].backward_flops == 0);  // nothing to differentiate: frozen, image input
  CHECK(s.layers[1].input_grad == false);  // bn after a frozen conv on the image
  CHECK(s.layers[1].backward_flops == 1280);  // its own weights still need gradients
  CHECK(s.grad_bytes == 810 * 4);
}

TEST_CASE("precision names") {
  CHECK(parse_precision("fp32") == Precision::fp32);
  CHECK(parse_precision("amp") == Precision::amp);
  CHECK(parse_precision("bf16") == Precision::bf16);
  CHECK_THROWS_WITH(parse_precision("fp8"), "unknown precision 'fp8' (choose fp32, amp or bf16)");
  CHECK_THROWS_WITH(summarize(builtin("resnet18"), 0), "batch must be >= 1, got 0");
}
