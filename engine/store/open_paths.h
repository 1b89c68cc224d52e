// open_paths.h: how store.cpp reaches a database file without surprising anyone (issue 17 items
// 14-17): read-only opens that work on read-only media, parent directories created only when
// asked, older inputs upgraded in a temporary copy instead of in place, and messages that say what
// is really wrong with a file. Internal to engine/store.
#pragma once

#include <sqlite3.h>

#include <string>

namespace rlx::store::detail {

// An SQLite "file:" URI that opens `path` for reading only (mode=ro). When this process cannot
// write the file's directory, SQLite could not create the WAL index (-shm) next to it, so a
// database without a pending write-ahead log is opened immutable=1 (nothing to recover, no lock
// to take). A pending -wal without its -shm in such a directory cannot be read consistently:
// throws Error saying so and how to get around it.
std::string read_only_uri(const std::string& path);  // also what a merge ATTACHes

// Before a new database file is created at `path`: its directory must exist, or is created when
// create_directories is true. Throws Error naming the directory otherwise.
void prepare_parent(const std::string& path, bool create_directories);

// Why a file that SQLite could not read or open is unusable, from the SQLite error code: the
// message for Error, naming the file (and its directory when permissions are the cause). Where
// the message ends in the Lua API's advice (readonly=true), *cause gets it without that advice.
std::string open_failure(const std::string& path, int sqlite_code, const std::string& sqlite_message,
                         bool readonly, std::string* cause = nullptr);

// The message for a file that SQLite reads but that has no rlx schema: zero bytes, an empty
// SQLite database, or one with other tables (`tables` of them).
std::string not_rlx_database(const std::string& path, long long tables);

// SQLite's online backup of the database at `source` (opened read-only, so a pending WAL is
// included and nothing is written to it) into the open connection `target`; "" or the error, and
// SQLite's result code in *code when given.
std::string backup_into(const std::string& source, sqlite3* target, int* code = nullptr);

// A temporary copy of a database (taken with SQLite's backup API, so a pending WAL is included),
// created next to `near` and removed with its -wal/-shm files when this object goes away.
class TempCopy {
 public:
  TempCopy(const std::string& source, const std::string& near);
  ~TempCopy();
  TempCopy(const TempCopy&) = delete;
  TempCopy& operator=(const TempCopy&) = delete;
  const std::string& path() const { return path_; }

 private:
  static std::string backup(const std::string& source, const std::string& target, int* code);
  void remove_files() noexcept;
  std::string path_;
};

}  // namespace rlx::store::detail
