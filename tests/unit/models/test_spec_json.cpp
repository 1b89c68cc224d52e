// test_spec_json.cpp: reading Lua model tables (as json): defaults, names, and the exact error
// for each kind of mistake (the message names the layer path and the field).
#include <catch2/catch.hpp>

#include "models/model_spec.h"

using namespace rlx::models;
using json = nlohmann::json;

namespace {
std::string error_of(const std::string& text, int64_t classes = 10, int64_t input = 8) {
  try {
    from_json(json::parse(text), classes, input);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("layer defaults follow PyTorch") {
  ModelSpec m = from_json(json::parse(R"({"layers": [{"1": "conv", "out": 8, "k": 3},
      {"1": "maxpool", "k": 2}, {"kind": "flatten"}, ["linear"]]})"), 10, 8);
  CHECK(m.name == "custom");
  CHECK(m.channels == 3);
  CHECK(m.conv_init == ConvInit::kaiming_fan_out);
  CHECK(m.linear_init == LinearInit::torch_default);
  const Layer& c = m.layers[0];
  CHECK(c.kind == LayerKind::conv);
  CHECK(c.name == "1");
  CHECK(c.where == "layers[1]");
  CHECK((c.stride == 1 && c.pad == 0 && c.groups == 1 && c.bias));
  CHECK(m.layers[1].stride == 2);  // pool stride defaults to its kernel
  CHECK(m.layers[3].out == 0);     // linear out omitted: the model's classes
  CHECK(output_shape(m.layers[0], {3, 8, 8}, 10) == Shape{8, 6, 6});
}

TEST_CASE("model-level fields") {
  ModelSpec m = from_json(json::parse(R"({"name": "gray", "channels": 1, "conv_init": "default",
      "linear_init": "normal", "layers": [["flatten"], {"1": "linear", "name": "fc"}]})"), 3, 4);
  CHECK(m.name == "gray");
  CHECK(m.channels == 1);
  CHECK(m.conv_init == ConvInit::torch_default);
  CHECK(m.linear_init == LinearInit::normal_001);
  CHECK(m.layers[1].name == "fc");
  CHECK(error_of(R"({"layers": [["flatten"], ["linear"]], "classes": 3})") ==
        "unknown model field 'classes' (valid fields: name, layers, channels, conv_init, "
        "linear_init)");
  CHECK(error_of(R"({"name": "x"})") == "model field 'layers' is required (a list of layers)");
  CHECK(error_of(R"({"layers": [["flatten"], ["linear"]], "conv_init": "xavier"})") ==
        "model field 'conv_init' must be \"kaiming\" or \"default\", got \"xavier\"");
  CHECK(error_of(R"({"layers": [["flatten"], ["linear"]], "linear_init": 1})") ==
        "model field 'linear_init' must be \"default\" or \"normal\", got 1");
  CHECK(error_of(R"({"layers": [{"1": "residual", "body": [["relu"]], "after": true}]})") ==
        "model layer layers[1] (residual): field 'after' must be \"relu\", \"relu6\" or "
        "\"none\", got true");
  CHECK(error_of(R"({"layers": [["flatten"], ["linear"]], "channels": 0})") ==
        "model field 'channels' must be an integer >= 1, got 0");
  CHECK(error_of(R"("resnet")") ==
        "model description must be a table like {name=\"tiny\", layers={{\"conv\", out=16, "
        "k=3}, ...}}, got \"resnet\"");
  // A bare list of layers is a model.
  CHECK(from_json(json::parse(R"([["flatten"], ["linear"]])"), 10, 4).layers.size() == 2);
  CHECK(error_of(R"([1, 2])") ==
        "model layer layers[1]: a layer is a table whose first entry is its kind, e.g. "
        "{\"conv\", out=16, k=3}; got 1");
}

TEST_CASE("layer errors name the layer and the field") {
  CHECK(error_of(R"({"layers": [{"1": "cnv", "out": 4}]})") ==
        "model layer layers[1]: unknown kind 'cnv' (kinds: adaptive_avgpool, avgpool, batchnorm, "
        "bn, conv, dropout, flatten, linear, maxpool, relu, relu6, residual, sequential)");
  CHECK(error_of(R"({"layers": [["flatten"], {"1": "linear", "outt": 4}]})") ==
        "model layer layers[2] (linear): unknown field 'outt' (valid fields: out, bias, name, "
        "trainable)");
  CHECK(error_of(R"({"layers": [{"1": "conv", "k": 3}]})") ==
        "model layer layers[1] (conv): field 'out' is required (output channels)");
  CHECK(error_of(R"({"layers": [{"1": "conv", "out": -2, "k": 3}]})") ==
        "model layer layers[1] (conv): field 'out' must be an integer >= 1, got -2");
  CHECK(error_of(R"({"layers": [{"1": "conv", "out": 4, "k": "3"}]})") ==
        "model layer layers[1] (conv): field 'k' must be an integer >= 1, got '3'");
  CHECK(error_of(R"({"layers": [{"1": "dropout", "p": 1.5}]})") ==
        "model layer layers[1] (dropout): field 'p' must be in [0, 1), got 1.5");
  CHECK(error_of(R"({"layers": [{"1": "conv", "out": 4, "k": 3, "bias": 1}]})") ==
        "model layer layers[1] (conv): field 'bias' must be true or false, got 1");
  CHECK(error_of(R"({"layers": [{"out": 4}]})") ==
        "model layer layers[1]: a layer is a table whose first entry is its kind, e.g. "
        "{\"conv\", out=16, k=3}; got {\"out\":4}");
  CHECK(error_of(R"({"layers": [["conv", 16, 3]]})") ==
        "model layer layers[1] (conv): only the kind is positional; name the other fields, e.g. "
        "{\"conv\", out=16, k=3}");
  CHECK(error_of(R"({"layers": [{"1": "conv", "2": 16, "k": 3}]})") ==
        "model layer layers[1] (conv): only the kind is positional; name the other fields, e.g. "
        "{\"conv\", out=16, k=3}");
  CHECK(error_of(R"({"layers": []})") ==
        "model layers: must be a non-empty list of layers, e.g. {{\"conv\", out=16, k=3}, "
        "{\"relu\"}}");
  CHECK(error_of(R"({"layers": [{"1": "relu", "name": "a"}, {"1": "relu", "name": "a"}]})") ==
        "model layer layers[2] (relu): name 'a' is already used in this list; choose another");
  CHECK(error_of(R"({"layers": [{"1": "relu", "name": "a.b"}]})") ==
        "model layer layers[1] (relu): field 'name' must be a non-empty string without dots, "
        "got 'a.b'");
}

TEST_CASE("shape errors name the nested layer and the fix") {
  CHECK(error_of(R"({"layers": [["linear"]]})") ==
        "model layer layers[1] (linear): needs flat features but gets a 3x8x8 map; add "
        "{\"flatten\"} before it");
  CHECK(error_of(R"({"layers": [{"1": "sequential", "layers": [{"1": "conv", "out": 4, "k": 9}]}]})") ==
        "model layer layers[1].layers[1] (conv): kernel 9 does not fit the 8x8 input (pad 0); use "
        "a larger model input or a smaller kernel");
  CHECK(error_of(R"({"layers": [{"1": "residual", "body": [{"1": "conv", "out": 4, "k": 1}]}]})") ==
        "model layer layers[1] (residual): the body gives 4x8x8 but the shortcut gives 3x8x8; add "
        "a 'projection' (e.g. a 1x1 conv with the body's stride and width)");
  CHECK(error_of(R"({"layers": [["flatten"], {"1": "conv", "out": 4, "k": 1}]})") ==
        "model layer layers[2] (conv): needs a CxHxW feature map but gets 192 features; move it "
        "before the flatten");
  CHECK(error_of(R"({"layers": [{"1": "conv", "out": 6, "k": 1, "groups": 4}]})") ==
        "model layer layers[1] (conv): groups 4 must divide both the input channels 3 and 'out' 6");
  CHECK(error_of(R"({"layers": [["relu"]]})") ==
        "model 'custom' ends in a 3x8x8 map; end it with flatten and linear layers");
  CHECK(error_of(R"({"layers": [["flatten"], {"1": "linear", "out": 7}]})") ==
        "model 'custom' ends with 7 outputs but classes = 10; omit the last linear's 'out' so it "
        "follows classes");
  CHECK(error_of(R"({"layers": [{"1": "residual", "body": [["relu"]], "after": "gelu"}]})") ==
        "model layer layers[1] (residual): field 'after' must be \"relu\", \"relu6\" or \"none\", "
        "got 'gelu'");
}

TEST_CASE("from_option takes a name or a table") {
  CHECK(from_option("resnet18", 10, 32).name == "resnet18");
  CHECK(from_option(json::parse(R"({"layers": [["flatten"], ["linear"]]})"), 10, 4).layers.size() == 2);
  CHECK_THROWS_WITH(from_option(json(3)),
                    "model must be a built-in name (resnet18, resnet34, resnet50, vgg16, "
                    "mobilenet_v2, alexnet) or a model table {name=..., layers={...}}, got 3");
}
