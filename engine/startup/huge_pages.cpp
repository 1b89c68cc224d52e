// huge_pages.cpp: transparent huge pages for the heap, decided at start (huge_pages.h). The note
// depends only on the kernel's mode and the user's settings, not on whether this process restarted:
// it is part of the environment (its id), which `rlx env` and `rlx run` must agree on.
#include "startup/huge_pages.h"

#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#include "util/env_value.h"
#include "util/process_tuning.h"

namespace rlx::startup {
namespace {

constexpr const char* kOptIn = "RLX_HUGE_PAGES";
constexpr const char* kModeFile = "/sys/kernel/mm/transparent_hugepage/enabled";

// The bracketed word of the kernel's setting ("always [madvise] never" -> "madvise"), or "".
std::string kernel_mode() {
  std::ifstream f(kModeFile);
  std::string line;
  if (!std::getline(f, line)) return "";
  const auto open = line.find('['), close = line.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open) return "";
  return line.substr(open + 1, close - open - 1);
}

// The user's setting that decides the allocator ("GLIBC_TUNABLES=...", "jemalloc preloaded"), or
// "": rlx leaves the allocator alone then, as process_settings.cpp does.
std::string user_allocator_setting() {
  const std::string preloaded = util::preloaded_allocator();
  return preloaded.empty() ? util::user_malloc_variable() : preloaded + " preloaded";
}

}  // namespace

void check_huge_pages_variable() {
  const char* want = util::env_value(kOptIn);
  if (want != nullptr && std::strcmp(want, "0") != 0 && std::strcmp(want, "1") != 0)
    throw std::invalid_argument(std::string(kOptIn) +
                                " must be 1 (the training heap in huge pages) or 0, got \"" + want +
                                "\"; set it to 1 or 0, or unset it");
}

HugePages decide_huge_pages(bool restart_failed) {
  HugePages h;
  h.environment = user_allocator_setting();
  h.kernel_mode = kernel_mode();
  if (!h.environment.empty()) {
    h.choice = "environment";
  } else if (h.kernel_mode == "madvise") {
    const char* want = util::env_value(kOptIn);
    h.choice = want != nullptr && std::strcmp(want, "1") == 0 ? "asked" : "not_asked";
    if (h.choice == "asked" && restart_failed) {
      h.choice = "failed";
      h.error = "restarting with GLIBC_TUNABLES failed: execv of /proc/self/exe";
    }
  } else if (h.kernel_mode == "always" || h.kernel_mode == "never") {
    h.choice = h.kernel_mode;
  } else {
    h.choice = "mode_unknown";
  }
  return h;
}

std::string huge_pages_note(const HugePages& h) {
  if (h.choice == "failed") return "thp: not asked (" + h.error + ")";
  if (h.choice == "asked")
    return std::string(
               "thp: the training heap in transparent huge pages (RLX_HUGE_PAGES=1, kernel mode madvise: "
               "the commands that train start with GLIBC_TUNABLES=") +
           kHugePagesTunables + ")";
  if (h.choice == "not_asked") return "thp: not asked (kernel mode madvise; RLX_HUGE_PAGES=1 asks)";
  if (h.choice == "always")
    return "thp: the heap in transparent huge pages (kernel mode always: given unasked)";
  if (h.choice == "never") return "thp: none (kernel mode never)";
  if (h.choice == "environment")
    return "thp: left as the environment sets the allocator (" + h.environment + ")";
  return std::string("thp: not asked (") + kModeFile + " unreadable)";
}

}  // namespace rlx::startup
