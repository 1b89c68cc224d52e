// complexity.cpp: walks a ModelSpec in forward order, one LayerCost per leaf layer (and per
// residual add), and adds up the totals. The rules (documented in docs/complexity.md):
//  - MACs: conv = out elements x (in channels / groups) x k x k; linear = in x out features.
//  - Elementwise FLOPs per element: bias add 1, batchnorm 5 (sum 1, sum of squares 2,
//    y = x*a + b 2), relu 1, relu6 2, dropout 1, residual add 1; per output element: max pool
//    k*k - 1 comparisons, avg pool k*k; adaptive avg pool: the size of each window.
//  - Backward: conv/linear weight gradient 2 x MACs when trainable, input gradient 2 x MACs when
//    a gradient must flow into the input (some layer upstream is trainable), bias gradient one add
//    per output element; other layers repeat their forward elementwise FLOPs when they have
//    anything to differentiate; residual adds pass the gradient on for free.
//  - Traffic: each layer reads its input and weights and writes its output once (forward); in
//    backward it reads the output gradient and its saved tensor, writes the input gradient and the
//    weight gradient. No reuse across layers, no fusion.
#include "models/complexity.h"

#include <fmt/format.h>

#include <cstdint>
#include <stdexcept>

namespace rlx::models {

Precision parse_precision(const std::string& s) {
  if (s == "fp32") return Precision::fp32;
  if (s == "amp" || s == "fp16") return Precision::amp;
  if (s == "bf16") return Precision::bf16;
  throw std::invalid_argument(
      fmt::format("unknown precision '{}' (choose fp32, amp or bf16)", s));
}

const std::vector<std::string>& precision_names() {
  static const std::vector<std::string> names = {
      precision_name(Precision::fp32), precision_name(Precision::amp), precision_name(Precision::bf16)};
  return names;
}

const std::vector<std::string>& memory_format_names() {
  static const std::vector<std::string> names = {"channels_last", "contiguous"};
  return names;
}

const std::vector<std::string>& device_kind_names() {
  static const std::vector<std::string> names = {"cpu", "cuda"};
  return names;
}

const char* precision_name(Precision p) {
  switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::amp: return "amp";
    case Precision::bf16: return "bf16";
  }
  return "?";
}

namespace {

// The estimates are int64. A batch or input large enough to overflow one is refused (summarize
// turns this into a message naming the limit) instead of wrapping into a negative count.
struct Overflow : std::overflow_error {
  Overflow() : std::overflow_error("int64 overflow") {}
};

int64_t mul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) throw Overflow();
  return r;
}
template <class... More>
int64_t mul(int64_t a, int64_t b, More... more) {
  return mul(mul(a, b), more...);
}
int64_t add(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) throw Overflow();
  return r;
}
template <class... More>
int64_t add(int64_t a, int64_t b, More... more) {
  return add(add(a, b), more...);
}
void acc(int64_t& total, int64_t v) { total = add(total, v); }

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n = mul(n, d);
  return n;
}

// Sum of the window sizes of an adaptive pool from `in` to `out` positions along one axis
// (PyTorch: window i spans [floor(i*in/out), ceil((i+1)*in/out))).
int64_t adaptive_window_sum(int64_t in, int64_t out) {
  int64_t sum = 0;
  for (int64_t i = 0; i < out; ++i)
    acc(sum, (add(mul(i + 1, in), out) - 1) / out - mul(i, in) / out);
  return sum;
}

struct Walker {
  const ModelSpec& spec;
  int64_t batch;
  Precision precision;
  Summary& s;
  int64_t act_bytes() const { return precision == Precision::fp32 ? 4 : 2; }
  int64_t low_bytes() const { return precision == Precision::fp32 ? 4 : 2; }

