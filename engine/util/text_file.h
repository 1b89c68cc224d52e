// Whole small text files (/proc, /sys and cgroup files, os-release): one reader for the engine's
// probes, so each of them treats a missing or unreadable file the same way, as "not known".
#pragma once

#include <optional>
#include <string>

namespace rlx::util {

// The file's whole contents, or nullopt where it cannot be opened.
std::optional<std::string> read_text_file(const std::string& path);

}  // namespace rlx::util
