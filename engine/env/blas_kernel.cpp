// blas_kernel.cpp: OpenBLAS's core choice, rlx's override and its numerical check (blas_kernel.h).
#include "env/blas_kernel.h"

#include <strings.h>

#include <cmath>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "platform/platform.h"

namespace rlx::env {
namespace {

bool equal_ci(const std::string& a, const std::string& b) {
  return a.size() == b.size() && strncasecmp(a.c_str(), b.c_str(), a.size()) == 0;
}

std::string lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

struct Need {
  const char* coretype;
  std::vector<const char*> flags;
};
// Best first. SkylakeX's kernels are AVX-512 (F, BW, VL, DQ) on top of Haswell's AVX2 + FMA.
const std::vector<Need>& needs() {
  static const std::vector<Need> v = {
      {"SKYLAKEX", {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx2", "fma"}},
      {"HASWELL", {"avx", "avx2", "fma"}},
  };
  return v;
}

BlasPlan keep(const std::string& set_by, const std::string& reason) {
  BlasPlan p;
  p.set_by = set_by;
  p.reason = reason;
  return p;
}

}  // namespace

std::string best_coretype_for_flags(const std::set<std::string>& flags) {
  for (const auto& n : needs()) {
    bool all = true;
    for (const char* f : n.flags) all = all && flags.count(f) > 0;
    if (all) return n.coretype;
  }
  return "";
}

std::string required_flags_text(const std::string& coretype) {
  for (const auto& n : needs()) {
    if (!equal_ci(n.coretype, coretype)) continue;
    std::string s;
    for (const char* f : n.flags) s += (s.empty() ? "" : ", ") + std::string(f);
    return s;
  }
  return "";
}

int core_tier(const std::string& corename) {
  // OpenBLAS's own core names (driver/others/dynamic.c), by the vector ISA of their kernels.
  static const std::map<std::string, int> tiers = {
      {"unknown", 0},     {"katmai", 0},        {"coppermine", 0},  {"northwood", 0},    {"prescott", 0},
      {"banias", 0},      {"atom", 0},          {"core2", 0},       {"penryn", 0},       {"dunnington", 0},
      {"nehalem", 0},     {"athlon", 0},        {"opteron", 0},     {"opteron_sse3", 0}, {"barcelona", 0},
      {"nano", 0},        {"bobcat", 0},        {"sandybridge", 1}, {"bulldozer", 1},    {"piledriver", 1},
      {"steamroller", 1}, {"excavator", 1},     {"haswell", 2},     {"zen", 2},          {"skylakex", 3},
      {"cooperlake", 3},  {"sapphirerapids", 3}};
  auto it = tiers.find(lower(corename));
  return it == tiers.end() ? -1 : it->second;
}

BlasPlan plan_blas_kernel(const BlasInputs& in) {
  if (in.corename.empty())
    return keep("none", "not OpenBLAS (no openblas_get_corename): no kernel to choose");
  const std::string& core = in.corename;
  if (!in.coretype_env.empty()) {
    if (!equal_ci(core, in.coretype_env)) {
      return keep(
          "user",
          fmt::format("{} (OPENBLAS_CORETYPE={} is set by the user, but OpenBLAS did not accept it and "
                      "chose {} itself; rlx leaves it alone)",
                      core, in.coretype_env, core));
    }
    return keep("user", fmt::format("{} (OPENBLAS_CORETYPE={} set by the user; rlx leaves it alone)", core,
                                    in.coretype_env));
  }
  BlasPlan p = keep("openblas", "");
  p.openblas_choice = core;
  if (in.opt_out) {
    p.reason = fmt::format("{} (OpenBLAS's own choice; {}=0 keeps it)", core, kBlasAutoVar);
    return p;
  }
  const int tier = core_tier(core);
  const std::string best = best_coretype_for_flags(in.cpu_flags);
  if (tier < 0 && !platform::blas_override_supported()) {
    p.reason = fmt::format("{} (OpenBLAS's own choice; rlx sets OPENBLAS_CORETYPE on x86-64 only)", core);
  } else if (tier < 0) {
    p.reason = fmt::format("{} (OpenBLAS's own choice; a core name rlx does not know, left alone)", core);
  } else if (best.empty() || tier >= core_tier(best)) {
    p.reason = fmt::format("{} (OpenBLAS's own choice for this CPU)", core);
  } else {
    p.action = BlasPlan::Action::set_core;
    p.coretype = best;
    p.reason = fmt::format("OpenBLAS chose {} for this CPU; its flags allow {} ({})", core, best,
                           required_flags_text(best));
  }
  return p;
}

std::string set_core_reason(const std::string& core, const std::string& openblas_choice,
                            const std::string& coretype) {
  return fmt::format(
      "{} (OpenBLAS chose {} for this CPU; rlx set OPENBLAS_CORETYPE={}: {} present; checked against a "
      "double reference)",
      core, openblas_choice, coretype, required_flags_text(coretype));
}

std::string dropped_core_reason(const std::string& core, const std::string& coretype,
                                const std::string& why) {
  return fmt::format("{} (OpenBLAS's own choice; rlx's OPENBLAS_CORETYPE={} was dropped: {})", core, coretype,
                     why);
}

bool check_sgemm(SgemmFn gemm, std::string* detail) {
  struct Case {
    int m, n, k;
    char ta, tb;
  };
  // Odd sizes: none is a multiple of any kernel's register block (4, 8, 16, 24, 32), so every
  // product goes through the edge code as well as the main loop.
  const Case cases[] = {{67, 45, 129, 'N', 'N'}, {67, 45, 129, 'T', 'N'},   {67, 45, 129, 'N', 'T'},
                        {67, 45, 129, 'T', 'T'}, {193, 161, 257, 'N', 'N'}, {193, 161, 257, 'T', 'N'},
                        {1, 37, 300, 'N', 'N'},  {37, 1, 300, 'N', 'T'}};
  const double u = std::ldexp(1.0, -24);
  double worst = 0;
  std::uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return float(double(state >> 8) / double(1u << 24) * 2.0 - 1.0);  // uniform in [-1, 1)
  };
  for (const Case& c : cases) {
    const int rows_a = c.ta == 'N' ? c.m : c.k, cols_a = c.ta == 'N' ? c.k : c.m;
    const int rows_b = c.tb == 'N' ? c.k : c.n, cols_b = c.tb == 'N' ? c.n : c.k;
    std::vector<float> a(std::size_t(rows_a) * cols_a), b(std::size_t(rows_b) * cols_b),
        c0(std::size_t(c.m) * c.n);
    for (auto& x : a) x = next();
    for (auto& x : b) x = next();
    for (auto& x : c0) x = next();
    std::vector<float> out = c0;
    const float alpha = 1.0f, beta = 0.5f;
    const int lda = rows_a, ldb = rows_b, ldc = c.m;
    gemm(&c.ta, &c.tb, &c.m, &c.n, &c.k, &alpha, a.data(), &lda, b.data(), &ldb, &beta, out.data(), &ldc);
    // op(A)(i, p) and op(B)(p, j) in column-major storage.
    auto at = [&](int i, int p) {
      return double(c.ta == 'N' ? a[std::size_t(p) * lda + i] : a[std::size_t(i) * lda + p]);
    };
    auto bt = [&](int p, int j) {
      return double(c.tb == 'N' ? b[std::size_t(j) * ldb + p] : b[std::size_t(p) * ldb + j]);
    };
    for (int j = 0; j < c.n; ++j) {
      for (int i = 0; i < c.m; ++i) {
        double ref = 0, mag = 0;
        for (int p = 0; p < c.k; ++p) {
          ref += at(i, p) * bt(p, j);
          mag += std::fabs(at(i, p) * bt(p, j));
        }
        const double c_in = c0[std::size_t(j) * ldc + i];
        ref = alpha * ref + beta * c_in;
        mag += std::fabs(beta * c_in);
        const double bound = 2.0 * (c.k + 2) * u * mag + 1e-30;
        const double got = out[std::size_t(j) * ldc + i];
        const double ratio = std::isfinite(got) ? std::fabs(got - ref) / bound : INFINITY;
        if (!(ratio <= 1.0)) {
          if (detail) {
            *detail = fmt::format(
                "sgemm {}{} m={} n={} k={}: element ({}, {}) is {:.9g}, the double reference {:.9g} "
                "(error {:.3g}, bound {:.3g})",
                c.ta, c.tb, c.m, c.n, c.k, i, j, got, ref, std::fabs(got - ref), bound);
          }
          return false;
        }
        worst = std::max(worst, ratio);
      }
    }
  }
  if (detail) *detail = fmt::format("8 products, worst error {:.2f} of its rounding bound", worst);
  return true;
}

}  // namespace rlx::env
