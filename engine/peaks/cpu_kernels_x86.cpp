// cpu_kernels_x86.cpp: the x86-64 vector versions of the FMA, triad and read kernels of cpu.h
// (cpu_kernels_arch.h): AVX-512 and AVX2+FMA. The whole file is x86-64 only.
//
// Each vector version is a function compiled for its ISA with __attribute__((target(...))), so
// the file builds with the default flags and the dispatcher picks a version at run time. The FMA
// loops keep kFmaChains independent accumulators in registers (written out by hand so no compiler
// choice can merge or spill them): an FMA has 4-5 cycles of latency and two ports on recent Intel
// cores, so at least 8-10 chains are needed to issue one FMA per port per cycle.
#if defined(__x86_64__)
#include <immintrin.h>

#include <stdexcept>

#include "peaks/cpu.h"
#include "peaks/cpu_kernels_arch.h"

namespace rlx::peaks {
namespace {

#define RLX_CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
static_assert(kFmaChains == 12, "RLX_CHAINS writes out kFmaChains accumulators");

// Horizontal sum through memory: GCC 12's _mm512_reduce_add_* trips -Wmaybe-uninitialized.
__attribute__((target("avx512f"))) double sum_lanes(__m512d v) {
  alignas(64) double lanes[8];
  _mm512_store_pd(lanes, v);
  double total = 0;
  for (double x : lanes) total += x;
  return total;
}

// ---- FMA ----
__attribute__((target("avx512f"))) double fma_avx512_f64(std::int64_t iters, double mul, double add, double start) {
  const __m512d m = _mm512_set1_pd(mul), a = _mm512_set1_pd(add);
#define DECL(k) __m512d c##k = _mm512_set1_pd(start + k);
  RLX_CHAINS(DECL)
#undef DECL
  for (std::int64_t i = 0; i < iters; ++i) {
#define STEP(k) c##k = _mm512_fmadd_pd(c##k, m, a);
    RLX_CHAINS(STEP)
#undef STEP
  }
  __m512d s = _mm512_setzero_pd();
#define SUM(k) s = _mm512_add_pd(s, c##k);
  RLX_CHAINS(SUM)
#undef SUM
  return sum_lanes(s);
}

__attribute__((target("avx512f"))) double fma_avx512_f32(std::int64_t iters, double mul, double add, double start) {
  const __m512 m = _mm512_set1_ps(float(mul)), a = _mm512_set1_ps(float(add));
#define DECL(k) __m512 c##k = _mm512_set1_ps(float(start + k));
  RLX_CHAINS(DECL)
#undef DECL
  for (std::int64_t i = 0; i < iters; ++i) {
#define STEP(k) c##k = _mm512_fmadd_ps(c##k, m, a);
    RLX_CHAINS(STEP)
#undef STEP
  }
  __m512 s = _mm512_setzero_ps();
#define SUM(k) s = _mm512_add_ps(s, c##k);
  RLX_CHAINS(SUM)
#undef SUM
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, s);
  double total = 0;
  for (float v : lanes) total += v;
  return total;
}

__attribute__((target("avx2,fma"))) double fma_avx2_f64(std::int64_t iters, double mul, double add, double start) {
  const __m256d m = _mm256_set1_pd(mul), a = _mm256_set1_pd(add);
#define DECL(k) __m256d c##k = _mm256_set1_pd(start + k);
  RLX_CHAINS(DECL)
#undef DECL
  for (std::int64_t i = 0; i < iters; ++i) {
#define STEP(k) c##k = _mm256_fmadd_pd(c##k, m, a);
    RLX_CHAINS(STEP)
#undef STEP
  }
  __m256d s = _mm256_setzero_pd();
#define SUM(k) s = _mm256_add_pd(s, c##k);
  RLX_CHAINS(SUM)
#undef SUM
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, s);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

__attribute__((target("avx2,fma"))) double fma_avx2_f32(std::int64_t iters, double mul, double add, double start) {
  const __m256 m = _mm256_set1_ps(float(mul)), a = _mm256_set1_ps(float(add));
#define DECL(k) __m256 c##k = _mm256_set1_ps(float(start + k));
  RLX_CHAINS(DECL)
#undef DECL
  for (std::int64_t i = 0; i < iters; ++i) {
#define STEP(k) c##k = _mm256_fmadd_ps(c##k, m, a);
    RLX_CHAINS(STEP)
#undef STEP
  }
  __m256 s = _mm256_setzero_ps();
#define SUM(k) s = _mm256_add_ps(s, c##k);
  RLX_CHAINS(SUM)
#undef SUM
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, s);
  double total = 0;
  for (float v : lanes) total += v;
  return total;
}

// ---- triad ----
__attribute__((target("avx512f"))) void triad_avx512(double* a, const double* b, const double* c, std::size_t n,
                                                     double scalar, bool nt) {
  const __m512d s = _mm512_set1_pd(scalar);
  std::size_t i = 0;
  if (nt) {
    for (; i + 8 <= n; i += 8) _mm512_stream_pd(a + i, _mm512_fmadd_pd(s, _mm512_load_pd(c + i), _mm512_load_pd(b + i)));
    _mm_sfence();
  } else {
    for (; i + 8 <= n; i += 8) _mm512_store_pd(a + i, _mm512_fmadd_pd(s, _mm512_load_pd(c + i), _mm512_load_pd(b + i)));
  }
  for (; i < n; ++i) a[i] = b[i] + scalar * c[i];
}

