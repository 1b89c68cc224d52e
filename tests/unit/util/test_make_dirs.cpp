// test_make_dirs.cpp: engine/util/make_dirs, the one way rlx makes a folder (issue 32): parents are
// made, an existing folder is fine, and a failure names the component at fault and why, so the
// output checks, the store and rlx.plot.mkdir can each word it.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "util/make_dirs.h"
#include "fresh_dir.h"

namespace fs = std::filesystem;
using rlx::util::make_directories;

namespace {

fs::path fresh_dir(const std::string& name) { return ::fresh_dir("make_dirs", name); }

}  // namespace

TEST_CASE("make_directories makes a folder with its parents, and an existing one is fine") {
  const fs::path d = fresh_dir("parents") / "a" / "b" / "c";
  CHECK_FALSE(make_directories(d.string()));
  CHECK(fs::is_directory(d));
  CHECK_FALSE(make_directories(d.string()));
}

TEST_CASE("make_directories names the file in the way") {
  const fs::path base = fresh_dir("file");
  std::ofstream(base / "f") << "x";
  const auto failed = make_directories((base / "f" / "sub").string());
  REQUIRE(failed);
  CHECK(failed->file_in_the_way);
  CHECK(failed->at == (base / "f").string());
  CHECK(failed->error == std::errc::not_a_directory);
  CHECK(failed->error.message() == "Not a directory");
}

TEST_CASE("make_directories reports a folder it may not write in") {
  if (::geteuid() == 0) return;  // root writes anywhere: nothing to refuse
  const fs::path base = fresh_dir("readonly");
  fs::permissions(base, fs::perms::owner_read | fs::perms::owner_exec);
  const auto failed = make_directories((base / "x" / "y").string());
  fs::permissions(base, fs::perms::owner_all);
  REQUIRE(failed);
  CHECK_FALSE(failed->file_in_the_way);
  CHECK(failed->at == (base / "x").string());
  CHECK(failed->error == std::errc::permission_denied);
}