  // Fills the byte fields and adds the layer to the totals.
  void finish(LayerCost& c, bool does_backward, int64_t saved_read_bytes) {
    const int64_t a = act_bytes();
    c.input_bytes = mul(batch, numel(c.input), a);
    c.output_bytes = mul(batch, numel(c.output), a);
    if (c.kind == "add") c.input_bytes = mul(c.input_bytes, 2);  // two summands
    const bool view = c.kind == "flatten";
    c.saved_bytes = (view || c.in_place) ? 0 : c.output_bytes;
    if (c.kind == "maxpool") acc(c.saved_bytes, mul(batch, numel(c.output), 8));  // int64 argmax
    if (c.kind == "dropout") acc(c.saved_bytes, mul(batch, numel(c.output)));     // 1-byte mask
    int64_t traffic = view ? 0 : add(c.input_bytes, c.weight_bytes, c.output_bytes);
    if (does_backward && !view && c.kind != "add") {
      acc(traffic, add(c.output_bytes, saved_read_bytes));             // grad out, saved tensor
      if (c.input_grad) acc(traffic, add(c.input_bytes, c.params ? c.weight_bytes : 0));
      acc(traffic, mul(c.trainable_params, 4));                         // fp32 weight gradient
    }
    c.traffic_bytes = traffic;
    acc(s.params, c.params);
    acc(s.trainable_params, c.trainable_params);
    acc(s.buffers, c.buffers);
    acc(s.forward_macs, c.macs);
    acc(s.elementwise_flops, c.elementwise_flops);
    acc(s.backward_flops, c.backward_flops);
    acc(s.layer_traffic_bytes, c.traffic_bytes);
    acc(s.activation_bytes, c.saved_bytes);
    s.layers.push_back(c);
  }

  // A leaf layer; `grad` says whether a gradient flows into its input and is updated for its
  // output.
  void leaf(const Layer& l, const std::string& path, const Shape& in, const Shape& out,
            bool& grad, bool frozen, bool in_place) {
    LayerCost c;
    c.name = path;
    c.kind = kind_name(l.kind);
    c.input = in;
    c.output = out;
    c.input_grad = grad;
    c.in_place = in_place;
    const int64_t n_in = numel(in), n_out = numel(out);
    bool conv_like = false;
    switch (l.kind) {
      case LayerKind::conv: {
        const int64_t per_out = mul(in[0] / l.groups, l.kernel, l.kernel);
        c.params = add(mul(l.out, per_out), l.bias ? l.out : 0);
        c.macs = mul(n_out, per_out);
        c.elementwise_flops = l.bias ? n_out : 0;
        conv_like = true;
        break;
      }
      case LayerKind::linear:
        c.params = add(mul(n_in, n_out), l.bias ? n_out : 0);
        c.macs = mul(n_in, n_out);
        c.elementwise_flops = l.bias ? n_out : 0;
        conv_like = true;
        break;
      case LayerKind::batchnorm:
        c.params = mul(2, in[0]);
        c.buffers = add(mul(2, in[0]), 1);  // running mean, running var, num_batches_tracked
        c.elementwise_flops = mul(5, n_in);
        acc(s.buffer_bytes, add(mul(2, in[0], 4), 8));
        break;
      case LayerKind::relu: c.elementwise_flops = n_in; break;
      case LayerKind::relu6: c.elementwise_flops = mul(2, n_in); break;
      case LayerKind::dropout: c.elementwise_flops = n_in; break;
      case LayerKind::maxpool: c.elementwise_flops = mul(n_out, mul(l.kernel, l.kernel) - 1); break;
      case LayerKind::avgpool: c.elementwise_flops = mul(n_out, l.kernel, l.kernel); break;
      case LayerKind::adaptive_avgpool:
        c.elementwise_flops =
            mul(in[0], adaptive_window_sum(in[1], l.out), adaptive_window_sum(in[2], l.out));
        break;
      default: break;
    }
    c.flops = mul(2, c.macs);
    c.trainable_params = (l.trainable && !frozen) ? c.params : 0;
    if (conv_like) {
      c.weight_bytes = mul(c.params, low_bytes());
      acc(s.conv_linear_params, c.params);
    } else {
      c.weight_bytes = mul(c.params, 4);
    }
    const bool trainable = c.trainable_params > 0;
    const bool does_backward = grad || trainable;
    if (conv_like) {
      c.backward_flops = add(trainable ? add(mul(2, c.macs), c.elementwise_flops) : 0,
                             grad ? mul(2, c.macs) : 0);
    } else if (does_backward) {
      c.backward_flops = c.elementwise_flops;
    }
    // What backward reads besides the output gradient: relu/relu6 their output, dropout its
    // mask, the others their input.
    int64_t saved_read = mul(batch, n_in, act_bytes());
    if (l.kind == LayerKind::relu || l.kind == LayerKind::relu6)
      saved_read = mul(batch, n_out, act_bytes());
    if (l.kind == LayerKind::dropout) saved_read = mul(batch, n_out);
    finish(c, does_backward, saved_read);
    grad = does_backward;
  }

