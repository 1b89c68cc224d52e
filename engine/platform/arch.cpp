// arch.cpp: the architecture's name, Debian's triplet, the spin's relax instruction and the
// OpenBLAS override's scope (platform.h).
#include "platform/platform.h"

namespace rlx::platform {

const char* arch_name() {
#if defined(__x86_64__)
  return "x86-64";
#elif defined(__aarch64__)
  return "arm64";
#else
  return "other";
#endif
}

const char* multiarch() {
#if defined(__x86_64__)
  return "x86_64-linux-gnu";
#elif defined(__aarch64__)
  return "aarch64-linux-gnu";
#else
  return "";
#endif
}

void relax() {
#if defined(__x86_64__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield" ::: "memory");
#else
  __asm__ volatile("" ::: "memory");
#endif
}

bool relax_is_instruction() {
#if defined(__x86_64__) || defined(__aarch64__)
  return true;
#else
  return false;
#endif
}

bool blas_override_supported() {
#if defined(__x86_64__)
  return true;
#else
  return false;
#endif
}

}  // namespace rlx::platform
