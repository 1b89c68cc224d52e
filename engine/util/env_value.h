// env_value.h: an environment variable's value, where "set to nothing" counts as unset (as the
// shell's `VAR= cmd` means it), for the choices rlx makes at start from the environment.
#pragma once

#include <cstdlib>

namespace rlx::util {

// The value of `name`, or nullptr when it is unset or empty.
inline const char* env_value(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : nullptr;
}

}  // namespace rlx::util