  Shape walk(const std::vector<Layer>& layers, Shape shape, bool& grad, const std::string& prefix,
             bool frozen) {
    LayerKind prev = LayerKind::flatten;  // the first layer of a list never runs in place
    for (const Layer& l : layers) {
      const std::string path = prefix.empty() ? l.name : prefix + "." + l.name;
      const bool fz = frozen || !l.trainable;
      if (l.kind == LayerKind::sequential) {
        shape = walk(l.body, shape, grad, path, fz);
      } else if (l.kind == LayerKind::residual) {
        bool grad_body = grad, grad_skip = grad;
        Shape out = walk(l.body, shape, grad_body, path, fz);
        if (!l.projection.empty()) walk(l.projection, shape, grad_skip, path + ".downsample", fz);
        grad = grad_body || grad_skip;
        LayerCost add;
        add.name = path + ".add";
        add.kind = "add";
        add.input = out;
        add.output = out;
        add.input_grad = grad;
        add.elementwise_flops = numel(out);
        finish(add, grad, 0);
        if (l.after != LayerKind::flatten) {
          Layer act;
          act.kind = l.after;
          leaf(act, path + "." + kind_name(l.after), out, out, grad, fz, true);
        }
        shape = out;
      } else {
        Shape out = output_shape(l, shape, spec.classes);
        const bool in_place = (l.kind == LayerKind::relu || l.kind == LayerKind::relu6) &&
                              activation_in_place(prev);
        leaf(l, path, shape, out, grad, fz, in_place);
        shape = out;
      }
      prev = l.kind;
    }
    return shape;
  }
};

Summary compute(const ModelSpec& spec, int64_t batch, Precision precision) {
  Summary s;
  s.model = spec.name;
  s.batch = batch;
  s.input = spec.input;
  s.classes = spec.classes;
  s.channels = spec.channels;
  s.precision = precision;
  Walker w{spec, batch, precision, s};
  bool grad = false;  // the input batch needs no gradient
  w.walk(spec.layers, {spec.channels, spec.input, spec.input}, grad, "", false);
  const bool low = precision != Precision::fp32;
  s.forward_flops = mul(2, s.forward_macs);
  // SGD with momentum and weight decay, per trainable parameter: g += wd*p (2), buf = m*buf + g
  // (2), p -= lr*buf (2); with amp one more multiply to unscale the gradient.
  s.optimizer_flops = mul(s.trainable_params, precision == Precision::amp ? 7 : 6);
  s.train_flops = add(mul(batch, add(s.forward_flops, s.elementwise_flops, s.backward_flops)),
                      s.optimizer_flops);
  // Optimizer reads p, g, buf and writes p, buf (fp32); low precision re-casts the conv/linear
  // weights every iteration (read fp32, write 2 bytes).
  s.optimizer_traffic_bytes =
      add(mul(s.trainable_params, 4, 5), low ? mul(s.conv_linear_params, 6) : 0);
  s.bytes = add(s.layer_traffic_bytes, s.optimizer_traffic_bytes);
  s.ai = s.bytes > 0 ? static_cast<double>(s.train_flops) / static_cast<double>(s.bytes) : 0.0;
  s.param_bytes = mul(s.params, 4);
  s.grad_bytes = mul(s.trainable_params, 4);
  s.momentum_bytes = mul(s.trainable_params, 4);
  s.weight_copy_bytes = low ? mul(s.conv_linear_params, 2) : 0;
  // The input batch arrives in fp32 whatever the precision.
  acc(s.activation_bytes, mul(batch, spec.channels, spec.input, spec.input, 4));
  s.memory_bytes = add(s.param_bytes, s.grad_bytes, s.momentum_bytes, s.buffer_bytes,
                       s.weight_copy_bytes, s.activation_bytes);
  return s;
}

