#include "util/text_file.h"

#include <fstream>
#include <sstream>

namespace rlx::util {

std::optional<std::string> read_text_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace rlx::util
