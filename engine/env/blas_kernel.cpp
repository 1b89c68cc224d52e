// blas_kernel.cpp: OpenBLAS's core choice, rlx's override and its numerical check (blas_kernel.h).
#include "env/blas_kernel.h"

#include <dlfcn.h>
#include <strings.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "env/env.h"
#include "platform/platform.h"
#include "util/restart_self.h"

namespace rlx::env {
namespace {

bool equal_ci(const std::string& a, const std::string& b) {
  return a.size() == b.size() && strncasecmp(a.c_str(), b.c_str(), a.size()) == 0;
}

std::string lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// The marker: "set:CORETYPE:CHOICE" before the first re-exec, "failed:CORETYPE:CHOICE:WHY" before
// the second. WHY may contain colons (it is last).
struct Marker {
  std::string kind, coretype, choice, why;
};

Marker parse_marker(const std::string& text) {
  Marker m;
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t colon = text.find(':', start);
    if (colon == std::string::npos) break;
    parts.push_back(text.substr(start, colon - start));
    start = colon + 1;
  }
  parts.push_back(text.substr(start));
  if (parts.size() >= 3 && (parts[0] == "set" || parts[0] == "failed")) {
    m.kind = parts[0];
    m.coretype = parts[1];
    m.choice = parts[2];
    if (parts.size() > 3) m.why = parts[3];
  }
  return m;
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

// The flags coretype needs that `flags` lacks, comma-separated ("" when none is missing); a core
// type rlx never sets lacks everything.
std::string missing_flags(const std::string& coretype, const std::set<std::string>& flags) {
  for (const auto& n : needs()) {
    if (!equal_ci(n.coretype, coretype)) continue;
    std::string s;
    for (const char* f : n.flags)
      if (!flags.count(f)) s += (s.empty() ? "" : ", ") + std::string(f);
    return s;
  }
  return "the flags of a core type rlx does not set";
}

bool flags_allow(const std::string& coretype, const std::set<std::string>& flags) {
  return missing_flags(coretype, flags).empty();
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
  const Marker m = parse_marker(in.marker);
  const bool rlx_set = m.kind == "set" && !in.coretype_env.empty() && equal_ci(m.coretype, in.coretype_env);
  if (!in.coretype_env.empty() && !rlx_set) {
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
  if (rlx_set && !flags_allow(m.coretype, in.cpu_flags)) {
    // Never run it: OpenBLAS takes a forced core without asking the CPU, and its kernels would stop
    // the process with SIGILL at the first product.
    BlasPlan p;
    p.action = BlasPlan::Action::forget;
    p.coretype = m.coretype;
    p.openblas_choice = m.choice;
    p.set_by = "rlx";
    p.reason = fmt::format(
        "OPENBLAS_CORETYPE={} was set by rlx on another machine (the environment came along, as "
        "Slurm's sbatch passes it): this CPU lacks {}",
        m.coretype, missing_flags(m.coretype, in.cpu_flags));
    return p;
  }
  if (rlx_set) {
    BlasPlan p;
    p.action = BlasPlan::Action::verify;
    p.coretype = m.coretype;
    p.openblas_choice = m.choice;
    p.set_by = "rlx";
    return p;
  }
  if (m.kind == "failed") {
    BlasPlan p =
        keep("openblas", fmt::format("{} (OpenBLAS's own choice; rlx's OPENBLAS_CORETYPE={} was dropped: {})",
                                     core, m.coretype, m.why.empty() ? "it failed" : m.why));
    p.openblas_choice = core;
    return p;
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
    p.action = BlasPlan::Action::reexec;
    p.coretype = best;
    p.reason = fmt::format("OpenBLAS chose {} for this CPU; its flags allow {} ({})", core, best,
                           required_flags_text(best));
  }
  return p;
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

namespace {

BlasKernel& state() {
  static BlasKernel k = [] {
    BlasKernel s;
    auto* name = reinterpret_cast<char* (*)()>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
    s.core = name && name() ? name() : "";
    s.set_by = s.core.empty() ? "none" : "openblas";
    s.openblas_choice = s.core;
    s.reason = s.core.empty() ? "not OpenBLAS" : s.core + " (OpenBLAS's own choice; rlx did not look at it)";
    return s;
  }();
  return k;
}

std::string real_corename() {
  auto* name = reinterpret_cast<char* (*)()>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  return name && name() ? std::string(name()) : std::string();
}

std::string getenv_str(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// RLX_TEST_BLAS_CHECK=fail: the real product with one element spoiled, as a wrong kernel would.
SgemmFn g_real_sgemm = nullptr;
void spoiled_sgemm(const char* ta, const char* tb, const int* m, const int* n, const int* k,
                   const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                   const float* beta, float* c, const int* ldc) {
  g_real_sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  c[0] += 1.0f;
}

// The check on the calling thread alone. With OpenBLAS's OpenMP build a product this size would
// start libgomp's thread team before main() has done anything else, and rlx forks right after
// (util/supervisor.h): the child would inherit libgomp's record of a team whose threads it does not
// have, and its first parallel region would wait for them forever.
bool check_on_one_thread(SgemmFn gemm, std::string* detail) {
  auto* get = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  auto* set = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  const int before = get != nullptr && set != nullptr ? get() : 0;
  if (before > 1) set(1);
  const bool ok = check_sgemm(gemm, detail);
  if (before > 1) set(before);
  return ok;
}

[[noreturn]] void reexec_or_die(char** argv, const std::string& what) {
  util::restart_self(argv);
  // The process has not used the BLAS yet, but the plan cannot be carried out: say so and stop
  // rather than run on a kernel rlx meant to replace or drop.
  std::cerr << "rlx: could not re-execute /proc/self/exe to " << what << ": " << std::strerror(errno)
            << " (set " << kBlasAutoVar << "=0 to keep OpenBLAS's own kernel)\n";
  std::exit(1);
}

// After the re-exec: the override must have been accepted and must compute correctly.
void verify(const BlasPlan& plan, char** argv) {
  BlasKernel& s = state();
  s.core = real_corename();
  s.openblas_choice = plan.openblas_choice;
  std::string why;
  if (!equal_ci(s.core, plan.coretype)) {
    why = fmt::format("OpenBLAS did not accept it and runs {}", s.core);
  } else {
    auto* sgemm = reinterpret_cast<SgemmFn>(dlsym(RTLD_DEFAULT, "sgemm_"));
    std::string detail;
    g_real_sgemm = sgemm;
    const bool spoil = getenv_str("RLX_TEST_BLAS_CHECK") == "fail";
    if (sgemm == nullptr) {
      why = "no sgemm_ symbol to check it with";
    } else if (!check_on_one_thread(spoil ? &spoiled_sgemm : sgemm, &detail)) {
      why = "it failed the numerical check: " + detail;
    } else {
      s.set_by = "rlx";
      s.checked = true;
      s.check_detail = detail;
      s.reason = fmt::format(
          "{} (OpenBLAS chose {} for this CPU; rlx set OPENBLAS_CORETYPE={}: {} present; checked "
          "against a double reference)",
          s.core, plan.openblas_choice, plan.coretype, required_flags_text(plan.coretype));
      return;
    }
  }
  // Drop the override. When OpenBLAS ignored it, it already runs its own choice: no re-exec needed.
  unsetenv("OPENBLAS_CORETYPE");
  const std::string marker = fmt::format("failed:{}:{}:{}", plan.coretype, plan.openblas_choice, why);
  setenv(kBlasMarkerVar, marker.c_str(), 1);
  if (!equal_ci(s.core, plan.coretype)) {
    s.set_by = "openblas";
    s.reason = fmt::format("{} (OpenBLAS's own choice; rlx's OPENBLAS_CORETYPE={} was dropped: {})", s.core,
                           plan.coretype, why);
    return;
  }
  std::cerr << "rlx: OpenBLAS kernel " << s.core << " dropped, back to OpenBLAS's own choice: " << why
            << "\n";
  reexec_or_die(argv, "drop OPENBLAS_CORETYPE=" + plan.coretype);
}

}  // namespace

void select_blas_kernel_at_start(char** argv) {
  BlasInputs in;
  in.corename = real_corename();
  in.cpu_flags = cpu_flags();
  in.coretype_env = getenv_str("OPENBLAS_CORETYPE");
  in.marker = getenv_str(kBlasMarkerVar);
  // The test hook stands for OpenBLAS's own choice only: once a core type is set (by the user or
  // by rlx before its re-exec) OpenBLAS's real answer is what counts.
  const std::string pretend = getenv_str("RLX_TEST_BLAS_CORENAME");
  if (!in.corename.empty() && !pretend.empty() && in.coretype_env.empty() && in.marker.empty())
    in.corename = pretend;
  in.opt_out = getenv_str(kBlasAutoVar) == "0";
  const BlasPlan plan = plan_blas_kernel(in);
  BlasKernel& s = state();
  if (plan.action == BlasPlan::Action::reexec) {
    setenv("OPENBLAS_CORETYPE", plan.coretype.c_str(), 1);
    const std::string marker = fmt::format("set:{}:{}", plan.coretype, plan.openblas_choice);
    setenv(kBlasMarkerVar, marker.c_str(), 1);
    reexec_or_die(argv, "load OpenBLAS with OPENBLAS_CORETYPE=" + plan.coretype);
  }
  if (plan.action == BlasPlan::Action::verify) return verify(plan, argv);
  if (plan.action == BlasPlan::Action::forget) {
    unsetenv("OPENBLAS_CORETYPE");
    unsetenv(kBlasMarkerVar);
    reexec_or_die(argv, "choose the OpenBLAS kernel for this CPU (" + plan.reason + ")");
  }
  s.core = real_corename();
  s.openblas_choice = plan.openblas_choice;
  s.set_by = plan.set_by;
  s.checked = false;
  s.reason = plan.reason;
}

const BlasKernel& blas_kernel() {
  return state();
}

}  // namespace rlx::env
