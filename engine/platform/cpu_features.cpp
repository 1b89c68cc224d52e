// cpu_features.cpp: the vector features this process may use, at run time (platform.h): CPUID on
// x86-64, the kernel's hwcaps (getauxval) on arm64. The hwcaps are what /proc/cpuinfo's
// "Features" line is made from, and stay right under qemu-user, whose /proc/cpuinfo is the host's.
#include <sys/auxv.h>
#if defined(__aarch64__)
#include <sys/prctl.h>
#endif

#include <algorithm>

#include "platform/platform.h"

namespace rlx::platform {
namespace {

// The kernel's names of the AT_HWCAP bits (arch/arm64/include/uapi/asm/hwcap.h, bit i = name i),
// as arch/arm64/kernel/cpuinfo.c prints them.
constexpr const char* kHwcap[] = {"fp",     "asimd",   "evtstrm",  "aes",     "pmull", "sha1",     "sha2",
                                  "crc32",  "atomics", "fphp",     "asimdhp", "cpuid", "asimdrdm", "jscvt",
                                  "fcma",   "lrcpc",   "dcpop",    "sha3",    "sm3",   "sm4",      "asimddp",
                                  "sha512", "sve",     "asimdfhm", "dit",     "uscat", "ilrcpc",   "flagm",
                                  "ssbs",   "sb",      "paca",     "pacg"};
// AT_HWCAP2, bits 0-17 (later bits name SME and newer extensions rlx does not use).
constexpr const char* kHwcap2[] = {"dcpodp",  "sve2",   "sveaes", "svepmull", "svebitperm", "svesha3",
                                   "svesm4",  "flagm2", "frint",  "svei8mm",  "svef32mm",   "svef64mm",
                                   "svebf16", "i8mm",   "bf16",   "dgh",      "rng",        "bti"};

bool has(const std::vector<std::string>& words, const char* w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

CpuFeatures detect() {
  CpuFeatures f;
  f.arch = arch_name();
#if defined(__x86_64__)
  f.source = "cpuid";
  __builtin_cpu_init();
  f.avx512f = __builtin_cpu_supports("avx512f");
  f.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#elif defined(__aarch64__)
  const std::string arch = f.arch;
  f = arm64_features_from_words(arm64_hwcap_words(getauxval(AT_HWCAP), getauxval(AT_HWCAP2)));
  f.arch = arch;
  f.source = "hwcap";
  if (f.sve) {
    // PR_SVE_GET_VL: the vector length in bytes in the low 16 bits.
    const int vl = prctl(PR_SVE_GET_VL);
    if (vl > 0) f.sve_vector_bits = (vl & 0xffff) * 8;
  }
#endif
  return f;
}

}  // namespace

std::vector<std::string> arm64_hwcap_words(std::uint64_t hwcap, std::uint64_t hwcap2) {
  std::vector<std::string> out;
  for (unsigned i = 0; i < std::size(kHwcap); ++i)
    if (hwcap & (std::uint64_t(1) << i)) out.push_back(kHwcap[i]);
  for (unsigned i = 0; i < std::size(kHwcap2); ++i)
    if (hwcap2 & (std::uint64_t(1) << i)) out.push_back(kHwcap2[i]);
  return out;
}

CpuFeatures arm64_features_from_words(const std::vector<std::string>& words) {
  CpuFeatures f;
  f.arch = "arm64";
  f.source = "hwcap";
  f.words = words;
  f.asimd = has(words, "asimd");
  f.sve = has(words, "sve");
  f.sve2 = has(words, "sve2");
  f.bf16 = has(words, "bf16");
  f.sve_bf16 = has(words, "svebf16");
  f.i8mm = has(words, "i8mm");
  return f;
}

const CpuFeatures& cpu_features() {
  static const CpuFeatures f = detect();
  return f;
}

std::string isa_text(const CpuFeatures& f) {
  if (f.arch == "x86-64") {
    return f.avx512f ? "x86-64 AVX-512" : f.avx2_fma ? "x86-64 AVX2+FMA" : "x86-64 (no AVX2)";
  }
  if (f.arch != "arm64") return f.arch;
  std::string s = "arm64 ";
  if (f.sve) {
    s += f.sve2 ? "SVE2" : "SVE";
    if (f.sve_vector_bits > 0) s += " (" + std::to_string(f.sve_vector_bits) + "-bit)";
    s += " + ";
  }
  s += f.asimd ? "NEON" : "(no NEON)";
  if (f.bf16) s += ", bf16 (BFDOT, BFMMLA)";
  return s;
}

}  // namespace rlx::platform
