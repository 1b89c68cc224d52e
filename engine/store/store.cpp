// store.cpp: opening, migrating, querying and merging an rlx study database (see store.h).
//
// SQLiteCpp owns the connection; statements go through the sqlite3 C API underneath it because a
// binding layer needs what the wrapper hides: the number of parameters a statement expects, the
// text left after the first statement (so "a; b" is refused instead of silently half-run), and
// the storage class of each value (so an integer column comes back as an integer).
#include "store/store.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sqlite3.h>

#include <cctype>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <optional>
#include <random>
#include <thread>

#include "store/open_paths.h"
#include "util/text_file.h"

namespace rlx::store {

namespace fs = std::filesystem;
using detail::not_rlx_database;
using detail::open_failure;
using detail::prepare_parent;
using detail::read_only_uri;

std::string sqlite_code_name(int code) {
  static const char* const kNames[] = {
      "SQLITE_OK",       "SQLITE_ERROR",  "SQLITE_INTERNAL", "SQLITE_PERM",       "SQLITE_ABORT",
      "SQLITE_BUSY",     "SQLITE_LOCKED", "SQLITE_NOMEM",    "SQLITE_READONLY",   "SQLITE_INTERRUPT",
      "SQLITE_IOERR",    "SQLITE_CORRUPT", "SQLITE_NOTFOUND", "SQLITE_FULL",      "SQLITE_CANTOPEN",
      "SQLITE_PROTOCOL", "SQLITE_EMPTY",  "SQLITE_SCHEMA",   "SQLITE_TOOBIG",     "SQLITE_CONSTRAINT",
      "SQLITE_MISMATCH", "SQLITE_MISUSE", "SQLITE_NOLFS",    "SQLITE_AUTH",       "SQLITE_FORMAT",
      "SQLITE_RANGE",    "SQLITE_NOTADB", "SQLITE_NOTICE",   "SQLITE_WARNING"};
  const int primary = code & 0xff;
  if (primary == SQLITE_OK) return "";
  if (primary < static_cast<int>(std::size(kNames))) return kNames[primary];
  return fmt::format("SQLITE_{}", primary);
}

namespace {

// The store's error for a file SQLite would not open or read: open_failure's message, SQLite's
// code as data, and the message without its advice where it gives the Lua API's.
[[noreturn]] void refuse_open(const std::string& path, int sqlite_code, const std::string& sqlite_message,
                              bool readonly) {
  std::string cause;
  const std::string message = open_failure(path, sqlite_code, sqlite_message, readonly, &cause);
  throw Error(message, sqlite_code_name(sqlite_code), cause);
}

// Owns a prepared statement of the C API.
struct Stmt {
  sqlite3_stmt* s = nullptr;
  ~Stmt() { sqlite3_finalize(s); }
};

// The tables every schema version has had since version 1 that the database lacks (issue 35 item
// 11: a database without `runs` gave "bad SQL").
std::vector<std::string> missing_tables(SQLite::Database& db) {
  std::vector<std::string> missing;
  for (const char* t : {"environments", "studies", "runs", "samples", "counters", "complexity", "peaks"}) {
    SQLite::Statement st(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?");
    st.bind(1, t);
    st.executeStep();
    if (st.getColumn(0).getInt() == 0) missing.emplace_back(t);
  }
  return missing;
}

const char* kMergeTables[] = {"environments", "studies",    "runs",  "samples",         "counters",
                              "complexity",   "peaks",      "roofline_points", "calibrations", "plans",
                              "run_attempts"};

}  // namespace

Store::Store(const std::string& path, OpenOptions opts) : path_(path), readonly_(opts.readonly) {
  if (path.empty()) throw Error("empty database path; pass a file name such as results/study.db");
  if (opts.snapshot) {
    open_snapshot(opts);
    return;
  }
  std::error_code ec;
  bool exists = fs::exists(path, ec);
  if (!exists && (opts.readonly || !opts.create))
    throw Error(fmt::format("no database at '{}' (check the path)", path));
  if (exists && fs::is_directory(path, ec))
    throw Error(fmt::format("'{}' is a directory, not a database file", path));
  // The one rule for a user's files (util/text_file.h): SQLite would wait forever on a FIFO (or
  // read /dev/zero as pages); permissions are left to open_failure's messages below.
  if (exists) try {
      util::check_user_file(path, "the database");
    } catch (const util::UserFileError& e) {
      if (e.problem == util::UserFileProblem::not_regular) throw Error(e.what());
    }
  if (!exists) prepare_parent(path, opts.create_directories);
  // Read-only opens go through a mode=ro URI (immutable on read-only media, see open_paths.h);
  // OPEN_URI on writable connections lets merge_from ATTACH its input the same way.
  const std::string name = opts.readonly ? read_only_uri(path) : path;
  int flags = SQLite::OPEN_URI | (opts.readonly ? SQLite::OPEN_READONLY : (SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE));
  try {
    db_ = std::make_unique<SQLite::Database>(name, flags, opts.busy_timeout_ms);
  } catch (const SQLite::Exception& e) {
    refuse_open(path, e.getExtendedErrorCode(), e.what(), opts.readonly);
  }
  // The first read of the header is where a file that is not SQLite (or is corrupt) shows up.
  int version = 0;
  long long tables = 0;
  try {
    // One statement, so both come from one snapshot: another process may be creating the schema.
    SQLite::Statement st(*db_, "SELECT (SELECT user_version FROM pragma_user_version), "
                                "(SELECT count(*) FROM sqlite_master WHERE type = 'table')");
    st.executeStep();
    version = st.getColumn(0).getInt();
    tables = st.getColumn(1).getInt64();
  } catch (const SQLite::Exception& e) {
    db_.reset();
    refuse_open(path, e.getExtendedErrorCode(), e.what(), opts.readonly);
  }
  // Nothing to read in a file without rlx's schema (zero bytes, an empty or foreign SQLite file);
  // a writable open of an empty file is a new database and gets the schema below.
  if (version == 0 && (tables > 0 || opts.readonly)) {
    db_.reset();
    throw Error(not_rlx_database(path, tables));
  }
  if (version > current_schema_version()) {
    db_.reset();
    throw Error(
        fmt::format("'{}' was written by a newer rlx (schema version {}, this rlx knows up to {}); "
                    "upgrade rlx to use it",
                    path, version, current_schema_version()));
  }
  if (version > 0) {
    const std::vector<std::string> missing = missing_tables(*db_);
    if (!missing.empty()) {
      db_.reset();
      throw Error(
          fmt::format("'{}' is an rlx database (schema version {}) without its {}: it was damaged or "
                      "edited by hand; use a backup or a copy rlx wrote",
                      path, version,
                      missing.size() == 1 ? "'" + missing[0] + "' table"
                                          : fmt::format("tables '{}'", fmt::join(missing, "', '"))));
    }
  }
  try {
    db_->exec("PRAGMA foreign_keys = ON");
  } catch (const std::exception& e) {
    fail("cannot configure", e);
  }
  if (opts.readonly) return;
  if (sqlite3_db_readonly(db_->getHandle(), "main") == 1) {
    db_.reset();
    refuse_open(path, SQLITE_READONLY, "attempt to write a readonly database", false);
  }
  int target = opts.migrate_to < 0 ? current_schema_version() : opts.migrate_to;
  // Switching to WAL and migrating can meet "database is locked" without the busy handler being
  // called (SQLite does not wait where waiting could deadlock, e.g. two processes creating one
  // file at once), so those steps are retried here until the busy timeout is spent.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(opts.busy_timeout_ms);
  for (int attempt = 0;; ++attempt) {
    try {
      setup_and_migrate(target);
      break;
    } catch (const std::exception& e) {
      int code = sqlite3_errcode(db_->getHandle()) & 0xff;
      if (in_transaction()) db_->tryExec("ROLLBACK");
      if ((code == SQLITE_BUSY || code == SQLITE_LOCKED) && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5 + 5 * std::min(attempt, 20)));
        continue;
      }
      if (dynamic_cast<const Error*>(&e)) throw;
      fail("cannot migrate the schema of", e);
    }
  }
}

