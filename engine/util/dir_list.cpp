// dir_list.cpp: see dir_list.h.
#include "util/dir_list.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace rlx::util {

std::vector<std::string> list_files(const std::string& dir, const std::string& suffix, bool missing_ok,
                                    bool not_only_regular) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (!fs::exists(st)) {
    if (missing_ok) return {};
    throw std::runtime_error("no folder '" + dir + "' (check the path)");
  }
  if (!fs::is_directory(st)) throw std::runtime_error("'" + dir + "' is not a folder");
  std::vector<std::string> out;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (not_only_regular ? it->is_directory(ec) : !it->is_regular_file(ec)) continue;
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(name);
  }
  if (ec) throw std::runtime_error("cannot read the folder '" + dir + "': " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace rlx::util
