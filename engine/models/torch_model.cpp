// torch_model.cpp: builds the LibTorch module of a ModelSpec. Each list of layers becomes a list
// of steps (closures over registered submodules, or functional ops for layers without
// parameters); sequential and residual blocks are submodules with a concrete forward (LibTorch's
// nn::Sequential cannot nest itself). Shapes come from output_shape(), the same inference the
// complexity estimate uses.
#include "models/torch_model.h"

namespace rlx::models {
namespace {

class SeqBlock : public torch::nn::Module {
 public:
  std::vector<Step> steps;
  torch::Tensor forward(torch::Tensor x) {
    for (auto& s : steps) x = s(x);
    return x;
  }
};

// ReLU6 is hardtanh(0, 6), as in torchvision. LibTorch 1.13 (Debian's, through RLX_TORCH_DIR) has
// no bf16 hardtanh backward on CPU (the error names "hardshrink_backward_cpu"), so there CPU bf16
// uses clamp: the same forward values, a gradient that differs only at exactly 0 and 6, and out of
// place because clamp's backward reads its input. LibTorch 2.x has the kernel (checked on 2.15.0).
torch::Tensor relu6(torch::Tensor x, bool in_place) {
#if TORCH_VERSION_MAJOR < 2
  if (x.scalar_type() == torch::kBFloat16 && x.device().is_cpu()) return torch::clamp(x, 0.0, 6.0);
#endif
  return in_place ? torch::hardtanh_(x, 0.0, 6.0) : torch::hardtanh(x, 0.0, 6.0);
}

class ResidualBlock : public torch::nn::Module {
 public:
  std::vector<Step> body;
  std::shared_ptr<SeqBlock> projection;  // null: identity shortcut
  LayerKind after = LayerKind::flatten;  // relu / relu6 after the add; flatten = none
  // The body ends in a batch norm, whose output no backward reads: the shortcut is added into it
  // in place (as torchvision's ResNet blocks do, `out += identity`), saving a tensor per block.
  bool add_in_place = false;
  torch::Tensor forward(torch::Tensor x) {
    torch::Tensor y = x;
    for (auto& s : body) y = s(y);
    if (add_in_place)
      y.add_(projection ? projection->forward(x) : x);
    else
      y = y + (projection ? projection->forward(x) : x);
    // The sum is a tensor that no backward needs, so the activation may run in place.
    if (after == LayerKind::relu) y = torch::relu_(y);
    if (after == LayerKind::relu6) y = relu6(y, true);
    return y;
  }
};

void freeze_if_needed(torch::nn::Module& m, const Layer& l) {
  if (l.trainable) return;
  for (auto& p : m.parameters()) p.set_requires_grad(false);
}

void add_steps(torch::nn::Module& owner, std::vector<Step>& steps, const std::vector<Layer>& layers,
               Shape& shape, const ModelSpec& spec) {
  torch::NoGradGuard no_grad;  // initialisation writes parameters in place
  LayerKind prev = LayerKind::flatten;  // nothing before the first layer of a list: not in place
  for (const Layer& l : layers) {
    const Shape in = shape;
    shape = output_shape(l, in, spec.classes);
    const bool in_place = activation_in_place(prev);
    switch (l.kind) {
      case LayerKind::conv: {
        auto m = owner.register_module(
            l.name, torch::nn::Conv2d(torch::nn::Conv2dOptions(in[0], l.out, l.kernel)
                                          .stride(l.stride)
                                          .padding(l.pad)
                                          .groups(l.groups)
                                          .bias(l.bias)));
        if (spec.conv_init == ConvInit::kaiming_fan_out) {
          torch::nn::init::kaiming_normal_(m->weight, 0.0, torch::kFanOut, torch::kReLU);
          if (l.bias) torch::nn::init::zeros_(m->bias);
        }
        freeze_if_needed(*m, l);
        steps.push_back([m](torch::Tensor x) { return m->forward(x); });
        break;
      }
      case LayerKind::linear: {
        auto m = owner.register_module(
            l.name, torch::nn::Linear(torch::nn::LinearOptions(in[0], shape[0]).bias(l.bias)));
        if (spec.linear_init == LinearInit::normal_001) {
          torch::nn::init::normal_(m->weight, 0.0, 0.01);
          if (l.bias) torch::nn::init::zeros_(m->bias);
        }
        freeze_if_needed(*m, l);
        steps.push_back([m](torch::Tensor x) { return m->forward(x); });
        break;
      }
      case LayerKind::batchnorm: {
        if (in.size() == 3) {
          auto m = owner.register_module(
              l.name, torch::nn::BatchNorm2d(
                          torch::nn::BatchNorm2dOptions(in[0]).eps(l.eps).momentum(l.momentum)));
          freeze_if_needed(*m, l);
          steps.push_back([m](torch::Tensor x) { return m->forward(x); });
        } else {
          auto m = owner.register_module(
              l.name, torch::nn::BatchNorm1d(
                          torch::nn::BatchNorm1dOptions(in[0]).eps(l.eps).momentum(l.momentum)));
          freeze_if_needed(*m, l);
          steps.push_back([m](torch::Tensor x) { return m->forward(x); });
        }
        break;
      }
      case LayerKind::relu:
        if (in_place) steps.push_back([](torch::Tensor x) { return torch::relu_(x); });
        else steps.push_back([](torch::Tensor x) { return torch::relu(x); });
        break;
      case LayerKind::relu6:
        steps.push_back([in_place](torch::Tensor x) { return relu6(x, in_place); });
        break;
      case LayerKind::maxpool: {
        const int64_t k = l.kernel, s = l.stride, p = l.pad;
        steps.push_back([k, s, p](torch::Tensor x) { return torch::max_pool2d(x, k, s, p); });
        break;
      }
      case LayerKind::avgpool: {
        const int64_t k = l.kernel, s = l.stride, p = l.pad;
        steps.push_back([k, s, p](torch::Tensor x) { return torch::avg_pool2d(x, k, s, p); });
        break;
      }
      case LayerKind::adaptive_avgpool: {
        const int64_t o = l.out;
        steps.push_back([o](torch::Tensor x) { return torch::adaptive_avg_pool2d(x, {o, o}); });
        break;
      }
      case LayerKind::dropout: {
        auto m = owner.register_module(l.name, torch::nn::Dropout(l.p));
        steps.push_back([m](torch::Tensor x) { return m->forward(x); });
        break;
      }
      case LayerKind::flatten:
        steps.push_back([](torch::Tensor x) { return x.flatten(1); });
        break;
      case LayerKind::sequential: {
        auto m = owner.register_module(l.name, std::make_shared<SeqBlock>());
        Shape s = in;
        add_steps(*m, m->steps, l.body, s, spec);
        freeze_if_needed(*m, l);
        steps.push_back([m](torch::Tensor x) { return m->forward(x); });
        break;
      }
      case LayerKind::residual: {
        auto m = owner.register_module(l.name, std::make_shared<ResidualBlock>());
        Shape s = in;
        add_steps(*m, m->body, l.body, s, spec);
        if (!l.projection.empty()) {
          m->projection = m->register_module("downsample", std::make_shared<SeqBlock>());
          Shape t = in;
          add_steps(*m->projection, m->projection->steps, l.projection, t, spec);
        }
        m->after = l.after;
        m->add_in_place = !l.body.empty() && l.body.back().kind == LayerKind::batchnorm;
        freeze_if_needed(*m, l);
        steps.push_back([m](torch::Tensor x) { return m->forward(x); });
        break;
      }
    }
    prev = l.kind;
  }
}

}  // namespace

Net::Net(const ModelSpec& spec) : spec_(spec) {
  validate(spec_);
  Shape shape{spec_.channels, spec_.input, spec_.input};
  add_steps(*this, steps_, spec_.layers, shape, spec_);
}

torch::Tensor Net::forward(torch::Tensor x) {
  for (auto& s : steps_) x = s(x);
  return x;
}

std::shared_ptr<Net> build_module(const ModelSpec& spec) { return std::make_shared<Net>(spec); }

int64_t count_parameters(torch::nn::Module& module, bool trainable_only) {
  int64_t n = 0;
  for (const auto& p : module.parameters())
    if (!trainable_only || p.requires_grad()) n += p.numel();
  return n;
}

int64_t count_buffers(torch::nn::Module& module) {
  int64_t n = 0;
  for (const auto& b : module.buffers()) n += b.numel();
  return n;
}

}  // namespace rlx::models
