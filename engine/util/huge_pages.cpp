// huge_pages.cpp: transparent huge pages for the heap, chosen at start (huge_pages.h).
//
// The marker RLX_THP=<pid> says GLIBC_TUNABLES came from rlx: the restart (execv keeps the pid) and
// any process a parent rlx started (a Slurm task, a script's `rlx` call) have glibc set up the same
// way, so they keep it without another restart. The note depends only on the kernel's mode and the
// user's settings, not on whether this process restarted: it is part of the environment (its id),
// which `rlx env` and `rlx run` must agree on.
#include "util/huge_pages.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "util/env_value.h"
#include "util/process_tuning.h"
#include "util/restart_self.h"

namespace rlx::util {
namespace {

enum class Choice { ask, not_asked, always, never, user, unknown };
constinit bool g_restart_failed = false;
constexpr const char* kMarker = "RLX_THP";
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
// "": rlx leaves the allocator alone then, as process_tuning.h does.
std::string user_allocator_setting() {
  const std::string preloaded = preloaded_allocator();
  return preloaded.empty() ? user_malloc_variable() : preloaded + " preloaded";
}

Choice decide(std::string& user) {
  user = user_allocator_setting();
  if (!user.empty()) return Choice::user;
  const std::string mode = kernel_mode();
  if (mode == "madvise") {
    const char* want = env_value(kOptIn);
    return want != nullptr && std::strcmp(want, "1") == 0 ? Choice::ask : Choice::not_asked;
  }
  if (mode == "always") return Choice::always;
  if (mode == "never") return Choice::never;
  return Choice::unknown;
}

}  // namespace

bool glibc_tunables_from_rlx() {
  const char* t = env_value("GLIBC_TUNABLES");
  return t != nullptr && env_value(kMarker) != nullptr && std::strcmp(t, kHugePagesTunables) == 0;
}

std::string choose_huge_pages(char** argv) noexcept {
  const char* want = env_value(kOptIn);
  if (want != nullptr && std::strcmp(want, "0") != 0 && std::strcmp(want, "1") != 0)
    return std::string(kOptIn) + " must be 1 (the training heap in huge pages) or 0, got \"" + want +
           "\"; set it to 1 or 0, or unset it";
  std::string user;
  if (glibc_tunables_from_rlx() || decide(user) != Choice::ask) return "";
  setenv("GLIBC_TUNABLES", kHugePagesTunables, 1);
  setenv(kMarker, std::to_string(getpid()).c_str(), 1);
  restart_self(argv);
  unsetenv("GLIBC_TUNABLES");  // reached only when execv failed
  unsetenv(kMarker);
  g_restart_failed = true;
  return "";
}

std::string huge_pages_note() {
  std::string user;
  switch (decide(user)) {
    case Choice::ask:
      if (g_restart_failed)
        return "thp: not asked (restarting with GLIBC_TUNABLES failed: execv of /proc/self/exe)";
      return std::string(
                 "thp: the training heap in transparent huge pages (RLX_HUGE_PAGES=1, kernel mode madvise: "
                 "the commands that train start with GLIBC_TUNABLES=") +
             kHugePagesTunables + ")";
    case Choice::not_asked:
      return "thp: not asked (kernel mode madvise; RLX_HUGE_PAGES=1 asks)";
    case Choice::always:
      return "thp: the heap in transparent huge pages (kernel mode always: given unasked)";
    case Choice::never:
      return "thp: none (kernel mode never)";
    case Choice::user:
      return "thp: left as the environment sets the allocator (" + user + ")";
    case Choice::unknown:
      break;
  }
  return std::string("thp: not asked (") + kModeFile + " unreadable)";
}

}  // namespace rlx::util
