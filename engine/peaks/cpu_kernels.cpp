// cpu_kernels.cpp: the ISA names and their detection, the kernels' dispatch to the vector versions
// of this build's architecture (cpu_kernels_arch.h), and the scalar versions every build has. No
// intrinsics here: those are in the kernel files named for their architecture.
#include <stdexcept>

#include "peaks/cpu.h"
#include "peaks/cpu_kernels_arch.h"
#include "platform/platform.h"

namespace rlx::peaks {
namespace {

#define RLX_CHAINS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
static_assert(kFmaChains == 12, "RLX_CHAINS writes out kFmaChains accumulators");

// Scalar fallback: a multiply and an add (2 FLOP) per chain step; no FMA unit is assumed.
template <typename T>
double fma_scalar(std::int64_t iters, double mul, double add, double start) {
  const T m = T(mul), a = T(add);
#define DECL(k) T c##k = T(start + k);
  RLX_CHAINS(DECL)
#undef DECL
  for (std::int64_t i = 0; i < iters; ++i) {
#define STEP(k) c##k = c##k * m + a;
    RLX_CHAINS(STEP)
#undef STEP
  }
  double s = 0;
#define SUM(k) s += double(c##k);
  RLX_CHAINS(SUM)
#undef SUM
  return s;
}

double read_scalar(const double* p, std::size_t n, std::int64_t passes) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (std::int64_t r = 0; r < passes; ++r) {
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      s0 += p[i];
      s1 += p[i + 1];
      s2 += p[i + 2];
      s3 += p[i + 3];
    }
    for (; i < n; ++i) s0 += p[i];
  }
  return s0 + s1 + s2 + s3;
}

void check_available(Isa isa) {
  if (!isa_available(isa))
    throw std::invalid_argument("ISA '" + isa_name(isa) +
                                "' does not run on this CPU (detected: " + isa_name(detect_isa()) + ")");
}

}  // namespace

Isa detect_isa() {
  const auto& f = platform::cpu_features();
  if (f.avx512f) return Isa::avx512;
  if (f.avx2_fma) return Isa::avx2_fma;
  if (f.sve && f.sve_vector_bits >= 128) return Isa::sve;
  if (f.asimd) return Isa::neon;
  return Isa::scalar;
}

std::string isa_name(Isa isa) {
  switch (isa) {
    case Isa::avx512:
      return "avx512";
    case Isa::avx2_fma:
      return "avx2+fma";
    case Isa::neon:
      return "neon";
    case Isa::sve:
      return "sve";
    case Isa::scalar:
      return "scalar";
  }
  return "scalar";
}

Isa parse_isa(const std::string& name) {
  for (Isa i : {Isa::avx512, Isa::avx2_fma, Isa::sve, Isa::neon, Isa::scalar})
    if (name == isa_name(i)) return i;
  throw std::invalid_argument("unknown ISA '" + name + "' (valid: avx512, avx2+fma, sve, neon, scalar)");
}

bool isa_available(Isa isa) {
  const auto& f = platform::cpu_features();
  switch (isa) {
    case Isa::scalar:
      return true;
    case Isa::avx512:
      return f.avx512f;
    case Isa::avx2_fma:
      return f.avx2_fma || f.avx512f;
    case Isa::sve:
      return f.sve && f.sve_vector_bits >= 128;
    case Isa::neon:
      return f.asimd;
  }
  return false;
}

int fp64_lanes(Isa isa) {
  switch (isa) {
    case Isa::avx512:
      return 8;
    case Isa::avx2_fma:
      return 4;
    case Isa::neon:
      return 2;
    case Isa::sve:
      return platform::cpu_features().sve_vector_bits / 64;
    case Isa::scalar:
      return 1;
  }
  return 1;
}

bool has_streaming_stores(Isa isa) {
  return isa == Isa::avx512 || isa == Isa::avx2_fma || isa == Isa::sve;
}

double fma_kernel(Isa isa, bool fp64, std::int64_t iters, double mul, double add, double start) {
  if (isa == Isa::scalar)
    return fp64 ? fma_scalar<double>(iters, mul, add, start) : fma_scalar<float>(iters, mul, add, start);
  check_available(isa);
  return arch::fma(isa, fp64, iters, mul, add, start);
}

double fma_flops(Isa isa, bool fp64, std::int64_t iters) {
  // Lanes per register: fp64_lanes for doubles, twice that for floats in a vector register (the
  // scalar version has one lane either way); 2 FLOP per lane per step.
  const double lanes = isa == Isa::scalar ? 1.0 : double(fp64_lanes(isa)) * (fp64 ? 1 : 2);
  return 2.0 * lanes * kFmaChains * double(iters);
}

void triad_kernel(Isa isa, double* a, const double* b, const double* c, std::size_t n, double scalar,
                  bool nontemporal) {
  if (isa == Isa::scalar) {
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + scalar * c[i];
    return;
  }
  check_available(isa);
  arch::triad(isa, a, b, c, n, scalar, nontemporal && has_streaming_stores(isa));
}

double read_kernel(Isa isa, const double* data, std::size_t n, std::int64_t passes) {
  if (isa == Isa::scalar) return read_scalar(data, n, passes);
  check_available(isa);
  return arch::read(isa, data, n, passes);
}

#if !defined(__x86_64__) && !defined(__aarch64__)
// A build on neither architecture has the scalar kernels only (detect_isa says scalar there).
namespace arch {
double fma(Isa, bool, std::int64_t, double, double, double) {
  throw std::logic_error("no vector kernels");
}
void triad(Isa, double*, const double*, const double*, std::size_t, double, bool) {
  throw std::logic_error("no vector kernels");
}
double read(Isa, const double*, std::size_t, std::int64_t) {
  throw std::logic_error("no vector kernels");
}
}  // namespace arch
#endif

}  // namespace rlx::peaks
