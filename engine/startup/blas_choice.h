// blas_choice.h: the OpenBLAS kernel set LibTorch's fp32 products run on, chosen just before the
// BLAS loads with LibTorch (the decision: env/blas_kernel.h; docs/cli.md, "BLAS kernel").
//
// OpenBLAS picks its kernels when it loads and reads OPENBLAS_CORETYPE only then. So rlx learns
// OpenBLAS's own choice, and checks a better kernel numerically, in short-lived child processes
// (fork) that load the BLAS alone; this process then loads it once, with the kernel that passed.
#pragma once

#include <string>

#include "startup/startup.h"

namespace rlx::startup {

// What was decided before the load, for describe_blas_kernel after it.
struct BlasDecision {
  std::string openblas_choice;  // OpenBLAS's own choice, when a child process read it
  std::string coretype;         // the OPENBLAS_CORETYPE rlx set (it passed the check), or ""
  std::string check;            // the check's worst error against its bound
  std::string dropped;          // a kernel rlx dropped: OPENBLAS_CORETYPE value
  std::string dropped_why;      // and why
};

// Before the BLAS loads: when the CPU's flags allow a better kernel than OpenBLAS's own choice (and
// neither the user's OPENBLAS_CORETYPE nor RLX_BLAS_AUTO=0 says otherwise), checks it in a child
// process and sets OPENBLAS_CORETYPE when it passes; a kernel that fails is dropped with a warning
// on stderr. Test hooks, for the e2e tests on any machine: RLX_TEST_BLAS_CORENAME pretends
// OpenBLAS chose that core; RLX_TEST_BLAS_CHECK=fail makes the numerical check see a wrong product.
BlasDecision choose_blas_kernel();

// After the load: b's kernel fields (core, openblas_choice, set_by, checked, check, reason) for
// the BLAS now in the process.
void describe_blas_kernel(const BlasDecision& d, Blas& b);

}  // namespace rlx::startup
