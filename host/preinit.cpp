// preinit.cpp: what rlx decides before any library's constructor runs. The dynamic loader calls
// the executable's .preinit_array functions (argc, argv, envp) before the initializers of the
// shared libraries, so settings that libgomp reads when it is loaded can still be chosen here.
#include <cstring>

#include "util/openmp_wait.h"

namespace {

// Commands that train or measure (only they pay the ~80 ms load sample): run, train, repl,
// peaks, a script file, -e code.
bool measures(int argc, char** argv) {
  if (argc < 2 || argv[1] == nullptr) return false;
  const char* c = argv[1];
  for (const char* name : {"run", "train", "repl", "peaks", "-e"}) {
    if (std::strcmp(c, name) == 0) return true;
  }
  const std::size_t n = std::strlen(c);
  return n > 4 && std::strcmp(c + n - 4, ".lua") == 0;
}

void rlx_preinit(int argc, char** argv, char** envp) {
  if (measures(argc, argv)) rlx::util::choose_openmp_wait(argv, envp, 80);
}

}  // namespace

// NOLINTNEXTLINE: the loader's array, not a variable of ours.
__attribute__((section(".preinit_array"), used)) static void (*const rlx_preinit_entry)(int, char**,
                                                                                        char**) = rlx_preinit;
