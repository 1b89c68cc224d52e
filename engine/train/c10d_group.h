// c10d_group.h: GradientSync::Group, the c10d process group of a rank (gradient_sync.cpp and
// rank_process.cpp; builds with c10d only, RLX_HAVE_C10D).
#pragma once

#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>

#include <string>

#include "train/gradient_sync.h"

namespace rlx::train {

struct GradientSync::Group {
  c10::intrusive_ptr<c10d::ProcessGroup> pg;
  std::string backend;  // "gloo" or "nccl": the backend of the training's device
  torch::Device device{torch::kCPU};
};

}  // namespace rlx::train