void Store::setup_and_migrate(int target) {
  // WAL lets readers (rlx runs, a plotting script) work while a sweep writes.
  db_->execAndGet("PRAGMA journal_mode = WAL");
  db_->exec("PRAGMA synchronous = NORMAL");
  // Version 3 rebuilds runs; with foreign keys on, dropping the old table would delete every
  // child row (the pragma is a no-op inside a transaction, hence here).
  db_->exec("PRAGMA foreign_keys = OFF");
  for (int v = db_->execAndGet("PRAGMA user_version").getInt(); v < target; ++v) {
    begin();
    // Another process may have migrated between our read and our lock: re-read under the lock.
    int now = db_->execAndGet("PRAGMA user_version").getInt();
    if (now > v) {
      commit();
      v = now - 1;
      continue;
    }
    exec_script(migrations()[v]);
    db_->exec(fmt::format("PRAGMA user_version = {}", v + 1));
    commit();
  }
  db_->exec("PRAGMA foreign_keys = ON");
}

void Store::open_snapshot(const OpenOptions& opts) {
  std::error_code ec;
  const bool exists = fs::exists(path_, ec);
  if (exists) {
    OpenOptions read;
    read.readonly = true;
    read.busy_timeout_ms = opts.busy_timeout_ms;
    Store check(path_, read);  // throws what any read of this file would
  }
  db_ = std::make_unique<SQLite::Database>(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE,
                                           opts.busy_timeout_ms);
  if (exists) {
    int code = SQLITE_OK;
    const std::string error = detail::backup_into(path_, db_->getHandle(), &code);
    if (!error.empty())
      throw Error(fmt::format("cannot read '{}' into memory: {}", path_, error), sqlite_code_name(code));
  }
  try {
    setup_and_migrate(opts.migrate_to < 0 ? current_schema_version() : opts.migrate_to);
  } catch (const std::exception& e) {
    fail("cannot migrate the in-memory copy of", e);
  }
}

