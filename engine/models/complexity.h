// complexity.h: what one training iteration of a ModelSpec costs, computed from the spec alone
// (no LibTorch): per-layer shapes, parameters, buffers, multiply-accumulates, elementwise FLOPs,
// backward FLOPs, bytes moved and memory kept for backward, and the totals the study needs
// (training FLOPs per iteration, minimum traffic, arithmetic intensity, training memory).
// Every rule is written out with a worked example in docs/complexity.md.
// Units: FLOPs count a multiply and an add as two; MACs count the pair as one. Byte counts are
// plain bytes. "per image" and "per iteration" (whole batch) are said in each field's comment.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "models/model_spec.h"

namespace rlx::models {

// fp32: everything 4 bytes. amp: fp16 activations and fp16 copies of conv/linear weights, fp32
// master weights, gradients and momentum (CUDA autocast). bf16: the same with bfloat16.
enum class Precision { fp32, amp, bf16 };
Precision parse_precision(const std::string& s);  // throws std::invalid_argument naming the choices
const char* precision_name(Precision p);
// Every precision's name, in the order help texts list them ("fp32", "amp", "bf16"): the one list
// rlx knows (rlx.train checks against it; Lua reads it as rlx.model.PRECISIONS).
const std::vector<std::string>& precision_names();
// The memory layouts a model trains in ("channels_last", the default of a convolutional model,
// then "contiguous"): the one list (rlx.train checks against it; Lua reads rlx.model.MEMORY_FORMATS).
const std::vector<std::string>& memory_format_names();
// The kinds of device rlx trains and measures on ("cpu", "cuda"; a device id is a kind, or
// "cuda:N"): the one list (rlx.peaks.measure's device; Lua reads rlx.model.DEVICE_KINDS).
const std::vector<std::string>& device_kind_names();

struct LayerCost {
  std::string name;  // module path as LibTorch names it ("layer1.0.conv1"); adds end in ".add"
  std::string kind;  // kind_name(), or "add" for a residual sum
  Shape input, output;  // per image
  int64_t params = 0, trainable_params = 0, buffers = 0;
  int64_t macs = 0;               // per image, conv and linear only
  int64_t flops = 0;              // per image, 2 x macs
  int64_t elementwise_flops = 0;  // per image: bias adds, BN, activations, pooling, dropout, adds
  int64_t backward_flops = 0;     // per image
  bool input_grad = false;        // whether backward computes a gradient for this layer's input
  bool in_place = false;          // activation that overwrites its input
  int64_t weight_bytes = 0;       // parameters as the kernel reads them (precision-dependent)
  int64_t input_bytes = 0;        // whole batch
  int64_t output_bytes = 0;       // whole batch
  int64_t saved_bytes = 0;        // whole batch: memory kept alive for backward
  int64_t traffic_bytes = 0;      // whole batch: minimum forward + backward traffic
};

struct Summary {
  std::string model;
  int64_t batch = 1, input = 224, classes = 1000, channels = 3;
  Precision precision = Precision::fp32;
  int64_t params = 0, trainable_params = 0, buffers = 0;
  int64_t forward_macs = 0;       // per image (conv + linear)
  int64_t forward_flops = 0;      // per image, 2 x forward_macs
  int64_t elementwise_flops = 0;  // per image
  int64_t backward_flops = 0;     // per image
  int64_t optimizer_flops = 0;    // per iteration (SGD, momentum, weight decay)
  int64_t train_flops = 0;        // per iteration, whole batch
  int64_t activation_bytes = 0;   // whole batch: sum of layer saved_bytes plus the input batch
  int64_t layer_traffic_bytes = 0;      // whole batch: sum of layer traffic_bytes
  int64_t optimizer_traffic_bytes = 0;  // per iteration (incl. low-precision weight copies)
  int64_t bytes = 0;              // per iteration: layer traffic + optimizer traffic
  double ai = 0;                  // train_flops / bytes, FLOP per byte
  // Training memory at this batch: params + grads + momentum + buffers (+ low-precision weight
  // copies) + activations kept for backward.
  int64_t conv_linear_params = 0;  // parameters that low precision copies (conv and linear)
  int64_t param_bytes = 0, grad_bytes = 0, momentum_bytes = 0, buffer_bytes = 0,
          weight_copy_bytes = 0;
  int64_t memory_bytes = 0;       // in the chosen precision
  int64_t memory_fp32_bytes = 0;  // the same in fp32
  int64_t memory_amp_bytes = 0;   // the same in amp
  std::vector<LayerCost> layers;  // leaves in forward order
};

// Throws std::invalid_argument when batch < 1 (the spec itself was validated when made).
Summary summarize(const ModelSpec& spec, int64_t batch = 1, Precision precision = Precision::fp32);

nlohmann::json to_json(const LayerCost& layer);
nlohmann::json to_json(const Summary& summary, bool with_layers = true);

}  // namespace rlx::models
