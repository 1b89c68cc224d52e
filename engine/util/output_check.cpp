// output_check.cpp: see output_check.h.
#include "util/output_check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "util/make_dirs.h"
#include "util/text_file.h"

namespace rlx::util {
namespace {

[[noreturn]] void fail(const std::string& msg) {
  throw std::runtime_error(msg);
}

std::string parent_of(const std::string& path) {
  std::string p = std::filesystem::path(path).parent_path().string();
  return p.empty() ? "." : p;
}

// stat(2) of path (following symlinks); false when it does not exist or cannot be looked at.
bool stat_of(const std::string& path, struct stat* st) {
  return ::stat(path.c_str(), st) == 0;
}

// A file can be created in dir (and removed again).
void probe_writable(const std::string& dir) {
  std::string name = dir + "/.rlx-check-XXXXXX";
  const int fd = mkstemp(name.data());
  if (fd < 0) fail(fmt::format("cannot write in the directory '{}': {}", dir, std::strerror(errno)));
  close(fd);
  unlink(name.c_str());
}

// The nearest ancestor of a missing path that exists ("." for a relative path with none).
std::string nearest_existing(std::string p) {
  struct stat st {};
  while (!stat_of(p, &st)) {
    const std::string up = parent_of(p);
    if (up == p) break;
    p = up;
  }
  return p;
}

// mkdir -p dir (util::make_directories), naming the first component that is in the way.
void make_folder(const std::string& dir) {
  const auto failed = make_directories(dir);
  if (!failed) return;
  if (failed->file_in_the_way)
    fail(fmt::format("cannot create the directory '{}': '{}' is a file, not a directory", dir, failed->at));
  fail(fmt::format("cannot create the directory '{}': {} (in '{}')", dir, failed->error.message(),
                   parent_of(failed->at)));
}

// A directory that exists (or, with create, is made; in a dry run, could be made) and takes files.
void check_directory(const std::string& dir, bool create, const char* missing_advice) {
  struct stat st {};
  if (stat_of(dir, &st)) {
    if (!S_ISDIR(st.st_mode))
      fail(fmt::format("'{}' is {}, not a directory: give a directory", dir,
                       S_ISREG(st.st_mode) ? std::string("a file") : file_kind_text(st.st_mode)));
    probe_writable(dir);
    return;
  }
  if (missing_advice != nullptr)
    fail(fmt::format("the directory '{}' does not exist ({})", dir, missing_advice));
  if (create) {
    make_folder(dir);
    return;
  }
  const std::string base = nearest_existing(dir);
  if (!stat_of(base, &st) || !S_ISDIR(st.st_mode))
    fail(fmt::format("cannot create the directory '{}': '{}' is a file, not a directory", dir, base));
  probe_writable(base);
}

// The first n bytes of a regular file ("" for anything else: a FIFO is not waited on).
std::string head_of(const std::string& path, size_t n) {
  try {
    UserFile f(path, "");
    std::string s(n, '\0');
    size_t got = 0;
    for (size_t k; got < n && (k = f.read(s.data() + got, n - got)) > 0;) got += k;
    s.resize(got);
    return s;
  } catch (const UserFileError&) {
    return "";
  }
}

// Where an existing file really is (the directory of a symlink's target holds the new file).
std::string resolved(const std::string& path) {
  char buf[PATH_MAX];
  return ::realpath(path.c_str(), buf) != nullptr ? std::string(buf) : path;
}

void check_file(const std::string& path, OutputKind kind, const OutputCheck& o) {
  struct stat st {};
  const bool exists = stat_of(path, &st);
  if (exists && S_ISDIR(st.st_mode)) fail(fmt::format("'{}' is a directory: give a file name", path));
  // A file appended to holds rows that are read back (its header): a device is none of that, and
  // /dev/zero or /dev/full used to be read forever for a first line.
  if (exists && kind == OutputKind::Append && !S_ISREG(st.st_mode))
    fail(fmt::format("'{}' is not a regular file (a device, FIFO or socket); rows are appended to a file",
                     path));
  if (exists && !S_ISREG(st.st_mode)) return;  // a device, FIFO or socket: written in place, checked then
  if (exists && !o.allow_sqlite && is_sqlite_file(path))
    fail(
        fmt::format("'{}' is an SQLite database; refusing to overwrite it (choose another file name)", path));
  // As util::AtomicFile: an existing file this process may not write is not replaced.
  if (exists && kind == OutputKind::File && ::access(path.c_str(), W_OK) != 0)
    fail(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
  if (exists && kind == OutputKind::Append) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) fail(fmt::format("cannot append to '{}': {}", path, std::strerror(errno)));
    close(fd);
    return;
  }
  check_directory(parent_of(exists ? resolved(path) : path), o.create && o.create_parent,
                  o.create_parent ? nullptr : "create it first, or check the path");
}

void check_database(const std::string& path) {
  struct stat st {};
  if (!stat_of(path, &st)) {
    check_directory(parent_of(path), false, "create it first, or check the path");
    return;
  }
  if (S_ISDIR(st.st_mode)) fail(fmt::format("'{}' is a directory: give a database file name", path));
  // A FIFO or a device is no database (SQLite would wait on it, or read it forever).
  if (!S_ISREG(st.st_mode)) check_user_file(path, "the database");
  if (st.st_size > 0 && !is_sqlite_file(path))
    fail(fmt::format("'{}' is not an SQLite database: give the path of a study database, or a new file name",
                     path));
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) fail(fmt::format("cannot write to '{}': {}", path, std::strerror(errno)));
  close(fd);
  probe_writable(parent_of(resolved(path)));  // SQLite's journal and WAL files sit beside it
}

}  // namespace

bool is_sqlite_file(const std::string& path) {
  static const std::string magic("SQLite format 3\0", 16);
  return head_of(path, magic.size()) == magic;
}

void check_output(const std::string& path, OutputKind kind, const OutputCheck& o) {
  if (path.empty()) fail("the path is empty: give a file or directory name");
  switch (kind) {
    case OutputKind::Folder:
      check_directory(path, o.create, nullptr);
      return;
    case OutputKind::File:
    case OutputKind::Append:
      check_file(path, kind, o);
      return;
    case OutputKind::Database:
      check_database(path);
      return;
  }
}

}  // namespace rlx::util
