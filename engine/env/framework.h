// framework.h: which deep-learning framework a run trained with, as data (issue 51): LibTorch's
// version and commit, the CUDA, cuDNN and NCCL it was built with or loaded, its oneDNN, and the BLAS
// its matrix products call (MKL or OpenBLAS, the version, the instruction set it dispatches to).
// Two databases that differ only in these are two environments (the environment id hashes them).
//
// The build-time facts come from LibTorch's own configuration summary (at::show_config(), the text
// torch.__config__.show() prints); this file turns that text into fields once, in C++, so nothing
// downstream matches prose. The run-time facts (the CUDA runtime, NCCL, the BLAS's ISA) are added
// by engine/train/devices.cpp, which can ask the loaded libraries.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace rlx::env {

// Fields read from at::show_config()'s text; each is left out when the text does not say it:
//   torch ("2.15.0"), torch_git (COMMIT_SHA), cxx_compiler ("GCC 13.3"), cuda_build ("13.2"),
//   cudnn_build ("9.26.0"), onednn ("3.13.3"), blas {name ("MKL", "OpenBLAS", ...), version},
//   cpu_capability (ATen's kernels: "AVX512", "AVX2", "DEFAULT"), openmp ("4.5"),
//   distributed {gloo, nccl, mpi} (which c10d backends were built in: true/false).
nlohmann::json framework_from_config(const std::string& show_config);

// The MKL version from MKL_Get_Version_String's text ("Intel(R) oneAPI Math Kernel Library Version
// 2024.2-Product Build 20240605 ..." -> "2024.2"); "" when it names none.
std::string mkl_version_from_text(const std::string& text);

// The instruction set of an MKL conditional-numerical-reproducibility branch, as
// mkl_cbwr_get_auto_branch() returns it (MKL's documented MKL_CBWR_* constants: 10 -> "AVX2",
// 12 -> "AVX-512"; 2, COMPATIBLE, on a CPU that is not Intel's); "" for a value it does not know.
std::string mkl_branch_isa(int branch);

}  // namespace rlx::env
