// builtins.cpp: the six built-in models written as ModelSpecs, layer for layer as torchvision
// 0.14 defines them (same structure, submodule names, biases and initialisation rules), so the
// parameter counts match torchvision exactly and complexity is computed from what is trained.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>

#include "models/model_spec.h"

namespace rlx::models {
namespace {

Layer make(LayerKind kind, std::string name) {
  Layer l;
  l.kind = kind;
  l.name = std::move(name);
  return l;
}
Layer conv(std::string name, int64_t out, int64_t k, int64_t stride, int64_t pad, bool bias,
           int64_t groups = 1) {
  Layer l = make(LayerKind::conv, std::move(name));
  l.out = out, l.kernel = k, l.stride = stride, l.pad = pad, l.bias = bias, l.groups = groups;
  return l;
}
Layer pool(LayerKind kind, std::string name, int64_t k, int64_t stride, int64_t pad) {
  Layer l = make(kind, std::move(name));
  l.kernel = k, l.stride = stride, l.pad = pad;
  return l;
}
Layer adaptive(std::string name, int64_t side) {
  Layer l = make(LayerKind::adaptive_avgpool, std::move(name));
  l.out = side;
  return l;
}
Layer linear(std::string name, int64_t out) {
  Layer l = make(LayerKind::linear, std::move(name));
  l.out = out, l.bias = true;
  return l;
}
Layer dropout(std::string name, double p) {
  Layer l = make(LayerKind::dropout, std::move(name));
  l.p = p;
  return l;
}
Layer block(LayerKind kind, std::string name, std::vector<Layer> body) {
  Layer l = make(kind, std::move(name));
  l.body = std::move(body);
  return l;
}
std::string idx(int i) { return std::to_string(i); }

// ResNet v1.5 (stride on the 3x3 conv of the bottleneck), torchvision's resnet.py.
ModelSpec resnet(const std::string& name, const std::vector<int>& blocks, bool bottleneck,
                 int64_t classes) {
  ModelSpec m;
  m.name = name;
  m.conv_init = ConvInit::kaiming_fan_out;
  m.linear_init = LinearInit::torch_default;
  m.layers = {conv("conv1", 64, 7, 2, 3, false), make(LayerKind::batchnorm, "bn1"),
              make(LayerKind::relu, "relu"), pool(LayerKind::maxpool, "maxpool", 3, 2, 1)};
  const int64_t expansion = bottleneck ? 4 : 1;
  int64_t in = 64;
  for (int stage = 0; stage < 4; ++stage) {
    const int64_t width = 64 << stage;
    Layer seq = make(LayerKind::sequential, "layer" + idx(stage + 1));
    for (int b = 0; b < blocks[stage]; ++b) {
      const int64_t stride = (stage > 0 && b == 0) ? 2 : 1;
      Layer r = make(LayerKind::residual, idx(b));
      r.after = LayerKind::relu;
      if (bottleneck) {
        r.body = {conv("conv1", width, 1, 1, 0, false), make(LayerKind::batchnorm, "bn1"),
                  make(LayerKind::relu, "relu1"),       conv("conv2", width, 3, stride, 1, false),
                  make(LayerKind::batchnorm, "bn2"),    make(LayerKind::relu, "relu2"),
                  conv("conv3", width * expansion, 1, 1, 0, false),
                  make(LayerKind::batchnorm, "bn3")};
      } else {
        r.body = {conv("conv1", width, 3, stride, 1, false), make(LayerKind::batchnorm, "bn1"),
                  make(LayerKind::relu, "relu"), conv("conv2", width, 3, 1, 1, false),
                  make(LayerKind::batchnorm, "bn2")};
      }
      if (stride != 1 || in != width * expansion)
        r.projection = {conv("0", width * expansion, 1, stride, 0, false),
                        make(LayerKind::batchnorm, "1")};
      in = width * expansion;
      seq.body.push_back(std::move(r));
    }
    m.layers.push_back(std::move(seq));
  }
  m.layers.push_back(adaptive("avgpool", 1));
  m.layers.push_back(make(LayerKind::flatten, "flatten"));
  m.layers.push_back(linear("fc", classes));
  return m;
}

// VGG-16 without batchnorm (configuration "D"), torchvision's vgg.py.
ModelSpec vgg16(int64_t classes) {
  ModelSpec m;
  m.name = "vgg16";
  m.conv_init = ConvInit::kaiming_fan_out;
  m.linear_init = LinearInit::normal_001;
  const int cfg[] = {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0};
  Layer features = make(LayerKind::sequential, "features");
  int i = 0;
  for (int c : cfg) {
    if (c == 0) {
      features.body.push_back(pool(LayerKind::maxpool, idx(i++), 2, 2, 0));
    } else {
      features.body.push_back(conv(idx(i++), c, 3, 1, 1, true));
      features.body.push_back(make(LayerKind::relu, idx(i++)));
    }
  }
  m.layers = {std::move(features), adaptive("avgpool", 7), make(LayerKind::flatten, "flatten"),
              block(LayerKind::sequential, "classifier",
                    {linear("0", 4096), make(LayerKind::relu, "1"), dropout("2", 0.5),
                     linear("3", 4096), make(LayerKind::relu, "4"), dropout("5", 0.5),
                     linear("6", classes)})};
  return m;
}

// Conv2dNormActivation(conv, BN, ReLU6) as torchvision's mobilenetv2.py builds it.
Layer conv_bn_relu6(std::string name, int64_t out, int64_t k, int64_t stride, int64_t groups) {
  return block(LayerKind::sequential, std::move(name),
               {conv("0", out, k, stride, (k - 1) / 2, false, groups),
                make(LayerKind::batchnorm, "1"), make(LayerKind::relu6, "2")});
}

ModelSpec mobilenet_v2(int64_t classes) {
  ModelSpec m;
  m.name = "mobilenet_v2";
  m.conv_init = ConvInit::kaiming_fan_out;
  m.linear_init = LinearInit::normal_001;
  struct Setting { int64_t t, c, n, s; };
  const Setting settings[] = {{1, 16, 1, 1},  {6, 24, 2, 2},  {6, 32, 3, 2}, {6, 64, 4, 2},
                              {6, 96, 3, 1},  {6, 160, 3, 2}, {6, 320, 1, 1}};
  Layer features = make(LayerKind::sequential, "features");
  features.body.push_back(conv_bn_relu6("0", 32, 3, 2, 1));
  int64_t in = 32;
  int i = 1;
  for (const Setting& st : settings) {
    for (int64_t r = 0; r < st.n; ++r) {
      const int64_t stride = r == 0 ? st.s : 1;
      const int64_t hidden = in * st.t;
      Layer body = make(LayerKind::sequential, "conv");
      int j = 0;
      if (st.t != 1) body.body.push_back(conv_bn_relu6(idx(j++), hidden, 1, 1, 1));
      body.body.push_back(conv_bn_relu6(idx(j++), hidden, 3, stride, hidden));
      body.body.push_back(conv(idx(j++), st.c, 1, 1, 0, false));
      body.body.push_back(make(LayerKind::batchnorm, idx(j++)));
      const bool use_res = stride == 1 && in == st.c;
      features.body.push_back(
          block(use_res ? LayerKind::residual : LayerKind::sequential, idx(i++), {body}));
      in = st.c;
    }
  }
  features.body.push_back(conv_bn_relu6(idx(i++), 1280, 1, 1, 1));
  m.layers = {std::move(features), adaptive("avgpool", 1), make(LayerKind::flatten, "flatten"),
              block(LayerKind::sequential, "classifier",
                    {dropout("0", 0.2), linear("1", classes)})};
  return m;
}

ModelSpec alexnet(int64_t classes) {
  ModelSpec m;
  m.name = "alexnet";
  m.conv_init = ConvInit::torch_default;
  m.linear_init = LinearInit::torch_default;
  m.layers = {
      block(LayerKind::sequential, "features",
            {conv("0", 64, 11, 4, 2, true), make(LayerKind::relu, "1"),
             pool(LayerKind::maxpool, "2", 3, 2, 0), conv("3", 192, 5, 1, 2, true),
             make(LayerKind::relu, "4"), pool(LayerKind::maxpool, "5", 3, 2, 0),
             conv("6", 384, 3, 1, 1, true), make(LayerKind::relu, "7"),
             conv("8", 256, 3, 1, 1, true), make(LayerKind::relu, "9"),
             conv("10", 256, 3, 1, 1, true), make(LayerKind::relu, "11"),
             pool(LayerKind::maxpool, "12", 3, 2, 0)}),
      adaptive("avgpool", 6), make(LayerKind::flatten, "flatten"),
      block(LayerKind::sequential, "classifier",
            {dropout("0", 0.5), linear("1", 4096), make(LayerKind::relu, "2"), dropout("3", 0.5),
             linear("4", 4096), make(LayerKind::relu, "5"), linear("6", classes)})};
  return m;
}

// Error messages name built-in layers by their module path ("features.12").
void assign_paths(std::vector<Layer>& layers, const std::string& prefix) {
  for (Layer& l : layers) {
    l.where = prefix.empty() ? l.name : prefix + "." + l.name;
    assign_paths(l.body, l.where);
    assign_paths(l.projection, l.where + ".downsample");
  }
}

}  // namespace

std::vector<std::string> builtin_names() {
  return {"resnet18", "resnet34", "resnet50", "vgg16", "mobilenet_v2", "alexnet"};
}

ModelSpec builtin(const std::string& name, int64_t classes, int64_t input) {
  ModelSpec m;
  if (name == "resnet18") m = resnet(name, {2, 2, 2, 2}, false, classes);
  else if (name == "resnet34") m = resnet(name, {3, 4, 6, 3}, false, classes);
  else if (name == "resnet50") m = resnet(name, {3, 4, 6, 3}, true, classes);
  else if (name == "vgg16") m = vgg16(classes);
  else if (name == "mobilenet_v2") m = mobilenet_v2(classes);
  else if (name == "alexnet") m = alexnet(classes);
  else
    throw std::invalid_argument(fmt::format(
        "unknown model '{}' (built-in models: {}; or pass a Lua model table)", name,
        fmt::join(builtin_names(), ", ")));
  m.classes = classes;
  m.input = input;
  assign_paths(m.layers, "");
  validate(m);
  return m;
}

}  // namespace rlx::models
