// Unit tests of the platform owner (engine/platform/platform.h): the arm64 hwcap names, the ISA
// in words, and the emulation decision from its inputs. Pure functions, so every case runs on
// either architecture; the last cases check this build and machine against each other.
#include <catch2/catch.hpp>

#include <string>

#include "platform/platform.h"

using namespace rlx::platform;

TEST_CASE("arm64 hwcaps decode into the kernel's feature names") {
  // AT_HWCAP bits 0 fp, 1 asimd, 22 sve; AT_HWCAP2 bits 1 sve2, 12 svebf16, 13 i8mm, 14 bf16.
  const std::uint64_t hwcap = (1u << 0) | (1u << 1) | (1u << 22);
  const std::uint64_t hwcap2 = (1u << 1) | (1u << 12) | (1u << 13) | (1u << 14);
  const auto words = arm64_hwcap_words(hwcap, hwcap2);
  CHECK(words == std::vector<std::string>{"fp", "asimd", "sve", "sve2", "svebf16", "i8mm", "bf16"});
  const CpuFeatures f = arm64_features_from_words(words);
  CHECK(f.arch == "arm64");
  CHECK(f.asimd);
  CHECK(f.sve);
  CHECK(f.sve2);
  CHECK(f.bf16);
  CHECK(f.sve_bf16);
  CHECK(f.i8mm);
  // Bits beyond the named ones (SME and later) are left out, not misnamed.
  CHECK(arm64_hwcap_words(0, std::uint64_t(1) << 40).empty());
  // A Graviton2 (Neoverse N1): fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp
  // cpuid asimdrdm lrcpc dcpop asimddp ssbs = bits 0-12, 15, 16, 20, 28.
  const std::uint64_t n1 = 0x1fffu | (1u << 15) | (1u << 16) | (1u << 20) | (1u << 28);
  const auto n1_words = arm64_hwcap_words(n1, 0);
  CHECK(n1_words.front() == "fp");
  CHECK(n1_words.back() == "ssbs");
  CHECK(n1_words.size() == 17);
  CHECK_FALSE(arm64_features_from_words(n1_words).sve);
}

TEST_CASE("the ISA in words names the architecture, the vector extension and bf16") {
  CpuFeatures x;
  x.arch = "x86-64";
  x.avx2_fma = true;
  CHECK(isa_text(x) == "x86-64 AVX2+FMA");
  x.avx512f = true;
  CHECK(isa_text(x) == "x86-64 AVX-512");
  CpuFeatures a = arm64_features_from_words({"fp", "asimd"});
  CHECK(isa_text(a) == "arm64 NEON");
  a = arm64_features_from_words({"fp", "asimd", "sve", "sve2", "bf16"});
  a.sve_vector_bits = 128;
  CHECK(isa_text(a) == "arm64 SVE2 (128-bit) + NEON, bf16 (BFDOT, BFMMLA)");
}

TEST_CASE("emulation: a cpuinfo of another architecture, MIDR implementer 0, or the declaration") {
  const std::string x86 =
      "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\nflags\t\t: fpu avx2\n";
  const std::string arm =
      "processor\t: 0\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n";
  CHECK(cpuinfo_arch(x86) == "x86-64");
  CHECK(cpuinfo_arch(arm) == "arm64");
  CHECK(cpuinfo_arch("") == "");
  // qemu-user 7.2: an arm64 binary reads the x86 host's cpuinfo.
  Emulation e = detect_emulation(x86, "arm64", 0xf0510, "");
  CHECK(e.kind == "qemu-user");
  CHECK(e.host_cpuinfo);
  CHECK(e.evidence == "/proc/cpuinfo describes an x86-64 CPU while this binary is arm64");
  // A qemu that emulates /proc/cpuinfo still reports implementer 0x00 (qemu's "max" CPU: 0x000f0510).
  e = detect_emulation(arm, "arm64", 0x000f0510, "");
  CHECK(e.kind == "qemu-user");
  CHECK_FALSE(e.host_cpuinfo);
  CHECK(e.evidence == "MIDR_EL1 implementer 0x00 (reserved for software: an emulated CPU)");
  // A Neoverse N1 (implementer 0x41) natively; an x86 binary natively.
  CHECK(detect_emulation(arm, "arm64", 0x413fd0c1, "").kind.empty());
  CHECK(detect_emulation(x86, "x86-64", -1, "").kind.empty());
  // An x86-64 binary on arm64 (Rosetta, FEX or qemu): an emulator, not named further.
  CHECK(detect_emulation(arm, "x86-64", -1, "").kind == "emulator");
  // RLX_EMULATOR declares it where nothing shows, and is named beside what did show.
  e = detect_emulation(arm, "arm64", 0x413fd0c1, "qemu-aarch64");
  CHECK(e.kind == "qemu-aarch64");
  CHECK(e.evidence == "RLX_EMULATOR=qemu-aarch64");
}

TEST_CASE("this build: its architecture, Debian triplet and features agree") {
  const std::string arch = arch_name();
  const CpuFeatures& f = cpu_features();
  CHECK(f.arch == arch);
  if (arch == "x86-64") {
    CHECK(std::string(multiarch()) == "x86_64-linux-gnu");
    CHECK(f.source == "cpuid");
    CHECK(f.words.empty());
    CHECK(blas_override_supported());
  } else if (arch == "arm64") {
    CHECK(std::string(multiarch()) == "aarch64-linux-gnu");
    CHECK(f.source == "hwcap");
    CHECK(f.asimd);  // every arm64 Linux machine has NEON
    CHECK((f.sve ? f.sve_vector_bits >= 128 && f.sve_vector_bits % 128 == 0 : f.sve_vector_bits == 0));
    CHECK_FALSE(blas_override_supported());
  }
  CHECK(isa_text(f).rfind(arch, 0) == 0);
  relax();  // an instruction that must not fault
  CHECK(relax_is_instruction() == (arch == "x86-64" || arch == "arm64"));
}
