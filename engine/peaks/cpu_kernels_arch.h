// cpu_kernels_arch.h: the vector kernels of cpu.h that each architecture's kernel file defines
// for its own ISAs (internal to rlx_peaks): cpu_kernels_x86.cpp for avx2+fma and avx512,
// cpu_kernels_arm64.cpp for neon and sve. cpu_kernels.cpp dispatches to them and runs the scalar
// versions itself; it never passes Isa::scalar or another architecture's ISA (isa_available).
#pragma once

#include <cstddef>
#include <cstdint>

#include "peaks/cpu.h"

namespace rlx::peaks::arch {

double fma(Isa isa, bool fp64, std::int64_t iters, double mul, double add, double start);
void triad(Isa isa, double* a, const double* b, const double* c, std::size_t n, double scalar,
           bool nontemporal);
double read(Isa isa, const double* p, std::size_t n, std::int64_t passes);

}  // namespace rlx::peaks::arch