__attribute__((target("avx2,fma"))) void triad_avx2(double* a, const double* b, const double* c, std::size_t n,
                                                   double scalar, bool nt) {
  const __m256d s = _mm256_set1_pd(scalar);
  std::size_t i = 0;
  if (nt) {
    for (; i + 4 <= n; i += 4) _mm256_stream_pd(a + i, _mm256_fmadd_pd(s, _mm256_load_pd(c + i), _mm256_load_pd(b + i)));
    _mm_sfence();
  } else {
    for (; i + 4 <= n; i += 4) _mm256_store_pd(a + i, _mm256_fmadd_pd(s, _mm256_load_pd(c + i), _mm256_load_pd(b + i)));
  }
  for (; i < n; ++i) a[i] = b[i] + scalar * c[i];
}

// ---- read ----
// Eight accumulators: two loads per cycle into adds of 4 cycles latency need at least 8 in flight.
__attribute__((target("avx512f"))) double read_avx512(const double* p, std::size_t n, std::int64_t passes) {
  __m512d s0 = _mm512_setzero_pd(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
  const std::size_t blocks = n / 64 * 64;
  for (std::int64_t r = 0; r < passes; ++r) {
    for (std::size_t i = 0; i < blocks; i += 64) {
      s0 = _mm512_add_pd(s0, _mm512_load_pd(p + i));
      s1 = _mm512_add_pd(s1, _mm512_load_pd(p + i + 8));
      s2 = _mm512_add_pd(s2, _mm512_load_pd(p + i + 16));
      s3 = _mm512_add_pd(s3, _mm512_load_pd(p + i + 24));
      s4 = _mm512_add_pd(s4, _mm512_load_pd(p + i + 32));
      s5 = _mm512_add_pd(s5, _mm512_load_pd(p + i + 40));
      s6 = _mm512_add_pd(s6, _mm512_load_pd(p + i + 48));
      s7 = _mm512_add_pd(s7, _mm512_load_pd(p + i + 56));
    }
  }
  double tail = 0;
  for (std::size_t i = blocks; i < n; ++i) tail += p[i];
  s0 = _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(s0, s1), _mm512_add_pd(s2, s3)),
                     _mm512_add_pd(_mm512_add_pd(s4, s5), _mm512_add_pd(s6, s7)));
  return sum_lanes(s0) + tail * double(passes);
}

__attribute__((target("avx2"))) double read_avx2(const double* p, std::size_t n, std::int64_t passes) {
  __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
  const std::size_t blocks = n / 32 * 32;
  for (std::int64_t r = 0; r < passes; ++r) {
    for (std::size_t i = 0; i < blocks; i += 32) {
      s0 = _mm256_add_pd(s0, _mm256_load_pd(p + i));
      s1 = _mm256_add_pd(s1, _mm256_load_pd(p + i + 4));
      s2 = _mm256_add_pd(s2, _mm256_load_pd(p + i + 8));
      s3 = _mm256_add_pd(s3, _mm256_load_pd(p + i + 12));
      s4 = _mm256_add_pd(s4, _mm256_load_pd(p + i + 16));
      s5 = _mm256_add_pd(s5, _mm256_load_pd(p + i + 20));
      s6 = _mm256_add_pd(s6, _mm256_load_pd(p + i + 24));
      s7 = _mm256_add_pd(s7, _mm256_load_pd(p + i + 28));
    }
  }
  double tail = 0;
  for (std::size_t i = blocks; i < n; ++i) tail += p[i];
  s0 = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3)),
                     _mm256_add_pd(_mm256_add_pd(s4, s5), _mm256_add_pd(s6, s7)));
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, s0);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3] + tail * double(passes);
}

}  // namespace

namespace arch {

double fma(Isa isa, bool fp64, std::int64_t iters, double mul, double add, double start) {
  switch (isa) {
    case Isa::avx512: return fp64 ? fma_avx512_f64(iters, mul, add, start) : fma_avx512_f32(iters, mul, add, start);
    case Isa::avx2_fma: return fp64 ? fma_avx2_f64(iters, mul, add, start) : fma_avx2_f32(iters, mul, add, start);
    default: break;
  }
  throw std::logic_error("the x86-64 FMA kernel has no code for ISA " + isa_name(isa));
}

void triad(Isa isa, double* a, const double* b, const double* c, std::size_t n, double scalar, bool nontemporal) {
  switch (isa) {
    case Isa::avx512: return triad_avx512(a, b, c, n, scalar, nontemporal);
    case Isa::avx2_fma: return triad_avx2(a, b, c, n, scalar, nontemporal);
    default: break;
  }
  throw std::logic_error("the x86-64 triad kernel has no code for ISA " + isa_name(isa));
}

double read(Isa isa, const double* data, std::size_t n, std::int64_t passes) {
  switch (isa) {
    case Isa::avx512: return read_avx512(data, n, passes);
    case Isa::avx2_fma: return read_avx2(data, n, passes);
    default: break;
  }
  throw std::logic_error("the x86-64 read kernel has no code for ISA " + isa_name(isa));
}

}  // namespace arch
}  // namespace rlx::peaks
#endif  // __x86_64__