Store::~Store() = default;

void Store::fail(const std::string& what, const std::exception& e) const {
  std::string code;
  if (const auto* s = dynamic_cast<const SQLite::Exception*>(&e)) code = sqlite_code_name(s->getErrorCode());
  if (const auto* c = dynamic_cast<const util::CodedError*>(&e)) code = c->code;
  throw Error(fmt::format("{} database '{}': {}", what, path_, e.what()), code);
}

SQLite::Database& Store::db() {
  if (!db_) throw Error(fmt::format("database '{}' is closed", path_));
  return *db_;
}

int Store::schema_version() { return db().execAndGet("PRAGMA user_version").getInt(); }

namespace {

void bind_all(sqlite3_stmt* s, const Json& params, const std::string& path) {
  int expected = sqlite3_bind_parameter_count(s);
  int got = params.is_array() ? static_cast<int>(params.size()) : 0;
  if (expected != got)
    throw Error(fmt::format("the statement has {} parameter(s) ('?'), {} value(s) given (database '{}')",
                            expected, got, path));
  for (int i = 0; i < got; ++i) {
    const Json& v = params[static_cast<size_t>(i)];
    int rc = SQLITE_OK;
    int idx = i + 1;
    switch (v.type()) {
      case Json::value_t::null: rc = sqlite3_bind_null(s, idx); break;
      case Json::value_t::boolean: rc = sqlite3_bind_int(s, idx, v.get<bool>() ? 1 : 0); break;
      case Json::value_t::number_integer: rc = sqlite3_bind_int64(s, idx, v.get<long long>()); break;
      case Json::value_t::number_unsigned: rc = sqlite3_bind_int64(s, idx, static_cast<long long>(v.get<unsigned long long>())); break;
      case Json::value_t::number_float: rc = sqlite3_bind_double(s, idx, v.get<double>()); break;
      case Json::value_t::string: {
        const auto& str = v.get_ref<const std::string&>();
        rc = sqlite3_bind_text(s, idx, str.data(), static_cast<int>(str.size()), SQLITE_TRANSIENT);
        break;
      }
      default: {
        std::string text = v.dump();
        rc = sqlite3_bind_text(s, idx, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
      }
    }
    if (rc != SQLITE_OK)
      throw Error(fmt::format("cannot bind parameter {} (database '{}'): {}", idx, path, sqlite3_errstr(rc)),
                  sqlite_code_name(rc));
  }
}

Json column_value(sqlite3_stmt* s, int c) {
  switch (sqlite3_column_type(s, c)) {
    case SQLITE_INTEGER: return static_cast<long long>(sqlite3_column_int64(s, c));
    case SQLITE_FLOAT: return sqlite3_column_double(s, c);
    case SQLITE_NULL: return nullptr;
    default: {
      const char* p = reinterpret_cast<const char*>(sqlite3_column_text(s, c));
      int n = sqlite3_column_bytes(s, c);
      return std::string(p ? p : "", static_cast<size_t>(n));
    }
  }
}

}  // namespace

Json Store::query(const std::string& sql, const Json& params, std::vector<std::string>* columns) {
  sqlite3* h = db().getHandle();
  Stmt st;
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(h, sql.c_str(), static_cast<int>(sql.size()), &st.s, &tail) != SQLITE_OK)
    throw Error(fmt::format("bad SQL for database '{}': {}", path_, sqlite3_errmsg(h)),
                sqlite_code_name(sqlite3_errcode(h)));
  if (!st.s) throw Error(fmt::format("empty SQL statement (database '{}')", path_));
  for (const char* t = tail; t && *t; ++t) {
    if (!std::isspace(static_cast<unsigned char>(*t)) && *t != ';')
      throw Error(
          fmt::format("one statement per call (database '{}'): text after the first ';' would be "
                      "ignored; split it into several calls",
                      path_));
  }
  bind_all(st.s, params, path_);
  Json rows = Json::array();
  int ncol = sqlite3_column_count(st.s);
  if (columns) {
    columns->clear();
    for (int c = 0; c < ncol; ++c) columns->emplace_back(sqlite3_column_name(st.s, c));
  }
  for (;;) {
    int rc = sqlite3_step(st.s);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW)
      throw Error(fmt::format("database '{}': {}", path_, sqlite3_errmsg(h)),
                  sqlite_code_name(sqlite3_errcode(h)));
    Json row = Json::object();
    for (int c = 0; c < ncol; ++c) row[sqlite3_column_name(st.s, c)] = column_value(st.s, c);
    rows.push_back(std::move(row));
  }
  return rows;
}

