// tensor_library.h: the parts of rlx that use LibTorch, loaded when first used (docs/training.md,
// "Start-up").
//
// LibTorch's static initializers take about 0.8 s on a 2-core EPYC, before main() could do
// anything, and a command that never touches a tensor (`rlx --help`, `rlx runs DB`, a report, a
// script that only reads a database) has no use for them. So the trainer, the device list, the
// module builder, the data-parallel ranks and the GEMM and CUDA peaks (the one list of those files:
// rlx_tensor_objects in engine/CMakeLists.txt) are
// built into a shared library of their own, librlx_torch.so, which rlx loads (dlopen) the first
// time one of the functions below is called. It is found next to the executable: the directory of
// /proc/self/exe, so build/rlx finds build/librlx_torch.so and a copy of the binary elsewhere needs
// the library copied beside it. Everything else the library needs (util, models, the plain part of
// train, ...) it takes from the executable, which exports its symbols.
//
// Loading it is also when the settings that LibTorch's own libraries read as they load are decided
// and applied: how OpenMP threads wait (libgomp reads GOMP_SPINCOUNT) and the OpenBLAS kernel set
// (OpenBLAS reads OPENBLAS_CORETYPE), so neither needs a restart (startup.h).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "peaks/measure.h"
#include "libtorch/tensor_abi.h"
#include "train/trainer.h"

namespace rlx::startup {

// What librlx_torch.so offers the rest of rlx. kTensorLibraryAbi (libtorch/tensor_abi.h, generated
// by cmake/tensor_abi_gen.cmake) is a hash of this header and of every header whose types cross
// the boundary (engine/CMakeLists.txt, RLX_TENSOR_ABI_HEADERS): it changes whenever one of them
// does, so a library from another build is refused rather than called wrongly. It stays the first
// member, so any library's stamp can be read.
struct TensorLibrary {
  std::uint64_t abi = kTensorLibraryAbi;
  train::TrainResult (*train)(const train::TrainConfig&, train::IterationObserver*) = nullptr;
  nlohmann::json (*devices)() = nullptr;
  std::string (*cudnn_version)() = nullptr;
  // The framework as data (train/devices.h framework()): LibTorch, CUDA, cuDNN, NCCL, oneDNN, BLAS.
  nlohmann::json (*framework)() = nullptr;
  // The optimizer line of `rlx version`/`rlx env` (train/sgd.h): which CUDA SGD kernel this
  // LibTorch has is known only where its headers are.
  std::string (*optimizer_note)() = nullptr;
  peaks::GemmTiming (*cpu_gemm)(const std::string& dtype, int n, int threads, int repeats,
                                double target_s) = nullptr;
  bool (*cuda_available)() = nullptr;
  nlohmann::json (*measure_cuda)(const peaks::MeasureOptions&) = nullptr;
  // `rlx _rank`: one rank of a data-parallel run (train/data_parallel.h); the exit status.
  int (*run_rank)() = nullptr;
};

// The library, loaded on the first call (the start-up's choices for it applied first). Throws
// std::runtime_error naming the file and the fix when it cannot be loaded.
const TensorLibrary& tensor_library();

// Whether it is loaded (or linked in, as in the unit tests): a command that never touched a tensor
// says no.
bool tensor_library_loaded();

// Where rlx looks for librlx_torch.so: beside /proc/self/exe.
std::string tensor_library_path();

}  // namespace rlx::startup

// Defined in librlx_torch.so (engine/libtorch/tensor_entry.cpp): the table above.
extern "C" const rlx::startup::TensorLibrary* rlx_tensor_library();
