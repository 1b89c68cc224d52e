// memory_format.h: the memory layout a training run uses for its images and 4-D weights (includes
// LibTorch: only trainer.cpp and memory_format.cpp include it).
//
// "channels_last" (NHWC) lets oneDNN (CPU) and cuDNN (CUDA) run convolutions without reordering
// tensors at every layer; PyTorch's performance guides recommend it for convolutional networks on
// both. It is the default for a model with a 2-D convolution (a 4-D weight); "contiguous" (NCHW,
// PyTorch's own default and seed 000's run_train.py default) for every other model.
#pragma once

#include <torch/torch.h>

#include <string>

namespace rlx::train {

// The format to use: `requested` ("channels_last" or "contiguous"), or when it is empty the
// default for `net` (see above).
std::string resolve_memory_format(const std::string& requested, torch::nn::Module& net);

// Converts the 4-D parameters and buffers of `net` to `format` and returns the torch value for the
// inputs.
torch::MemoryFormat apply_memory_format(const std::string& format, torch::nn::Module& net);

}  // namespace rlx::train
