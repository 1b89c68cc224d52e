// fresh_db.h: where a store test keeps its SQLite file. The path is RLX_TEST_TMP/<folder>/<file>,
// with the file of an earlier run removed, WAL and shared-memory files included, so that every
// test opens a database that does not exist yet. ctest runs test cases in parallel, so each case
// names its own file.
#pragma once

#include <filesystem>
#include <string>

namespace rlx::test {

inline std::string fresh_db_path(const std::string& folder, const std::string& file) {
  const std::filesystem::path dir = std::filesystem::path(RLX_TEST_TMP) / folder;
  std::filesystem::create_directories(dir);
  const std::string path = (dir / file).string();
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
  return path;
}

}  // namespace rlx::test
