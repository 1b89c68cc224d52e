// cpu_kernels_arm64.cpp: the arm64 vector versions of the FMA, triad and read kernels of cpu.h
// (cpu_kernels_arch.h): NEON (128-bit, every arm64 Linux machine) and SVE (the vector length the
// process runs with, read at run time). The whole file is arm64 only.
//
// The SVE versions are compiled with __attribute__((target("+sve"))) and called only when the
// hwcaps list SVE, so the file builds with the default flags (armv8-a) and the binary runs on any
// arm64. As on x86-64, the FMA loops keep kFmaChains independent accumulators in registers, written
// out by hand: Neoverse cores issue 2-4 FMAs a cycle at a latency of 4, so 8-16 chains are needed.
#if defined(__aarch64__)
#include <arm_neon.h>
#include <arm_sve.h>

#include <stdexcept>

#include "peaks/cpu.h"
#include "peaks/cpu_kernels_arch.h"

namespace rlx::peaks {
namespace {

#define RLX_CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
static_assert(kFmaChains == 12, "RLX_CHAINS writes out kFmaChains accumulators");

// ---- FMA ----
double fma_neon_f64(std::int64_t iters, double mul, double add, double start) {
  const float64x2_t m = vdupq_n_f64(mul), a = vdupq_n_f64(add);
#define DECL(k) float64x2_t c##k = vdupq_n_f64(start + k);
  RLX_CHAINS(DECL)
#undef DECL
  for (std::int64_t i = 0; i < iters; ++i) {
#define STEP(k) c##k = vfmaq_f64(a, c##k, m);
    RLX_CHAINS(STEP)
#undef STEP
  }
  float64x2_t s = vdupq_n_f64(0);
#define SUM(k) s = vaddq_f64(s, c##k);
  RLX_CHAINS(SUM)
#undef SUM
  return vaddvq_f64(s);
}

double fma_neon_f32(std::int64_t iters, double mul, double add, double start) {
  const float32x4_t m = vdupq_n_f32(float(mul)), a = vdupq_n_f32(float(add));
#define DECL(k) float32x4_t c##k = vdupq_n_f32(float(start + k));
  RLX_CHAINS(DECL)
#undef DECL
  for (std::int64_t i = 0; i < iters; ++i) {
#define STEP(k) c##k = vfmaq_f32(a, c##k, m);
    RLX_CHAINS(STEP)
#undef STEP
  }
  float32x4_t s = vdupq_n_f32(0);
#define SUM(k) s = vaddq_f32(s, c##k);
  RLX_CHAINS(SUM)
#undef SUM
  alignas(16) float lanes[4];
  vst1q_f32(lanes, s);
  return double(lanes[0]) + lanes[1] + lanes[2] + lanes[3];
}

__attribute__((target("+sve"))) double fma_sve_f64(std::int64_t iters, double mul, double add, double start) {
  const svbool_t pg = svptrue_b64();
  const svfloat64_t m = svdup_f64(mul), a = svdup_f64(add);
#define DECL(k) svfloat64_t c##k = svdup_f64(start + k);
  RLX_CHAINS(DECL)
#undef DECL
  for (std::int64_t i = 0; i < iters; ++i) {
#define STEP(k) c##k = svmad_f64_x(pg, c##k, m, a);
    RLX_CHAINS(STEP)
#undef STEP
  }
  svfloat64_t s = svdup_f64(0);
#define SUM(k) s = svadd_f64_x(pg, s, c##k);
  RLX_CHAINS(SUM)
#undef SUM
  return svaddv_f64(pg, s);
}

__attribute__((target("+sve"))) double fma_sve_f32(std::int64_t iters, double mul, double add, double start) {
  const svbool_t pg = svptrue_b32();
  const svfloat32_t m = svdup_f32(float(mul)), a = svdup_f32(float(add));
#define DECL(k) svfloat32_t c##k = svdup_f32(float(start + k));
  RLX_CHAINS(DECL)
#undef DECL
  for (std::int64_t i = 0; i < iters; ++i) {
#define STEP(k) c##k = svmad_f32_x(pg, c##k, m, a);
    RLX_CHAINS(STEP)
#undef STEP
  }
  // Summed in double per chain: a float sum over 12 chains x up to 64 lanes would round.
  double total = 0;
#define SUM(k) total += double(svaddv_f32(pg, c##k));
  RLX_CHAINS(SUM)
#undef SUM
  return total;
}

// ---- triad ----
void triad_neon(double* a, const double* b, const double* c, std::size_t n, double scalar) {
  const float64x2_t s = vdupq_n_f64(scalar);
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) vst1q_f64(a + i, vfmaq_f64(vld1q_f64(b + i), s, vld1q_f64(c + i)));
  for (; i < n; ++i) a[i] = b[i] + scalar * c[i];
}

// Predicated loop: the last, partial vector is handled by the predicate (no scalar tail).
// nontemporal: STNT1D, SVE's streaming store.
__attribute__((target("+sve"))) void triad_sve(double* a, const double* b, const double* c, std::size_t n,
                                               double scalar, bool nt) {
  const svfloat64_t s = svdup_f64(scalar);
  const std::int64_t len = static_cast<std::int64_t>(n), step = static_cast<std::int64_t>(svcntd());
  for (std::int64_t i = 0; i < len; i += step) {
    const svbool_t pg = svwhilelt_b64(i, len);
    const svfloat64_t v = svmla_f64_x(pg, svld1_f64(pg, b + i), s, svld1_f64(pg, c + i));
    if (nt) {
      svstnt1_f64(pg, a + i, v);
    } else {
      svst1_f64(pg, a + i, v);
    }
  }
}

// ---- read ----
// Eight accumulators, as on x86-64: two or three loads a cycle into adds of 2-4 cycles latency.
double read_neon(const double* p, std::size_t n, std::int64_t passes) {
  float64x2_t s0 = vdupq_n_f64(0), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
  const std::size_t blocks = n / 16 * 16;
  for (std::int64_t r = 0; r < passes; ++r) {
    for (std::size_t i = 0; i < blocks; i += 16) {
      s0 = vaddq_f64(s0, vld1q_f64(p + i));
      s1 = vaddq_f64(s1, vld1q_f64(p + i + 2));
      s2 = vaddq_f64(s2, vld1q_f64(p + i + 4));
      s3 = vaddq_f64(s3, vld1q_f64(p + i + 6));
      s4 = vaddq_f64(s4, vld1q_f64(p + i + 8));
      s5 = vaddq_f64(s5, vld1q_f64(p + i + 10));
      s6 = vaddq_f64(s6, vld1q_f64(p + i + 12));
      s7 = vaddq_f64(s7, vld1q_f64(p + i + 14));
    }
  }
  double tail = 0;
  for (std::size_t i = blocks; i < n; ++i) tail += p[i];
  s0 = vaddq_f64(vaddq_f64(vaddq_f64(s0, s1), vaddq_f64(s2, s3)),
                 vaddq_f64(vaddq_f64(s4, s5), vaddq_f64(s6, s7)));
  return vaddvq_f64(s0) + tail * double(passes);
}

__attribute__((target("+sve"))) double read_sve(const double* p, std::size_t n, std::int64_t passes) {
  const svbool_t all = svptrue_b64();
  const std::int64_t vl = static_cast<std::int64_t>(svcntd()), len = static_cast<std::int64_t>(n);
  const std::int64_t blocks = len / (4 * vl) * (4 * vl);
  svfloat64_t s0 = svdup_f64(0), s1 = s0, s2 = s0, s3 = s0;
  for (std::int64_t r = 0; r < passes; ++r) {
    for (std::int64_t i = 0; i < blocks; i += 4 * vl) {
      s0 = svadd_f64_x(all, s0, svld1_f64(all, p + i));
      s1 = svadd_f64_x(all, s1, svld1_f64(all, p + i + vl));
      s2 = svadd_f64_x(all, s2, svld1_f64(all, p + i + 2 * vl));
      s3 = svadd_f64_x(all, s3, svld1_f64(all, p + i + 3 * vl));
    }
  }
  double tail = 0;
  for (std::int64_t i = blocks; i < len; ++i) tail += p[i];
  const svfloat64_t s = svadd_f64_x(all, svadd_f64_x(all, s0, s1), svadd_f64_x(all, s2, s3));
  return svaddv_f64(all, s) + tail * double(passes);
}

}  // namespace

