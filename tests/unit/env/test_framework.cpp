// test_framework.cpp: the framework as data (issue 51) from at::show_config()'s text. The two texts
// are real: PyPI's torch 2.15.0+cu132 and Debian 12's libtorch 1.13.1, printed by
// torch.__config__.show() on 2026-12-02 (trimmed to the lines and settings the parser reads).
#include <catch2/catch.hpp>

#include "env/framework.h"

using rlx::env::framework_from_config;
using rlx::env::mkl_branch_isa;
using rlx::env::mkl_version_from_text;

namespace {

const char* kWheel = R"(PyTorch built with:
  - GCC 13.3
  - C++ Version: 202002
  - Intel(R) oneAPI Math Kernel Library Version 2024.2-Product Build 20240605 for Intel(R) 64 architecture applications
  - Intel(R) MKL-DNN v3.13.3 (Git Hash b38f97eb6f2173513112f15a0481750b8a66e901)
  - OpenMP 201511 (a.k.a. OpenMP 4.5)
  - LAPACK is enabled (usually provided by MKL)
  - NNPACK is enabled
  - CPU capability usage: AVX512
  - Build settings: BLAS_INFO=mkl, BUILD_TYPE=Release, COMMIT_SHA=d0f2af8b66b20da4baa50644c0cd3f887a2eae2e, CUDA_VERSION=13.2, CUDNN_VERSION=9.26.0, CXX_COMPILER=/opt/rh/gcc-toolset-13/root/usr/bin/c++, LAPACK_INFO=mkl, PERF_WITH_AVX=1, TORCH_VERSION=2.15.0, USE_CUDA=1, USE_CUDNN=ON, USE_GLOO=ON, USE_MKL=ON, USE_MKLDNN=ON, USE_MPI=OFF, USE_NCCL=ON, USE_OPENMP=ON,
)";

const char* kDebian = R"(PyTorch built with:
  - GCC 12.2
  - C++ Version: 201402
  - Intel(R) MKL-DNN v2.6.3 (Git Hash N/A)
  - OpenMP 201511 (a.k.a. OpenMP 4.5)
  - LAPACK is enabled (usually provided by MKL)
  - CPU capability usage: AVX2
  - Build settings: BLAS_INFO=generic, BUILD_TYPE=RelWithDebInfo, CXX_COMPILER=/usr/bin/c++, LAPACK_INFO=generic, TORCH_VERSION=1.13.0, USE_CUDA=OFF, USE_CUDNN=OFF, USE_MKLDNN=ON, USE_MPI=OFF, USE_NCCL=OFF, USE_OPENMP=ON, USE_ROCM=OFF,
)";

}  // namespace

TEST_CASE("framework: PyPI's torch 2.15.0 wheel") {
  const auto f = framework_from_config(kWheel);
  CHECK(f["torch"] == "2.15.0");
  CHECK(f["torch_git"] == "d0f2af8b66b20da4baa50644c0cd3f887a2eae2e");
  CHECK(f["cxx_compiler"] == "GCC 13.3");
  CHECK(f["cuda_build"] == "13.2");
  CHECK(f["cudnn_build"] == "9.26.0");
  CHECK(f["onednn"] == "3.13.3");
  CHECK(f["cpu_capability"] == "AVX512");
  CHECK(f["openmp"] == "4.5");
  CHECK(f["blas"] == nlohmann::json({{"name", "MKL"}, {"version", "2024.2"}}));
  CHECK(f["distributed"] == nlohmann::json({{"gloo", true}, {"nccl", true}, {"mpi", false}}));
}

TEST_CASE("framework: Debian 12's LibTorch 1.13 says less, and nothing is guessed") {
  const auto f = framework_from_config(kDebian);
  CHECK(f["torch"] == "1.13.0");
  CHECK_FALSE(f.contains("torch_git"));
  CHECK_FALSE(f.contains("cuda_build"));
  CHECK_FALSE(f.contains("cudnn_build"));
  CHECK(f["onednn"] == "2.6.3");
  CHECK(f["cpu_capability"] == "AVX2");
  // BLAS_INFO=generic: libblas.so.3, whichever BLAS the alternatives name (the trainer adds OpenBLAS's
  // name, version and core when it is the one loaded).
  CHECK(f["blas"] == nlohmann::json({{"name", "generic"}}));
  // USE_GLOO is not among 1.13's printed settings: left out, not false.
  CHECK(f["distributed"] == nlohmann::json({{"nccl", false}, {"mpi", false}}));
}

TEST_CASE("framework: empty text, empty record") { CHECK(framework_from_config("") == nlohmann::json::object()); }

TEST_CASE("framework: MKL's version and branch") {
  CHECK(mkl_version_from_text("Intel(R) oneAPI Math Kernel Library Version 2024.2-Product Build 20240605") == "2024.2");
  CHECK(mkl_version_from_text("OpenBLAS 0.3.21") == "");
  CHECK(mkl_branch_isa(10) == "AVX2");
  CHECK(mkl_branch_isa(12) == "AVX-512");
  CHECK(mkl_branch_isa(2) == "Intel-compatible path: not an Intel CPU");
  CHECK(mkl_branch_isa(99) == "");
}
