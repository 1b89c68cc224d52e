// make_dirs.h: the one way rlx makes a folder (issue 32: the output checks, the store and
// rlx.plot.mkdir each had their own `mkdir -p`, which could disagree on what is in the way).
//
// make_directories(dir) creates dir and its missing parents, component by component, and on
// failure says which component stopped it and why, without throwing: each caller words the error in
// its own terms (an output flag, a database's folder, a figure folder) from the same cause.
#pragma once

#include <optional>
#include <string>
#include <system_error>

namespace rlx::util {

// Why a folder could not be made: the path component at fault, the error (not_a_directory when
// that component is a file), and whether it is a file in the way (else mkdir(2) failed there).
struct MakeDirsFailure {
  std::string at;
  std::error_code error;
  bool file_in_the_way = false;
};

// mkdir -p dir: nothing when dir exists as a folder or was made; else the failure.
std::optional<MakeDirsFailure> make_directories(const std::string& dir);

}  // namespace rlx::util
