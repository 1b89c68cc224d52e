// devices.h: the devices this machine can train on, as LibTorch sees them (the CPU, and each CUDA
// GPU of a CUDA build). Device discovery lives here, apart from the training loop.
#pragma once

#include <nlohmann/json.hpp>

namespace rlx::train {

// [{kind = "cpu", id = "cpu", name, memory_bytes, threads},
//  {kind = "cuda", id = "cuda:N", name, memory_bytes, multiprocessors, capability}, ...].
nlohmann::json devices();

}  // namespace rlx::train
