// huge_pages.h: transparent huge pages for the heap a training step allocates from, decided at start
// from the kernel's setting and the user's (docs/training.md, "Huge pages").
//
// A step's activations and gradients (hundreds of MB to GB) come from glibc's heap, which rlx never
// trims and never bypasses with mmap (process_settings.cpp). With the kernel's transparent huge
// pages in "madvise" mode (Debian's default), that heap is mapped in 4 KiB pages unless the program
// asks for more; glibc asks (madvise MADV_HUGEPAGE on each heap growth) when started with
// GLIBC_TUNABLES=glibc.malloc.hugetlb=1. It reads its tunables before main(), so asking means
// starting the program again once (startup.cpp). In "always" mode the kernel gives the heap huge
// pages unasked; in "never" it gives none.
//
// Asking is the user's choice (RLX_HUGE_PAGES=1), not a default: on a 2-core EPYC (Zen, AVX2),
// rlx train at 224x224 batch 16, 5 interleaved rounds, huge pages made MobileNetV2 7-25 % faster in
// every round, while ResNet-50 (-5 to +16 %) and VGG-16 (-13 to +12 %) went either way
// (docs/benchmarks.md, "Huge pages"); at 64x64 and at batch 2 the ratio swung by 20-50 % between
// rounds of one model. The choice is one per process, and a study trains every model in one
// process, so a default would need a per-model measurement and a per-run switch (prctl
// PR_SET_THP_DISABLE), which rlx does not have.
#pragma once

#include <string>

#include "startup/startup.h"

namespace rlx::startup {

// The GLIBC_TUNABLES value rlx sets (and recognises as its own, so that its mallopt calls still run).
inline constexpr const char* kHugePagesTunables = "glibc.malloc.hugetlb=1";

// Throws std::invalid_argument for an RLX_HUGE_PAGES other than 0 or 1 (unset and empty are 0).
void check_huge_pages_variable();

// What the commands that train get on this machine with these settings: the same in every rlx
// command (the environment's id includes it), whether or not this process restarted for it.
// `restart_failed`: asked, but the restart could not be made.
HugePages decide_huge_pages(bool restart_failed = false);

// The line of tuning_notes() ("thp: ..."), worded as rlx always has.
std::string huge_pages_note(const HugePages& h);

}  // namespace rlx::startup
