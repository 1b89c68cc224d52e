// test_torch_errors.cpp: LibTorch 1.13's and 2.x's error texts (copied from real failures) become one line
// naming the cause: out of memory with the size asked for (issue 17 item 13), a batch norm layer
// that got one value per channel (item 18).
#include <catch2/catch.hpp>

#include "train/torch_errors.h"

using rlx::train::describe_torch_error;
using rlx::train::is_out_of_memory;

TEST_CASE("host out of memory: the size asked for, without the enforce text") {
  const std::string torch =
      "[enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to "
      "allocate 602112000000000000 bytes. Error code 12 (Cannot allocate memory)";
  CHECK(is_out_of_memory(torch));
  // 1e12 images x 3 x 224 x 224 x 4 bytes = 6.02112e17 bytes = 602112000 GB.
  CHECK(describe_torch_error(torch) ==
        "out of memory: the host could not allocate 602112000000000000 bytes (602112000 GB) (lower batch or "
        "input)");
  CHECK(describe_torch_error(torch + "\nException raised from ...") == describe_torch_error(torch));
}

TEST_CASE("CUDA out of memory: the size and the GPU") {
  const std::string torch =
      "CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 7.79 GiB total capacity; 6.10 GiB already "
      "allocated; 5.44 MiB free; 6.32 GiB reserved in total by PyTorch)";
  CHECK(is_out_of_memory(torch));
  CHECK(describe_torch_error(torch) ==
        "out of memory: the GPU could not allocate 20.00 MiB (GPU 0) (lower batch or input)");
}

TEST_CASE("CUDA out of memory in LibTorch 2.x's words: the size and the GPU") {
  // c10/cuda/CUDACachingAllocator.cpp's text since PyTorch 2.1.
  const std::string torch =
      "CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 79.11 GiB of which 3.19 "
      "MiB is free. Including non-PyTorch memory, this process has 79.10 GiB memory in use.";
  CHECK(is_out_of_memory(torch));
  CHECK(describe_torch_error(torch) ==
        "out of memory: the GPU could not allocate 20.00 MiB (GPU 0) (lower batch or input)");
}

TEST_CASE("a batch norm layer with one value per channel, as Python's torch prints the size") {
  CHECK(describe_torch_error(
            "Expected more than 1 value per channel when training, got input size torch.Size([1, 1280])") ==
        "training with batch norm needs batch >= 2: a batch norm layer got one value per channel (input [1, "
        "1280]), which has no variance to normalize by; use batch >= 2, or a larger input so the feature map is "
        "more than 1x1");
}

TEST_CASE("a batch norm layer with one value per channel names batch >= 2") {
  CHECK(describe_torch_error(
            "Expected more than 1 value per channel when training, got input size [1, 576, 1, 1]") ==
        "training with batch norm needs batch >= 2: a batch norm layer got one value per channel (input [1, "
        "576, 1, "
        "1]), which has no variance to normalize by; use batch >= 2, or a larger input so the feature map is "
        "more "
        "than 1x1");
}

TEST_CASE("other LibTorch errors keep their first line") {
  CHECK_FALSE(is_out_of_memory("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"));
  CHECK(describe_torch_error("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)\nframe #0") ==
        "LibTorch error: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
}
