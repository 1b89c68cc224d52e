// cpu_kernels_bf16_arm64.cpp: the arm64 bf16 compute-roof kernels of cpu.h: BFDOT chains (the
// vector roof) and BFMMLA chains (the matrix roof), both on NEON registers and both brought by
// FEAT_BF16 (hwcap "bf16"). The whole file is arm64 only.
//
// No SVE versions: on the arm64 server cores with both (Neoverse V1, V2; Graviton3, Grace) the
// SVE and NEON instructions issue to the same vector pipes, 4 x 128 or 2 x 256 bits, so the NEON
// loops reach the same peak. The functions are compiled with the target armv8.2-a+bf16 and called
// only when the hwcaps list bf16, so the binary runs on any arm64.
#if defined(__aarch64__)
#include <arm_neon.h>

#include <cstdint>

#include "peaks/cpu.h"

namespace rlx::peaks {
namespace {

#define RLX_BF16_CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
static_assert(kBf16Chains == 12, "RLX_BF16_CHAINS writes out kBf16Chains accumulators");

// Bit patterns, handed through a register: GCC would otherwise make the bf16 constants with an
// fp16 FMOV, an instruction FEAT_BF16 does not imply.
bfloat16x8_t __attribute__((target("arch=armv8.2-a+bf16"))) bf16_splat(std::uint32_t bits) {
  __asm__("" : "+r"(bits));
  return vreinterpretq_bf16_u16(vdupq_n_u16(static_cast<std::uint16_t>(bits)));
}

constexpr std::uint32_t kBf16One = 0x3f80;   // 1.0 in bf16 (the top half of the float 1.0f)
constexpr std::uint32_t kBf16Half = 0x3f00;  // 0.5
constexpr std::uint32_t kBf16Tiny = 0x3a80;  // 2^-10

// Each step adds 1.0 * 0.5 + 1.0 * 0.5 = 1 to every lane of every chain: exact while the sums stay
// below 2^24, and never overflowing or denormal however long a repeat runs.
__attribute__((target("arch=armv8.2-a+bf16"))) double bfdot_chains(std::int64_t iters, double start) {
  const bfloat16x8_t a = bf16_splat(kBf16One), b = bf16_splat(kBf16Half);
#define DECL(k) float32x4_t c##k = vdupq_n_f32(float(start + k));
  RLX_BF16_CHAINS(DECL)
#undef DECL
  for (std::int64_t i = 0; i < iters; ++i) {
#define STEP(k) c##k = vbfdotq_f32(c##k, a, b);
    RLX_BF16_CHAINS(STEP)
#undef STEP
  }
  double total = 0;
#define SUM(k) total += double(vaddvq_f32(c##k));
  RLX_BF16_CHAINS(SUM)
#undef SUM
  return total;
}

// BFMMLA: a 2x2 fp32 accumulator += A (2x4 bf16) times B (2x4 bf16) transposed. With A = 1 and
// B = 2^-10 every element gains 4 x 2^-10 = 2^-8 a step: exact in fp32 for 2^24 steps.
__attribute__((target("arch=armv8.2-a+bf16"))) double bfmmla_chains(std::int64_t iters) {
  const bfloat16x8_t a = bf16_splat(kBf16One), b = bf16_splat(kBf16Tiny);
#define DECL(k) float32x4_t c##k = vdupq_n_f32(0);
  RLX_BF16_CHAINS(DECL)
#undef DECL
  for (std::int64_t i = 0; i < iters; ++i) {
#define STEP(k) c##k = vbfmmlaq_f32(c##k, a, b);
    RLX_BF16_CHAINS(STEP)
#undef STEP
  }
  double total = 0;
#define SUM(k) total += double(vaddvq_f32(c##k));
  RLX_BF16_CHAINS(SUM)
#undef SUM
  return total;
}

}  // namespace

double bf16_dot_kernel(std::int64_t iters, double start) {
  return bfdot_chains(iters, start);
}

// 4 fp32 lanes per 128-bit register.
int bf16_dot_lanes() {
  return 4;
}

std::string bf16_dot_instruction() {
  return "BFDOT";
}

double bf16_matrix_kernel(std::int64_t iters) {
  return bfmmla_chains(iters);
}

double bf16_matrix_flops(std::int64_t iters) {
  // Per BFMMLA: 2 x 2 outputs, each a dot product of 4 bf16 pairs: 2 x 2 x 4 x 2 = 32 FLOP.
  return 32.0 * kBf16Chains * double(iters);
}

std::string bf16_matrix_method() {
  return "BFMMLA chains of 2x2 fp32 += 2x4 by 4x2 bf16 (32 FLOP each), 12 chains";
}

bool bf16_matrix_enable(std::string*) {
  return true;
}

}  // namespace rlx::peaks
#endif  // __aarch64__