// Whether every estimate at `batch` fits in int64.
bool fits(const ModelSpec& spec, int64_t batch) {
  try {
    compute(spec, batch, Precision::fp32);
    compute(spec, batch, Precision::amp);
    compute(spec, batch, Precision::bf16);
    return true;
  } catch (const Overflow&) {
    return false;
  }
}

// The message for a batch (or input) whose estimates overflow int64: names the limit and, when
// batch 1 fits, the largest batch that does (bisection; each step is one walk of the model).
std::string overflow_message(const ModelSpec& spec, int64_t batch) {
  const std::string limit = fmt::format("the int64 limit {}", INT64_MAX);
  if (!fits(spec, 1))
    return fmt::format("input {} is too large: {} at batch 1 exceeds {}; use a smaller input",
                       spec.input, spec.name, limit);
  int64_t lo = 1, hi = batch;  // fits(lo), !fits(hi)
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    (fits(spec, mid) ? lo : hi) = mid;
  }
  return fmt::format("batch {} is too large: {} at input {} exceeds {} FLOPs or bytes; the "
                     "largest batch is {}",
                     batch, spec.name, spec.input, limit, lo);
}

}  // namespace

Summary summarize(const ModelSpec& spec, int64_t batch, Precision precision) {
  if (batch < 1) throw std::invalid_argument(fmt::format("batch must be >= 1, got {}", batch));
  if (!fits(spec, batch)) throw std::invalid_argument(overflow_message(spec, batch));
  Summary s = compute(spec, batch, precision);
  s.memory_fp32_bytes = precision == Precision::fp32
                            ? s.memory_bytes
                            : compute(spec, batch, Precision::fp32).memory_bytes;
  s.memory_amp_bytes = precision == Precision::amp
                           ? s.memory_bytes
                           : compute(spec, batch, Precision::amp).memory_bytes;
  return s;
}

nlohmann::json to_json(const LayerCost& c) {
  return {{"name", c.name},
          {"kind", c.kind},
          {"input", c.input},
          {"output", c.output},
          {"params", c.params},
          {"trainable_params", c.trainable_params},
          {"buffers", c.buffers},
          {"macs", c.macs},
          {"flops", c.flops},
          {"elementwise_flops", c.elementwise_flops},
          {"backward_flops", c.backward_flops},
          {"input_grad", c.input_grad},
          {"in_place", c.in_place},
          {"weight_bytes", c.weight_bytes},
          {"input_bytes", c.input_bytes},
          {"output_bytes", c.output_bytes},
          {"saved_bytes", c.saved_bytes},
          {"traffic_bytes", c.traffic_bytes}};
}

nlohmann::json to_json(const Summary& s, bool with_layers) {
  nlohmann::json j = {{"model", s.model},
                      {"batch", s.batch},
                      {"input", s.input},
                      {"classes", s.classes},
                      {"channels", s.channels},
                      {"precision", precision_name(s.precision)},
                      {"params", s.params},
                      {"trainable_params", s.trainable_params},
                      {"buffers", s.buffers},
                      {"conv_linear_params", s.conv_linear_params},
                      {"forward_macs", s.forward_macs},
                      {"forward_flops", s.forward_flops},
                      {"elementwise_flops", s.elementwise_flops},
                      {"backward_flops", s.backward_flops},
                      {"optimizer_flops", s.optimizer_flops},
                      {"train_flops", s.train_flops},
                      {"activation_bytes", s.activation_bytes},
                      {"layer_traffic_bytes", s.layer_traffic_bytes},
                      {"optimizer_traffic_bytes", s.optimizer_traffic_bytes},
                      {"bytes", s.bytes},
                      {"ai", s.ai},
                      {"param_bytes", s.param_bytes},
                      {"grad_bytes", s.grad_bytes},
                      {"momentum_bytes", s.momentum_bytes},
                      {"buffer_bytes", s.buffer_bytes},
                      {"weight_copy_bytes", s.weight_copy_bytes},
                      {"memory_bytes", s.memory_bytes},
                      {"memory_fp32_bytes", s.memory_fp32_bytes},
                      {"memory_amp_bytes", s.memory_amp_bytes}};
  if (with_layers) {
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& c : s.layers) layers.push_back(to_json(c));
    j["layers"] = std::move(layers);
  }
  return j;
}

}  // namespace rlx::models
