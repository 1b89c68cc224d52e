// OpenBLAS kernel selection (engine/env/blas_kernel.h) on faked CPU flags and faked core names,
// and the numerical check against correct and broken products.
#include <dlfcn.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "env/blas_kernel.h"
#include "env/env.h"
#include "platform/platform.h"

using rlx::env::BlasInputs;
using rlx::env::BlasPlan;
using rlx::env::plan_blas_kernel;

namespace {

const std::set<std::string> kAvx512 = {"sse3",     "avx",      "avx2",     "fma",     "avx512f",
                                       "avx512bw", "avx512vl", "avx512dq", "avx512cd"};
const std::set<std::string> kAvx2 = {"sse3", "avx", "avx2", "fma"};

BlasInputs inputs(const std::string& core, const std::set<std::string>& flags) {
  BlasInputs in;
  in.corename = core;
  in.cpu_flags = flags;
  return in;
}

// Column-major reference sgemm in float, straightforward loops: a correct kernel.
void naive_sgemm(const char* ta, const char* tb, const int* m, const int* n, const int* k, const float* alpha,
                 const float* a, const int* lda, const float* b, const int* ldb, const float* beta, float* c,
                 const int* ldc) {
  for (int j = 0; j < *n; ++j) {
    for (int i = 0; i < *m; ++i) {
      float s = 0;
      for (int p = 0; p < *k; ++p) {
        const float x = *ta == 'N' ? a[p * *lda + i] : a[i * *lda + p];
        const float y = *tb == 'N' ? b[j * *ldb + p] : b[p * *ldb + j];
        s += x * y;
      }
      c[j * *ldc + i] = *alpha * s + *beta * c[j * *ldc + i];
    }
  }
}

// Ignores the transpose flags: right for NN, wrong for every other case.
void no_transpose_sgemm(const char*, const char*, const int* m, const int* n, const int* k,
                        const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                        const float* beta, float* c, const int* ldc) {
  const char nn = 'N';
  naive_sgemm(&nn, &nn, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// Loses the last row of every product, as a kernel with broken edge handling would.
void lost_edge_sgemm(const char* ta, const char* tb, const int* m, const int* n, const int* k,
                     const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                     const float* beta, float* c, const int* ldc) {
  const int m1 = *m - 1;
  naive_sgemm(ta, tb, &m1, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// Accumulates in bfloat16-like precision (8 bits of mantissa): plausible values, too inaccurate.
void low_precision_sgemm(const char* ta, const char* tb, const int* m, const int* n, const int* k,
                         const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                         const float* beta, float* c, const int* ldc) {
  naive_sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  for (int j = 0; j < *n; ++j)
    for (int i = 0; i < *m; ++i) {
      float& v = c[j * *ldc + i];
      int e = 0;
      const float f = std::frexp(v, &e);
      v = std::ldexp(std::round(f * 256.0f) / 256.0f, e);
    }
}

}  // namespace

TEST_CASE("Prescott on an AVX-512 CPU is replaced by SkylakeX", "[blas]") {
  const BlasPlan p = plan_blas_kernel(inputs("Prescott", kAvx512));
  CHECK(p.action == BlasPlan::Action::set_core);
  CHECK(p.coretype == "SKYLAKEX");
  CHECK(p.openblas_choice == "Prescott");
  CHECK(p.reason ==
        "OpenBLAS chose Prescott for this CPU; its flags allow SKYLAKEX (avx512f, avx512bw, avx512vl, "
        "avx512dq, avx2, fma)");
}

TEST_CASE("Prescott on an AVX2+FMA CPU is replaced by Haswell", "[blas]") {
  const BlasPlan p = plan_blas_kernel(inputs("Prescott", kAvx2));
  CHECK(p.action == BlasPlan::Action::set_core);
  CHECK(p.coretype == "HASWELL");
  // Sandybridge (AVX, no FMA kernels) and Haswell's own choice on the same CPU.
  CHECK(plan_blas_kernel(inputs("Sandybridge", kAvx2)).coretype == "HASWELL");
  CHECK(plan_blas_kernel(inputs("Haswell", kAvx2)).action == BlasPlan::Action::keep);
  CHECK(plan_blas_kernel(inputs("Zen", kAvx2)).action == BlasPlan::Action::keep);
}

TEST_CASE("a CPU whose flags lack avx512bw never gets SkylakeX", "[blas]") {
  std::set<std::string> flags = kAvx512;
  flags.erase("avx512bw");
  const BlasPlan p = plan_blas_kernel(inputs("Prescott", flags));
  CHECK(p.action == BlasPlan::Action::set_core);
  CHECK(p.coretype == "HASWELL");
  // Each of the four AVX-512 flags is required; without FMA nothing better than Prescott is allowed.
  for (const char* f : {"avx512f", "avx512vl", "avx512dq"}) {
    std::set<std::string> g = kAvx512;
    g.erase(f);
    CHECK(rlx::env::best_coretype_for_flags(g) == "HASWELL");
  }
  std::set<std::string> no_fma = kAvx2;
  no_fma.erase("fma");
  const BlasPlan q = plan_blas_kernel(inputs("Prescott", no_fma));
  CHECK(q.action == BlasPlan::Action::keep);
  CHECK(q.reason == "Prescott (OpenBLAS's own choice for this CPU)");
}

TEST_CASE("OpenBLAS's own good choice is kept", "[blas]") {
  for (const char* core : {"SkylakeX", "Cooperlake", "SapphireRapids"}) {
    const BlasPlan p = plan_blas_kernel(inputs(core, kAvx512));
    CHECK(p.action == BlasPlan::Action::keep);
    CHECK(p.set_by == "openblas");
    CHECK(p.reason == std::string(core) + " (OpenBLAS's own choice for this CPU)");
  }
  // Haswell kernels on an AVX-512 CPU: one tier lower, SkylakeX is set.
  CHECK(plan_blas_kernel(inputs("Haswell", kAvx512)).coretype == "SKYLAKEX");
  // A name rlx does not know (a newer OpenBLAS) is left alone whatever the flags.
  const BlasPlan u = plan_blas_kernel(inputs("GraniteRapids", kAvx512));
  CHECK(u.action == BlasPlan::Action::keep);
  // An arm64 rlx overrides no core at all, and says so (engine/platform).
  CHECK(u.reason == (rlx::platform::blas_override_supported()
                         ? "GraniteRapids (OpenBLAS's own choice; a core name rlx does not know, left alone)"
                         : "GraniteRapids (OpenBLAS's own choice; rlx sets OPENBLAS_CORETYPE on x86-64 only)"));
  // Every arm64 core name (NEOVERSEN1, ARMV8, ...) is one rlx does not know.
  if (!rlx::platform::blas_override_supported()) {
    CHECK(plan_blas_kernel(inputs("NEOVERSEN1", {"asimd", "sve"})).reason ==
          "NEOVERSEN1 (OpenBLAS's own choice; rlx sets OPENBLAS_CORETYPE on x86-64 only)");
  }
}

TEST_CASE("a user's OPENBLAS_CORETYPE always wins", "[blas]") {
  BlasInputs in = inputs("Prescott", kAvx512);
  in.coretype_env = "Prescott";
  BlasPlan p = plan_blas_kernel(in);
  CHECK(p.action == BlasPlan::Action::keep);
  CHECK(p.set_by == "user");
  CHECK(p.reason == "Prescott (OPENBLAS_CORETYPE=Prescott set by the user; rlx leaves it alone)");
  // A value OpenBLAS did not accept is still the user's business.
  in.coretype_env = "bogus";
  p = plan_blas_kernel(in);
  CHECK(p.action == BlasPlan::Action::keep);
  CHECK(p.reason ==
        "Prescott (OPENBLAS_CORETYPE=bogus is set by the user, but OpenBLAS did not accept it and chose "
        "Prescott itself; rlx leaves it alone)");
}

TEST_CASE("the reasons of a kernel rlx set and of one it dropped", "[blas]") {
  CHECK(rlx::env::set_core_reason("SkylakeX", "Prescott", "SKYLAKEX") ==
        "SkylakeX (OpenBLAS chose Prescott for this CPU; rlx set OPENBLAS_CORETYPE=SKYLAKEX: avx512f, "
        "avx512bw, "
        "avx512vl, avx512dq, avx2, fma present; checked against a double reference)");
  CHECK(rlx::env::dropped_core_reason("Prescott", "SKYLAKEX",
                                      "it failed the numerical check: sgemm NN m=67: element (0, 0) is 2") ==
        "Prescott (OpenBLAS's own choice; rlx's OPENBLAS_CORETYPE=SKYLAKEX was dropped: it failed the "
        "numerical "
        "check: sgemm NN m=67: element (0, 0) is 2)");
}

TEST_CASE("the opt-out and a BLAS that is not OpenBLAS", "[blas]") {
  BlasInputs in = inputs("Prescott", kAvx512);
  in.opt_out = true;
  BlasPlan p = plan_blas_kernel(in);
  CHECK(p.action == BlasPlan::Action::keep);
  CHECK(p.reason == "Prescott (OpenBLAS's own choice; RLX_BLAS_AUTO=0 keeps it)");
  p = plan_blas_kernel(inputs("", kAvx512));
  CHECK(p.action == BlasPlan::Action::keep);
  CHECK(p.set_by == "none");
}

TEST_CASE("core tiers of OpenBLAS's names", "[blas]") {
  CHECK(rlx::env::core_tier("Prescott") == 0);
  CHECK(rlx::env::core_tier("NEHALEM") == 0);
  CHECK(rlx::env::core_tier("Sandybridge") == 1);
  CHECK(rlx::env::core_tier("Zen") == 2);
  CHECK(rlx::env::core_tier("skylakex") == 3);
  CHECK(rlx::env::core_tier("Armv8") == -1);
}

TEST_CASE("CPU flags come from the first flags line of /proc/cpuinfo", "[blas]") {
  const auto f = rlx::env::cpu_flags_from_cpuinfo(
      "processor\t: 0\nmodel name\t: X\nflags\t\t: fpu sse3 avx2 fma avx512f\n\nprocessor\t: 1\nflags\t: "
      "fpu\n");
  CHECK(f == std::set<std::string>{"fpu", "sse3", "avx2", "fma", "avx512f"});
  CHECK(rlx::env::cpu_flags_from_cpuinfo("Features\t: fp asimd sve\n") ==
        std::set<std::string>{"fp", "asimd", "sve"});
  CHECK(rlx::env::cpu_flags_from_cpuinfo("model name: X\n").empty());
}

TEST_CASE("the numerical check passes a correct product and fails broken ones", "[blas]") {
  std::string detail;
  CHECK(rlx::env::check_sgemm(&naive_sgemm, &detail));
  CHECK(detail.find("8 products, worst error ") == 0);
  CHECK_FALSE(rlx::env::check_sgemm(&no_transpose_sgemm, &detail));
  CHECK(detail.find("sgemm TN m=67 n=45 k=129: element") == 0);
  CHECK_FALSE(rlx::env::check_sgemm(&lost_edge_sgemm, &detail));
  CHECK(detail.find("sgemm NN m=67 n=45 k=129: element (66, 0)") == 0);
  CHECK_FALSE(rlx::env::check_sgemm(&low_precision_sgemm, &detail));
}

TEST_CASE("the BLAS this process loaded passes the check", "[blas]") {
  auto* sgemm = reinterpret_cast<rlx::env::SgemmFn>(dlsym(RTLD_DEFAULT, "sgemm_"));
  if (sgemm == nullptr) {
    WARN("no sgemm_ in this process");
    return;
  }
  std::string detail;
  CHECK(rlx::env::check_sgemm(sgemm, &detail));
  INFO(detail);
}
