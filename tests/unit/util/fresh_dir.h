// fresh_dir.h: an empty folder under the tests' temporary root for one test case of the util
// tests: RLX_TEST_TMP/<group>/<name>, removed and made again, so a rerun starts clean.
#pragma once

#include <filesystem>
#include <string>

inline std::filesystem::path fresh_dir(const std::string& group, const std::string& name) {
  std::filesystem::path d = std::filesystem::path(RLX_TEST_TMP) / group / name;
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}
