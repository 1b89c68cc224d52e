// cuda_l2.h: the L2 bandwidth roof of an NVIDIA GPU, measured with a read kernel whose working set
// fits in the L2 cache. The kernel is PTX text the driver compiles when it loads it (no nvcc at
// build time) and the driver is opened with dlopen, so this file is plain C++, compiled and
// linked on every build; it runs only where a GPU is (torch_peaks.cpp's measure_cuda calls it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rlx::peaks {

// The read kernel: every thread of the grid reads 16-byte vectors with ld.global.cg (cached in L2,
// not in L1, so every load is an L2 access) at a grid-wide stride, four per loop iteration, over
// the whole buffer `passes` times, and XORs them (the buffer is zeroed, so the result is 0 and is
// never stored, but the compiler cannot drop the loads). Exposed for the ptxas check in the tests.
const char* l2_read_ptx();

// How the kernel is launched for a GPU with `l2_bytes` of L2 and `sm_count` SMs: a working set of
// a quarter of the L2 (an L2 split in two partitions may keep a line in both, and the read must
// not spill to DRAM), 256 threads per block, up to 8 blocks per SM, and the buffer a whole number
// of the grid's 4 x 16-byte strides. Throws std::invalid_argument when the L2 is too small for
// one block's stride.
struct L2Plan {
  int threads = 256;          // per block
  int blocks = 0;             // in the grid
  std::uint32_t vectors = 0;  // 16-byte vectors in the buffer (a multiple of 4 x blocks x threads)
  std::int64_t working_set_bytes = 0;
};
L2Plan plan_l2_read(std::int64_t l2_bytes, int sm_count);

// Seconds of each of `runs` launches of the kernel on `device_index` (the primary context, as the
// CUDA runtime and LibTorch use it; the legacy default stream), each launch reading the working
// set `passes` times, passes chosen so one launch lasts about target_s. Throws std::runtime_error
// naming the driver call that failed (no driver, a PTX the driver cannot compile, ...).
struct L2Timing {
  L2Plan plan;
  std::uint32_t passes = 0;
  double bytes_per_launch = 0;  // vectors x 16 x passes: bytes read
  std::vector<double> seconds;
};
L2Timing time_l2_read(int device_index, std::int64_t l2_bytes, int sm_count, int runs, double target_s);

}  // namespace rlx::peaks