namespace arch {

double fma(Isa isa, bool fp64, std::int64_t iters, double mul, double add, double start) {
  switch (isa) {
    case Isa::neon:
      return fp64 ? fma_neon_f64(iters, mul, add, start) : fma_neon_f32(iters, mul, add, start);
    case Isa::sve:
      return fp64 ? fma_sve_f64(iters, mul, add, start) : fma_sve_f32(iters, mul, add, start);
    default:
      break;
  }
  throw std::logic_error("the arm64 FMA kernel has no code for ISA " + isa_name(isa));
}

void triad(Isa isa, double* a, const double* b, const double* c, std::size_t n, double scalar,
           bool nontemporal) {
  switch (isa) {
    case Isa::neon:
      return triad_neon(a, b, c, n, scalar);
    case Isa::sve:
      return triad_sve(a, b, c, n, scalar, nontemporal);
    default:
      break;
  }
  throw std::logic_error("the arm64 triad kernel has no code for ISA " + isa_name(isa));
}

double read(Isa isa, const double* data, std::size_t n, std::int64_t passes) {
  switch (isa) {
    case Isa::neon:
      return read_neon(data, n, passes);
    case Isa::sve:
      return read_sve(data, n, passes);
    default:
      break;
  }
  throw std::logic_error("the arm64 read kernel has no code for ISA " + isa_name(isa));
}

}  // namespace arch
}  // namespace rlx::peaks
#endif  // __aarch64__
