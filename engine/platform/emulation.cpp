// emulation.cpp: whether an emulator runs this process (platform.h). qemu-user runs an arm64
// binary on an x86-64 host but shows it the host's /proc/cpuinfo and reports a MIDR_EL1 of
// implementer 0x00 ("reserved for software use" in the Arm architecture): either gives it away.
#include <sys/auxv.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "platform/platform.h"

namespace rlx::platform {
namespace {

long long read_midr() {
#if defined(__aarch64__)
  // HWCAP_CPUID (bit 11): the kernel emulates reads of the ID registers from user space.
  if (!(getauxval(AT_HWCAP) & (1UL << 11))) return -1;
  unsigned long midr = 0;
  __asm__ volatile("mrs %0, MIDR_EL1" : "=r"(midr));
  return static_cast<long long>(midr);
#else
  return -1;
#endif
}

std::string read_file(const char* path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

std::string cpuinfo_arch(const std::string& cpuinfo) {
  std::istringstream in(cpuinfo);
  std::string line;
  while (std::getline(in, line)) {
    const std::string key = line.substr(0, line.find(':'));
    if (key.rfind("vendor_id", 0) == 0 || key.rfind("flags", 0) == 0) return "x86-64";
    if (key.rfind("CPU implementer", 0) == 0 || key.rfind("Features", 0) == 0) return "arm64";
  }
  return "";
}

Emulation detect_emulation(const std::string& cpuinfo, const std::string& arch, long long midr,
                           const std::string& declared) {
  Emulation e;
  const std::string shown = cpuinfo_arch(cpuinfo);
  if (!shown.empty() && shown != arch) {
    // An arm64 binary on an x86-64 Linux is qemu-user's (binfmt or called directly); an x86-64
    // binary on arm64 may be qemu's, Rosetta's (Docker Desktop on a Mac) or FEX's.
    e.kind = arch == "arm64" ? "qemu-user" : "emulator";
    e.host_cpuinfo = true;
    e.evidence = "/proc/cpuinfo describes an " + shown + " CPU while this binary is " + arch;
  } else if (arch == "arm64" && midr >= 0 && ((midr >> 24) & 0xff) == 0) {
    e.kind = "qemu-user";
    e.evidence = "MIDR_EL1 implementer 0x00 (reserved for software: an emulated CPU)";
  }
  if (!declared.empty()) {
    e.kind = declared;
    e.evidence += std::string(e.evidence.empty() ? "" : "; ") + "RLX_EMULATOR=" + declared;
  }
  return e;
}

const Emulation& emulation() {
  static const Emulation e = [] {
    const char* declared = std::getenv("RLX_EMULATOR");
    return detect_emulation(read_file("/proc/cpuinfo"), arch_name(), read_midr(), declared ? declared : "");
  }();
  return e;
}

}  // namespace rlx::platform
