// test_user_file.cpp: engine/util/text_file's rule for a user's files (issue 48 item 1) and the CSV
// reader on it: a FIFO, a link to /dev/zero, a folder are refused at once with one line naming the
// file; a file over the cap is refused as it is read; CSV records keep their line and columns.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "fresh_dir.h"
#include "util/csv_reader.h"
#include "util/text_file.h"

namespace fs = std::filesystem;
using rlx::util::CsvReader;
using rlx::util::CsvRecord;
using rlx::util::read_user_file;
using rlx::util::UserFileError;
using rlx::util::UserFileProblem;

namespace {

void spit(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// The problem and message of reading path, or {missing, "read"} when it was read.
std::pair<UserFileProblem, std::string> refusal(const fs::path& p, uint64_t cap = 1 << 20) {
  try {
    read_user_file(p.string(), "the kit's metrics.csv", cap);
  } catch (const UserFileError& e) {
    return {e.problem, e.what()};
  }
  return {UserFileProblem::missing, "read"};
}

}  // namespace

TEST_CASE("a user's file: a FIFO, a device, a folder are refused at once, naming the file") {
  const fs::path d = fresh_dir("user_file", "kinds");
  REQUIRE(mkfifo((d / "fifo.csv").c_str(), 0600) == 0);
  const auto t0 = std::chrono::steady_clock::now();
  auto [p, m] = refusal(d / "fifo.csv");
  CHECK(p == UserFileProblem::not_regular);
  CHECK(m == "the kit's metrics.csv '" + (d / "fifo.csv").string() +
                 "' is a FIFO, not a regular file: rlx reads only regular files (this one would block or "
                 "never end); put the file itself there");
  // Opened without blocking: no writer ever comes, and it returns (a generous bound, not a timing).
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(10));
  fs::create_symlink("/dev/zero", d / "zero.csv");
  std::tie(p, m) = refusal(d / "zero.csv");
  CHECK(p == UserFileProblem::not_regular);
  CHECK_THAT(m, Catch::Contains("is a device, not a regular file"));
  fs::create_directory(d / "dir.csv");
  std::tie(p, m) = refusal(d / "dir.csv");
  CHECK(m == "the kit's metrics.csv '" + (d / "dir.csv").string() +
                 "' is a directory, not a regular file: give the path of a file in it");
  std::tie(p, m) = refusal(d / "none.csv");
  CHECK(p == UserFileProblem::missing);
  CHECK(m == "the kit's metrics.csv '" + (d / "none.csv").string() + "' does not exist (check the path)");
  CHECK(rlx::util::check_user_file((d / "none.csv").string(), "x", true) == std::nullopt);
}

TEST_CASE("a user's file: the cap counts the bytes read, so /proc files and growing files are bounded") {
  const fs::path d = fresh_dir("user_file", "cap");
  spit(d / "ten.txt", "0123456789");
  CHECK(read_user_file((d / "ten.txt").string(), "", 10) == "0123456789");
  auto [p, m] = refusal(d / "ten.txt", 9);
  CHECK(p == UserFileProblem::too_large);
  CHECK(m == "the kit's metrics.csv '" + (d / "ten.txt").string() +
                 "' is larger than the 9 bytes rlx reads of such a file: is it the right file?");
  // /proc/self/status says it is 0 bytes long, and is read whole under the cap.
  CHECK(read_user_file("/proc/self/status", "", 1 << 20).find("Name:") == 0);
  CHECK_THROWS_AS(read_user_file("/proc/self/status", "", 4), UserFileError);
  // A stream over the file reads what read_all does.
  rlx::util::UserFile f((d / "ten.txt").string(), "");
  std::string line;
  std::getline(f.stream(), line);
  CHECK(line == "0123456789");
}

TEST_CASE("csv reader: quoted fields, CRLF, blank lines; each record's line and columns") {
  const fs::path d = fresh_dir("user_file", "csv");
  spit(d / "a.csv", "a,b,c\r\n\"x,1\",\"q\"\"\",\n\n\"two\nlines\",5,6");
  CsvReader r((d / "a.csv").string(), "the CSV", 1 << 20);
  CsvRecord rec;
  REQUIRE(r.next(rec));
  CHECK(rec.fields == std::vector<std::string>{"a", "b", "c"});
  CHECK(rec.cols == std::vector<int>{1, 3, 5});
  CHECK(rec.line == 1);
  REQUIRE(r.next(rec));
  CHECK(rec.fields == std::vector<std::string>{"x,1", "q\"", ""});
  CHECK(rec.cols == std::vector<int>{1, 7, 13});
  CHECK(rec.line == 2);
  REQUIRE(r.next(rec));  // the blank line 3 is no record
  CHECK(rec.fields == std::vector<std::string>{"two\nlines", "5", "6"});
  CHECK(rec.line == 4);
  CHECK_FALSE(r.next(rec));
}

TEST_CASE("csv reader: an unclosed quote and text after a closing quote name the line and column") {
  const fs::path d = fresh_dir("user_file", "csv_bad");
  spit(d / "open.csv", "a,b\n1,\"never\n");
  CsvReader open((d / "open.csv").string(), "", 1 << 20);
  CsvRecord rec;
  REQUIRE(open.next(rec));
  CHECK_THROWS_WITH(open.next(rec),
                    (d / "open.csv").string() +
                        ":2:3: this quoted field is never closed; add the closing \" (a quote "
                        "inside a field is written \"\")");
  spit(d / "after.csv", "\"x\"y,1\n");
  CsvReader after((d / "after.csv").string(), "", 1 << 20);
  CHECK_THROWS_WITH(after.next(rec),
                    (d / "after.csv").string() + ":1:4: text after a closing quote; quote the whole field");
}

TEST_CASE("a user's file's ends: the first and last bytes and the size, by the same rule") {
  const fs::path d = fresh_dir("user_file", "ends");
  spit(d / "m.csv", "a,b\n1,2\n3,4");
  auto ends = rlx::util::read_user_file_ends((d / "m.csv").string(), "the metrics.csv", 3, 1);
  CHECK(ends.head == "a,b");
  CHECK(ends.tail == "4");
  CHECK(ends.size == 11);
  // Shorter than asked: the whole file at both ends.
  ends = rlx::util::read_user_file_ends((d / "m.csv").string(), "the metrics.csv", 100, 100);
  CHECK(ends.head == "a,b\n1,2\n3,4");
  CHECK(ends.tail == ends.head);
  spit(d / "empty.csv", "");
  ends = rlx::util::read_user_file_ends((d / "empty.csv").string(), "the metrics.csv", 10, 1);
  CHECK(ends.head.empty());
  CHECK(ends.tail.empty());
  CHECK(ends.size == 0);
  fs::create_symlink("/dev/zero", d / "zero.csv");
  CHECK_THROWS_AS(rlx::util::read_user_file_ends((d / "zero.csv").string(), "the metrics.csv", 10, 1), UserFileError);
}
