// platform.h: the one owner of what differs between the CPU architectures rlx builds for, x86-64
// and arm64 (Linux on both). Everything else in rlx is written once; what cannot be is here, or in
// the peaks' kernel files named for their architecture (engine/peaks/cpu_kernels_x86.cpp,
// cpu_kernels_arm64.cpp, cpu_kernels_bf16_x86.cpp, cpu_kernels_bf16_arm64.cpp). No other file
// tests __x86_64__ or __aarch64__ or includes an intrinsics header (docs/platforms.md).
//
// x86-only pieces and their arm64 counterparts:
//   - vector ISA: CPUID (__builtin_cpu_supports) / getauxval(AT_HWCAP, AT_HWCAP2) (cpu_features);
//   - the OpenMP spin's relax instruction: PAUSE / YIELD, as libgomp's cpu_relax on each (relax);
//   - OpenBLAS's core type: rlx overrides OpenBLAS's choice on x86-64 only (blas_override_supported);
//     on arm64 OpenBLAS's own choice stands (stated absence: no known arm64 fallback to correct);
//   - Debian's library directory: /usr/lib/x86_64-linux-gnu / /usr/lib/aarch64-linux-gnu (multiarch).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rlx::platform {

// The architecture this binary was built for, as the report names it: "x86-64", "arm64" (and
// "other" for a build on neither, which rlx does not support).
const char* arch_name();
// Debian's multiarch triplet of this build: "x86_64-linux-gnu", "aarch64-linux-gnu".
const char* multiarch();

// The vector features the kernel lets this process use, read at run time.
struct CpuFeatures {
  std::string arch;    // arch_name()
  std::string source;  // "cpuid" (x86-64) or "hwcap" (arm64: getauxval)
  // x86-64 (CPUID).
  bool avx2_fma = false;
  bool avx512f = false;
  // arm64 (AT_HWCAP / AT_HWCAP2). asimd (NEON) is part of every arm64 Linux machine.
  bool asimd = false;
  bool sve = false;
  bool sve2 = false;
  bool bf16 = false;  // FEAT_BF16: BFDOT and BFMMLA on NEON registers
  bool sve_bf16 = false;
  bool i8mm = false;
  int sve_vector_bits = 0;         // the SVE vector length this process runs with; 0 without SVE
  std::vector<std::string> words;  // arm64: the hwcap names as /proc/cpuinfo's "Features" line
                                   // writes them; x86-64: empty (/proc/cpuinfo's "flags" are used)
};
const CpuFeatures& cpu_features();

// The arm64 hwcap words of two AT_HWCAP / AT_HWCAP2 values, in the kernel's order (its
// arch/arm64/kernel/cpuinfo.c names: "fp", "asimd", ..., "sve", ..., "sve2", ..., "bf16").
// Pure, so it is tested on any host.
std::vector<std::string> arm64_hwcap_words(std::uint64_t hwcap, std::uint64_t hwcap2);
// The arm64 features of those words (sve_vector_bits left 0).
CpuFeatures arm64_features_from_words(const std::vector<std::string>& words);

// The vector ISA in words for `rlx env` and `rlx version`: "x86-64 AVX-512", "x86-64 AVX2+FMA",
// "arm64 SVE (512-bit) + NEON, bf16 (BFDOT, BFMMLA)", "arm64 NEON".
std::string isa_text(const CpuFeatures& f);

// One step of a spin-wait, the instruction libgomp's cpu_relax uses on this architecture: PAUSE
// on x86-64 (libgomp/config/linux/x86/futex.h), YIELD on arm64 (libgomp/config/linux/aarch64/
// futex.h, GCC 11 and later), a compiler barrier elsewhere.
void relax();
// True when relax() is a real instruction, i.e. when timing it measures libgomp's spin.
bool relax_is_instruction();

// rlx may set OPENBLAS_CORETYPE when OpenBLAS picked a generic core (engine/env/blas_kernel):
// x86-64 only. On arm64 OpenBLAS chooses from the MIDR register and rlx knows no case to correct.
bool blas_override_supported();

// An emulator running this process (the CPU is not the one the figures are of), found without
// asking the user: qemu-user shows the host's /proc/cpuinfo, so a cpuinfo of another architecture
// than this binary's gives it away; on arm64 qemu also reports MIDR_EL1 implementer 0x00, which
// the architecture reserves for software, never a real core. RLX_EMULATOR=<name> (which
// scripts/arm64/check.sh sets) declares it where neither shows (a newer qemu that emulates
// /proc/cpuinfo). kind "" = none detected.
struct Emulation {
  std::string kind;           // "qemu-user", or RLX_EMULATOR's value; "" when native
  std::string evidence;       // what showed it, in words
  bool host_cpuinfo = false;  // /proc/cpuinfo describes the host's CPU, not the emulated one
};
const Emulation& emulation();
// The same decision from its inputs (tests): the text of /proc/cpuinfo, this build's arch_name(),
// the MIDR_EL1 value (-1 unknown) and RLX_EMULATOR ("" unset).
Emulation detect_emulation(const std::string& cpuinfo, const std::string& arch, long long midr,
                           const std::string& declared);
// "x86-64" or "arm64" as a /proc/cpuinfo text shows it ("" when it shows neither).
std::string cpuinfo_arch(const std::string& cpuinfo);

}  // namespace rlx::platform
