// test_cuda_l2.cpp: the L2 read kernel of cuda_l2.h without a GPU: its launch plan worked by hand,
// its PTX assembled by the toolkit's ptxas for the GPU generations rlx meets (when the toolkit is
// installed), and the error a machine without the NVIDIA driver gets. tests/gpu/train_cuda.sh
// measures it on a GPU.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <cstdlib>
#include <fstream>
#include <string>

#include "peaks/cuda_l2.h"

using rlx::peaks::plan_l2_read;

TEST_CASE("L2 read plan: a quarter of the L2, whole grid strides, up to 8 blocks per SM") {
  // H100 SXM: 50 MiB of L2, 132 SMs. A quarter is 13107200 bytes; one block's loop step reads
  // 4 x 16 x 256 = 16384 bytes, so 800 blocks (below 8 x 132 = 1056) make a grid step of
  // 13107200 bytes: exactly one step, 819200 vectors of 16 bytes.
  const auto h100 = plan_l2_read(50LL << 20, 132);
  CHECK(h100.threads == 256);
  CHECK(h100.blocks == 800);
  CHECK(h100.working_set_bytes == 13107200);
  CHECK(h100.vectors == 819200u);
  // A 6 MiB L2 on 84 SMs (RTX 3090-like): 1572864 bytes / 16384 = 96 blocks (below 672), one step.
  const auto small = plan_l2_read(6LL << 20, 84);
  CHECK(small.blocks == 96);
  CHECK(small.working_set_bytes == 1572864);
  // 128 MiB on 20 SMs: the blocks cap at 160 (8 per SM), a grid step of 2621440 bytes fits
  // 12 times into the 33554432-byte quarter: 31457280 bytes.
  const auto capped = plan_l2_read(128LL << 20, 20);
  CHECK(capped.blocks == 160);
  CHECK(capped.working_set_bytes == 31457280);
  CHECK(capped.vectors % (4u * 160u * 256u) == 0u);
  CHECK_THROWS_AS(plan_l2_read(32768, 10), std::invalid_argument);
  CHECK_THROWS_AS(plan_l2_read(50LL << 20, 0), std::invalid_argument);
}

TEST_CASE("L2 read kernel: the toolkit's ptxas assembles its PTX for Turing to Hopper") {
  const char* root_env = std::getenv("RLX_CUDA_ROOT");
  const std::string ptxas = std::string(root_env ? root_env : "/usr/local/cuda") + "/bin/ptxas";
  if (access(ptxas.c_str(), X_OK) != 0) {
    WARN("no " << ptxas << ": the PTX is checked where the CUDA toolkit is installed");
    return;
  }
  const char* tmp_env = std::getenv("RLX_TEST_TMP");
  const std::string dir = tmp_env ? tmp_env : "/tmp";
  const std::string ptx = dir + "/l2_read.ptx";
  {
    std::ofstream f(ptx);
    f << rlx::peaks::l2_read_ptx();
    REQUIRE(f.good());
  }
  for (const char* arch : {"sm_75", "sm_80", "sm_90"}) {
    INFO(arch);
    const std::string cmd = ptxas + " -arch=" + arch + " " + ptx + " -o " + dir + "/l2_read.cubin 2>&1";
    CHECK(std::system(cmd.c_str()) == 0);
  }
}

TEST_CASE("L2 read kernel: without the NVIDIA driver the error names it") {
  if (access("/usr/lib/x86_64-linux-gnu/libcuda.so.1", F_OK) == 0 ||
      access("/usr/lib64/libcuda.so.1", F_OK) == 0 ||
      access("/usr/lib/aarch64-linux-gnu/libcuda.so.1", F_OK) == 0) {
    WARN("a driver is installed here: the GPU check (tests/gpu/train_cuda.sh) measures the kernel");
    return;
  }
  CHECK_THROWS_WITH(rlx::peaks::time_l2_read(0, 50LL << 20, 132, 2, 0.01), Catch::Contains("libcuda.so.1"));
}
