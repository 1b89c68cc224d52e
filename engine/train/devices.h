// devices.h: the devices this machine can train on, as LibTorch sees them (the CPU, and each CUDA
// GPU of a CUDA build). Device discovery lives here, apart from the training loop. Built into
// librlx_torch.so: rlx calls devices() and cudnn_version() through startup::tensor_library().
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rlx::train {

// [{kind = "cpu", id = "cpu", name, memory_bytes, threads, refused_precisions},
//  {kind = "cuda", id = "cuda:N", name, memory_bytes, multiprocessors, capability, refused_precisions},
//  ...]; refused_precisions: {precision = the one-line refusal} (train/precisions.h), {} for none.
nlohmann::json devices();

// The cuDNN LibTorch runs with, "9.19.0"; "" in a CPU build or a LibTorch without cuDNN. It can
// differ from the cuDNN installed on the machine (PyTorch's wheels bring their own: 9.19.0 beside
// an installed 9.14.0 on an H100 image, 2026-11-27), and the runs use this one. Needs no GPU.
std::string cudnn_version();

// cudnnGetVersion()'s number as text: cuDNN 9 counts major x 10000 + minor x 100 + patch (91900 =
// 9.19.0), cuDNN 8 and older major x 1000 + minor x 100 + patch (8902 = 8.9.2); "" for <= 0.
std::string cudnn_version_text(long version);

// The framework this process trains with, as data (env/framework.h): the fields of
// at::show_config(), plus what only the loaded libraries know: cuda_runtime (the CUDA runtime
// LibTorch loaded, "13.2"), cudnn (the one it runs with), nccl ("2.30.7"), the BLAS's version and
// dispatch ISA (blas {name, version, isa}: MKL's auto branch, OpenBLAS's core) and the OpenMP
// runtime's file (openmp_library). Needs no GPU.
nlohmann::json framework();

}  // namespace rlx::train
