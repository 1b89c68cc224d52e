// cpu_kernels_bf16.cpp: which bf16 instructions a CPU has, from its flags (cpu.h), for both
// architectures, and the bf16 work counts every build shares. The kernels themselves are in
// cpu_kernels_bf16_x86.cpp (VDPBF16PS, AMX) and cpu_kernels_bf16_arm64.cpp (BFDOT, BFMMLA).
#include <stdexcept>

#include "env/env.h"
#include "peaks/cpu.h"

namespace rlx::peaks {

Bf16Support bf16_support(const std::set<std::string>& flags) {
  Bf16Support s;
  // x86: VDPBF16PS works on zmm registers, so avx512_bf16 needs avx512f beside it; AMX needs both
  // the tile state and the bf16 product. arm64: FEAT_BF16 (hwcap "bf16") brings BFDOT and BFMMLA
  // together, on the NEON registers every arm64 machine has.
  if (flags.count("avx512_bf16") && flags.count("avx512f")) {
    s.vector = "avx512_bf16";
  } else if (flags.count("bf16") && flags.count("asimd")) {
    s.vector = "bfdot";
  } else {
    s.vector = "emulated";
  }
  if (flags.count("amx_bf16") && flags.count("amx_tile")) {
    s.matrix = "amx";
  } else if (flags.count("bf16") && flags.count("asimd")) {
    s.matrix = "bfmmla";
  }
  return s;
}

Bf16Support detect_bf16_support() {
  return bf16_support(env::cpu_flags());
}

bool bf16_dot_runs_in(const Bf16Support& sup, Isa isa) {
  if (sup.vector == "avx512_bf16") return isa == Isa::avx512;
  if (sup.vector == "bfdot") return isa == Isa::neon || isa == Isa::sve;
  return false;
}

double bf16_dot_flops(std::int64_t iters) {
  // Each lane adds two products a step: 2 multiplies + 2 adds.
  return 4.0 * bf16_dot_lanes() * kBf16Chains * double(iters);
}

#if !defined(__x86_64__) && !defined(__aarch64__)
// A build on neither architecture has no bf16 kernel (bf16_support never names one there).
double bf16_dot_kernel(std::int64_t, double) {
  throw std::logic_error("no bf16 kernels in this build");
}
int bf16_dot_lanes() {
  return 0;
}
std::string bf16_dot_instruction() {
  return "";
}
double bf16_matrix_kernel(std::int64_t) {
  throw std::logic_error("no bf16 kernels in this build");
}
double bf16_matrix_flops(std::int64_t) {
  return 0;
}
std::string bf16_matrix_method() {
  return "";
}
bool bf16_matrix_enable(std::string* why) {
  if (why) *why = "no bf16 matrix kernel in this build";
  return false;
}
#endif

}  // namespace rlx::peaks
