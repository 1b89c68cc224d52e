// test_atomic_file.cpp: engine/util/atomic_file: a complete file or the old one, never a
// half-written one; an output that is one of the inputs (by name, symlink or hard link) refused
// before anything is written; write errors on special files (/dev/full) reported.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "util/atomic_file.h"
#include "fresh_dir.h"

namespace fs = std::filesystem;
using rlx::util::AtomicFile;
using rlx::util::write_file_atomic;

namespace {

fs::path fresh_dir(const std::string& name) { return ::fresh_dir("atomic_file", name); }

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// Names in the directory other than the ones expected: a leftover temporary file shows up here.
size_t entries(const fs::path& dir) {
  return static_cast<size_t>(std::distance(fs::directory_iterator(dir), {}));
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("write_file_atomic creates a new file with the umask's permissions and no leftovers") {
  const auto d = fresh_dir("new");
  write_file_atomic((d / "out.csv").string(), "a,b\n1,2\n");
  CHECK(slurp(d / "out.csv") == "a,b\n1,2\n");
  CHECK(entries(d) == 1);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat st {};
  REQUIRE(::stat((d / "out.csv").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == (0666 & ~mask));
}

TEST_CASE("write_file_atomic replaces an existing file and keeps its mode") {
  const auto d = fresh_dir("replace");
  spit(d / "out.txt", "old content that is longer than the new one");
  fs::permissions(d / "out.txt", fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  write_file_atomic((d / "out.txt").string(), "new");
  CHECK(slurp(d / "out.txt") == "new");
  CHECK(fs::status(d / "out.txt").permissions() ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  CHECK(entries(d) == 1);
}

TEST_CASE("an uncommitted AtomicFile leaves the old file intact and removes its temporary file") {
  const auto d = fresh_dir("abandon");
  spit(d / "fig.png", "the good figure");
  {
    AtomicFile f((d / "fig.png").string());
    f.write("half a figu");
    CHECK(entries(d) == 2);  // the old file and the temporary one
  }
  CHECK(slurp(d / "fig.png") == "the good figure");
  CHECK(entries(d) == 1);
}

TEST_CASE("a symlinked target stays a link and the file it points to is replaced") {
  const auto d = fresh_dir("link");
  spit(d / "real.json", "{}");
  fs::create_symlink("real.json", d / "alias.json");
  write_file_atomic((d / "alias.json").string(), "[1]");
  CHECK(fs::is_symlink(d / "alias.json"));
  CHECK(slurp(d / "real.json") == "[1]");
  CHECK(entries(d) == 2);
}

TEST_CASE("an output that is the input is refused, by name, symlink or hard link, before writing") {
  const auto d = fresh_dir("same");
  const std::string db = (d / "study.db").string();
  spit(db, "SQLite format 3");
  fs::create_symlink("study.db", d / "link.db");
  fs::create_hard_link(d / "study.db", d / "hard.db");
  for (const std::string& out : {db, (d / "link.db").string(), (d / "hard.db").string()}) {
    const std::string err = error_of([&] { write_file_atomic(out, "label,host\n", {"other.db", db}); });
    CHECK(err == "the output '" + out + "' is the same file as the input '" + db +
                     "': writing it would destroy the input; choose another output file");
  }
  // The input named through the link is the same file too.
  CHECK_FALSE(error_of([&] { write_file_atomic(db, "x", {(d / "link.db").string()}); }).empty());
  CHECK(slurp(db) == "SQLite format 3");
  CHECK(entries(d) == 3);
  // A different file, or an output that does not exist yet, is fine.
  write_file_atomic((d / "out.csv").string(), "ok", {db});
  CHECK(slurp(d / "out.csv") == "ok");
}

TEST_CASE("a full device is an error naming the path and the cause") {
  const std::string err = error_of([] { write_file_atomic("/dev/full", "x"); });
  CHECK(err == "cannot write '/dev/full': No space left on device");
  // /dev/null is a device too: written in place, not renamed over.
  write_file_atomic("/dev/null", "discarded");
  CHECK(fs::is_character_file("/dev/null"));
}

TEST_CASE("a missing directory is an error and is not created") {
  const auto d = fresh_dir("missing");
  const std::string out = (d / "nodir" / "x.csv").string();
  CHECK(error_of([&] { write_file_atomic(out, "x"); }) ==
        "cannot write '" + out + "': the directory '" + (d / "nodir").string() + "' does not exist");
  CHECK_FALSE(fs::exists(d / "nodir"));
}

TEST_CASE("a directory as the target is an error") {
  const auto d = fresh_dir("isdir");
  CHECK(error_of([&] { write_file_atomic(d.string(), "x"); }) ==
        "cannot write '" + d.string() + "': it is a directory");
}

TEST_CASE("a writer told what its file is names it in every message") {
  const auto d = fresh_dir("kind");
  CHECK(error_of([&] { AtomicFile f(d.string(), {}, "figure"); }) ==
        "cannot write figure '" + d.string() + "': it is a directory");
  CHECK(error_of([] {
          AtomicFile f("/dev/full", {}, "figure");
          f.write("x");
          f.commit();
        }) == "cannot write figure '/dev/full': No space left on device");
}
