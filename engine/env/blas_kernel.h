// blas_kernel.h: which OpenBLAS kernel set (its "core") LibTorch's fp32 matrix products run on,
// and the choice rlx makes when OpenBLAS picked a generic one for a CPU that supports better.
//
// Debian's OpenBLAS (a DYNAMIC_ARCH build) picks its kernels from CPUID when the library loads.
// A CPU model newer than the library falls back to a generic core: OpenBLAS 0.3.21 on a Xeon of
// CPU model 207 runs "Prescott" (SSE3) kernels at a fifth of what its SkylakeX kernels reach on the
// same machine. OPENBLAS_CORETYPE overrides the choice, but only when it is in the environment
// before the library loads: rlx sets it before it loads LibTorch (engine/startup/blas_choice.h
// carries the plan out). The decision is made from the CPU flags the kernel reports (a VM may hide
// features the model number implies), never from the model; a user's own OPENBLAS_CORETYPE always
// wins; the chosen kernel is checked numerically on small products against a double reference
// before rlx uses it, and a kernel that fails is dropped. See docs/cli.md ("BLAS kernel").
#pragma once

#include <set>
#include <string>

namespace rlx::env {

// The opt-out.
constexpr const char* kBlasAutoVar = "RLX_BLAS_AUTO";  // "0": keep OpenBLAS's own choice

// What the process sees before it loads the BLAS.
struct BlasInputs {
  std::string corename;             // OpenBLAS's own choice ("Prescott"); "" when not OpenBLAS
  std::set<std::string> cpu_flags;  // the "flags" line of /proc/cpuinfo
  std::string coretype_env;         // the user's OPENBLAS_CORETYPE, "" when unset
  bool opt_out = false;             // RLX_BLAS_AUTO=0
};

// What to do about it.
struct BlasPlan {
  enum class Action {
    keep,      // run on what OpenBLAS loads (its own choice, the user's, or not OpenBLAS at all)
    set_core,  // set OPENBLAS_CORETYPE=coretype before the BLAS loads, once it passed the check
  };
  Action action = Action::keep;
  std::string coretype;         // set_core: the OPENBLAS_CORETYPE value rlx sets ("SKYLAKEX")
  std::string openblas_choice;  // what OpenBLAS chose by itself, when known
  std::string set_by;           // "openblas", "user", "none" (not OpenBLAS)
  std::string reason;           // why, in words (for `rlx version` and the environment record)
};

// The decision, from the inputs alone (no side effects; tested on faked flags and core names).
BlasPlan plan_blas_kernel(const BlasInputs& in);

// The reasons (part of the environment's id, so worded the same on every run) of rlx's kernel
// `core` set as `coretype` over OpenBLAS's `openblas_choice`, checked; and of that kernel dropped
// because of `why`, OpenBLAS's own choice `core` in use.
std::string set_core_reason(const std::string& core, const std::string& openblas_choice,
                            const std::string& coretype);
std::string dropped_core_reason(const std::string& core, const std::string& coretype, const std::string& why);

// The best OPENBLAS_CORETYPE these flags allow: "SKYLAKEX" (avx512f, avx512bw, avx512vl, avx512dq,
// plus avx2 and fma), "HASWELL" (avx, avx2, fma), else "". Only these two are ever set: they exist
// under these names in every OpenBLAS since 0.2.20, while newer names (Cooperlake) cannot be forced
// in 0.3.21 and add nothing to fp32 GEMM.
std::string best_coretype_for_flags(const std::set<std::string>& flags);
// The flags a core type needs, in the order they are named in reasons.
std::string required_flags_text(const std::string& coretype);

// The vector ISA an OpenBLAS core name implies: 3 = AVX-512 (SkylakeX, Cooperlake,
// SapphireRapids), 2 = AVX2+FMA (Haswell, Zen), 1 = AVX (Sandybridge, Bulldozer, Piledriver,
// Steamroller, Excavator), 0 = SSE-era or generic (Prescott, Core2, Nehalem, Atom, Unknown, ...),
// -1 = a name this table does not know (rlx then leaves the choice alone). Case-insensitive.
int core_tier(const std::string& corename);

// A single-precision GEMM with the Fortran BLAS interface (sgemm_), column-major.
using SgemmFn = void (*)(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                         const float* alpha, const float* a, const int* lda, const float* b, const int* ldb,
                         const float* beta, float* c, const int* ldc);

// Runs a few small products (odd sizes that exercise the kernels' edge handling, each with and
// without transposes, alpha = 1, beta = 0.5) through `gemm` and compares every element with a
// double-precision reference. An element passes when |c - ref| <= 2 (k + 2) u (|A||B| + |beta C0|)
// at that element, u = 2^-24: twice the standard rounding-error bound of a float dot product of
// length k, so a correct kernel in any summation order passes and a wrong one (a lost edge, a
// wrong transpose, garbage lanes) fails by orders of magnitude. Returns true when all pass;
// `detail` gets the worst error relative to its bound, or the first failure.
bool check_sgemm(SgemmFn gemm, std::string* detail);

}  // namespace rlx::env