long long Store::exec(const std::string& sql, const Json& params) {
  query(sql, params);
  return sqlite3_changes(db().getHandle());
}

void Store::exec_script(const std::string& sql) {
  char* err = nullptr;
  if (const int rc = sqlite3_exec(db().getHandle(), sql.c_str(), nullptr, nullptr, &err); rc != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw Error(fmt::format("database '{}': {}", path_, msg), sqlite_code_name(rc));
  }
}

void Store::begin() { exec_script("BEGIN IMMEDIATE"); }
void Store::commit() { exec_script("COMMIT"); }
void Store::rollback() {
  if (in_transaction()) exec_script("ROLLBACK");
}
bool Store::in_transaction() { return sqlite3_get_autocommit(db().getHandle()) == 0; }

std::string Store::integrity_check() {
  Json rows = query("PRAGMA integrity_check");
  std::string out;
  for (const auto& r : rows) {
    if (!out.empty()) out += "; ";
    out += r.begin()->get<std::string>();
  }
  return out;
}

void Store::close() { db_.reset(); }

MergeStats Store::merge_from(const std::string& other_path, const MergeOptions& options) {
  std::error_code ec;
  if (fs::exists(other_path, ec) && fs::exists(path_, ec) && fs::equivalent(other_path, path_, ec))
    throw Error(fmt::format("cannot merge '{}' into itself; name other databases to merge in", other_path));
  // The input is only ever read: validated read-only, and an older schema is upgraded in a
  // temporary copy (removed on return) so its columns line up with this database's.
  int other_version = 0;
  {
    OpenOptions ro;
    ro.readonly = true;
    other_version = Store(other_path, ro).schema_version();
  }
  std::optional<detail::TempCopy> upgraded;
  if (other_version < current_schema_version()) {
    upgraded.emplace(other_path, path_);
    OpenOptions o;
    o.create = false;
    Store(upgraded->path(), o).close();
  }
  if (in_transaction()) throw Error(fmt::format("cannot merge into '{}' inside an open transaction", path_));
  exec("ATTACH DATABASE ? AS src", Json::array({read_only_uri(upgraded ? upgraded->path() : other_path)}));
  MergeStats stats;
  long long* counts[] = {&stats.environments,    &stats.studies,      &stats.runs,  &stats.samples,
                         &stats.counters,        &stats.complexity,   &stats.peaks, &stats.roofline_points,
                         &stats.calibrations,    &stats.plans,        &stats.run_attempts};
  try {
    begin();
    for (size_t t = 0; t < std::size(kMergeTables); ++t) {
      std::string table = kMergeTables[t];
      std::string cols;
      for (const auto& c : query("SELECT name FROM pragma_table_info(?)", Json::array({table}))) {
        if (!cols.empty()) cols += ", ";
        cols += fmt::format("\"{}\"", c["name"].get<std::string>());
      }
      // A run skipped because its slot is taken must not bring its children along (they would
      // reference a run that is not there).
      std::string where;
      if (table == "runs") {
        resolve_slot_conflicts(options, stats);
        for (const auto& r : query("SELECT label FROM src.runs WHERE status = 'running' ORDER BY label"))
          stats.running_skipped.push_back(r["label"].is_string() ? r["label"].get<std::string>() : "?");
        // A run the output keeps as a superseded attempt (an older copy of this database) is that
        // attempt: it does not come back as a run.
        where = " WHERE status <> 'running' AND id NOT IN (SELECT id FROM main.run_attempts)";
      }
      // An attempt is kept once, and never beside the same run kept as a run.
      if (table == "run_attempts") where = " WHERE id NOT IN (SELECT id FROM main.runs)";
      if (table == "samples" || table == "counters" || table == "complexity" || table == "roofline_points")
        where = " WHERE run_id IN (SELECT id FROM main.runs)";
      *counts[t] += exec(fmt::format("INSERT OR IGNORE INTO main.{0} ({1}) SELECT {1} FROM src.{0}{2}", table, cols, where));
    }
    commit();
  } catch (...) {
    rollback();
    exec_script("DETACH DATABASE src");
    throw;
  }
  exec_script("DETACH DATABASE src");
  return stats;
}

std::string new_run_id() {
  static thread_local std::mt19937_64 gen = [] {
    std::random_device rd;
    std::seed_seq seq{rd(), rd(), rd(), rd(),
                      static_cast<unsigned>(std::chrono::high_resolution_clock::now().time_since_epoch().count())};
    return std::mt19937_64(seq);
  }();
  return fmt::format("{:016x}{:016x}", gen(), gen());
}

std::string content_hash(const Json& value) {
  std::string text = value.dump();
  unsigned long long h = 14695981039346656037ULL;  // FNV-1a 64-bit offset basis
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;  // FNV prime
  }
  return fmt::format("{:016x}", h);
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace rlx::store
