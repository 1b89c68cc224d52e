// make_dirs.cpp: see make_dirs.h.
#include "util/make_dirs.h"

#include <sys/stat.h>

#include <cerrno>
#include <filesystem>

namespace rlx::util {

std::optional<MakeDirsFailure> make_directories(const std::string& dir) {
  std::filesystem::path sofar;
  for (const auto& part : std::filesystem::path(dir)) {
    sofar /= part;
    const std::string p = sofar.string();
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) return MakeDirsFailure{p, std::make_error_code(std::errc::not_a_directory), true};
      continue;
    }
    // EEXIST: another process made it between the stat and here (two array tasks, one folder).
    if (::mkdir(p.c_str(), 0777) != 0 && errno != EEXIST)
      return MakeDirsFailure{p, std::error_code(errno, std::generic_category()), false};
  }
  return std::nullopt;
}

}  // namespace rlx::util
