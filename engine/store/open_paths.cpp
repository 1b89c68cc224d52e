// open_paths.cpp: read-only URIs, parent directories, open-failure messages and temporary copies
// for store.cpp (see open_paths.h).
#include "store/open_paths.h"

#include <fmt/format.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "store/store.h"
#include "util/make_dirs.h"

namespace rlx::store::detail {

namespace fs = std::filesystem;

namespace {

std::string directory_of(const std::string& path) {
  const std::string parent = fs::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

bool writable_dir(const std::string& dir) {
  return ::access(dir.c_str(), W_OK) == 0;
}

bool non_empty_file(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  return !ec && size > 0;
}

// RFC 3986 percent-encoding of everything but unreserved characters and '/', as SQLite's URI
// parser expects ('?' and '#' in a file name would otherwise start the query or fragment).
std::string uri_path(const std::string& path) {
  std::error_code ec;
  const std::string abs = fs::absolute(path, ec).string();
  std::string out;
  for (unsigned char c : ec ? path : abs) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~')
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

}  // namespace

std::string read_only_uri(const std::string& path) {
  const std::string dir = directory_of(path);
  const bool pending_wal = non_empty_file(path + "-wal");
  const bool immutable = !writable_dir(dir) && !pending_wal;
  if (!writable_dir(dir) && pending_wal && !fs::exists(path + "-shm"))
    throw Error(
        fmt::format("cannot read '{0}': it has changes in its write-ahead log '{0}-wal' that SQLite "
                    "can read only by creating '{0}-shm', and the directory '{1}' is not writable; copy "
                    "'{0}' and '{0}-wal' together to a writable directory and read the copy",
                    path, dir));
  return "file:" + uri_path(path) + "?mode=ro" + (immutable ? "&immutable=1" : "");
}

void prepare_parent(const std::string& path, bool create_directories) {
  const fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (parent.empty() || fs::is_directory(parent, ec)) return;
  if (fs::exists(parent, ec))
    throw Error(fmt::format("cannot create database '{}': '{}' is not a directory", path, parent.string()));
  if (!create_directories)
    throw Error(
        fmt::format("cannot create database '{}': the directory '{}' does not exist (create it "
                    "first, or check the path)",
                    path, parent.string()));
  if (const auto failed = util::make_directories(parent.string()))
    throw Error(fmt::format("cannot create the directory '{}' for database '{}': {}", parent.string(), path,
                            failed->error.message()));
}

std::string open_failure(const std::string& path, int sqlite_code, const std::string& sqlite_message,
                         bool readonly, std::string* cause) {
  const int code = sqlite_code & 0xff;
  if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT)
    return fmt::format(
        "'{}' is not a usable SQLite database ({}); is it the right file, or was it damaged? "
        "Restore it or start a new database",
        path, sqlite_message);
  if (code != SQLITE_READONLY && code != SQLITE_CANTOPEN && code != SQLITE_PERM)
    return fmt::format("cannot open database '{}': {}", path, sqlite_message);
  const std::string dir = directory_of(path);
  // Issue 25 finding 11: a new database in a read-only directory was "not readable"; name the
  // directory when it is the cause.
  if (::access(path.c_str(), F_OK) != 0 && errno == ENOENT && !readonly)
    return fmt::format("cannot create database '{}': the directory '{}' is not writable by this user ({})",
                       path, dir, sqlite_message);
  if (::access(dir.c_str(), X_OK) != 0)
    return fmt::format(
        "cannot open '{}': the directory '{}' cannot be entered by this user (check its permissions)", path,
        dir);
  if (::access(path.c_str(), R_OK) != 0)
    return fmt::format("cannot read '{}': the file is not readable by this user (check its permissions)",
                       path);
  if (readonly)
    return fmt::format("cannot read '{}': {} (the directory '{}' is {}writable)", path, sqlite_message, dir,
                       writable_dir(dir) ? "" : "not ");
  const std::string read_only = fmt::format(
      "'{}' is read-only for this user (the file or its directory '{}' is not writable: {})", path, dir,
      sqlite_message);
  if (cause) *cause = read_only;
  return read_only + "; open it with readonly=true to query it";
}

std::string not_rlx_database(const std::string& path, long long tables) {
  std::error_code ec;
  const std::string what = fs::file_size(path, ec) == 0 && !ec ? "the file is empty (0 bytes)"
                           : tables == 0
                               ? "an SQLite database with no tables"
                               : fmt::format(
                                     "an SQLite database with {} tables of its own and no rlx schema "
                                     "version",
                                     tables);
  return fmt::format(
      "'{}' is not an rlx database: {}; give the path of a study database (rlx run writes "
      "results/<study>.db)",
      path, what);
}

TempCopy::TempCopy(const std::string& source, const std::string& near) {
  std::string name = directory_of(near) + "/." + fs::path(near).filename().string() + ".merge-input-XXXXXX";
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw Error(fmt::format("cannot create a temporary copy of '{}' next to '{}' to upgrade it: {}", source,
                            near, std::strerror(errno)));
  ::close(fd);
  path_ = name;
  int code = SQLITE_OK;
  const std::string error = backup(source, path_, &code);
  if (!error.empty()) {
    remove_files();
    throw Error(fmt::format("cannot copy '{}' to upgrade it: {}", source, error), sqlite_code_name(code));
  }
}

std::string backup_into(const std::string& source, sqlite3* target, int* code) {
  sqlite3* src = nullptr;
  std::string error;
  int rc = SQLITE_OK;
  if (sqlite3_open_v2(read_only_uri(source).c_str(), &src, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) !=
      SQLITE_OK) {
    error = sqlite3_errmsg(src);
    rc = sqlite3_errcode(src);
  } else if (sqlite3_backup* b = sqlite3_backup_init(target, "main", src, "main"); b == nullptr) {
    error = sqlite3_errmsg(target);
    rc = sqlite3_errcode(target);
  } else {
    const int step = sqlite3_backup_step(b, -1);
    sqlite3_backup_finish(b);
    if (step != SQLITE_DONE) {
      error = sqlite3_errmsg(target);
      rc = sqlite3_errcode(target);
    }
  }
  sqlite3_close(src);
  if (code) *code = rc;
  return error;
}

// SQLite's online backup of `source` (read-only) into the empty file `target`; "" or the error.
std::string TempCopy::backup(const std::string& source, const std::string& target, int* code) {
  sqlite3* dst = nullptr;
  std::string error;
  if (sqlite3_open_v2(target.c_str(), &dst, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    error = sqlite3_errmsg(dst);
    *code = sqlite3_errcode(dst);
  } else {
    error = backup_into(source, dst, code);
  }
  sqlite3_close(dst);
  return error;
}

TempCopy::~TempCopy() {
  remove_files();
}

void TempCopy::remove_files() noexcept {
  if (path_.empty()) return;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) ::unlink((path_ + suffix).c_str());
  path_.clear();
}

}  // namespace rlx::store::detail
