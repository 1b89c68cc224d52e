// store.h: rlx's SQLite database of studies (engine layer, no Lua).
//
// One file holds every run of a study: its environment, configuration, timing summary,
// per-iteration samples, counters, complexity, roofline points, and the machine's peaks. This
// header is the connection: opening applies the pragmas a multi-process study needs (WAL, busy
// timeout, foreign keys) and migrates the schema (schema.cpp) to the current version; query/exec
// always bind parameters (never interpolate); merge_from copies another study file in without
// duplicating anything. The study API (runs.cpp) writes a whole run with its children in one
// transaction (put_run) and reads runs, roofline points and peaks back; scripts/rlx/study/init.lua
// only orchestrates on top of it.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "store/records.h"
#include "util/coded_error.h"

namespace SQLite {
class Database;
}

namespace rlx::store {

using Json = nlohmann::json;

// A store error whose message names the database file and what to do about it. Where SQLite's
// refusal is the cause, `code` is its result code's name (sqlite_code_name: "SQLITE_FULL",
// "SQLITE_IOERR", "SQLITE_READONLY"), so a caller tells a full disk from a bad file without reading
// the text; `cause` is the message without its advice where a caller may give its own.
struct Error : util::CodedError {
  using util::CodedError::CodedError;
};

// SQLite's name of a result code, extended codes by their primary one ("SQLITE_IOERR" for
// SQLITE_IOERR_WRITE); "SQLITE_<n>" for a code this list does not name, "" for SQLITE_OK.
std::string sqlite_code_name(int code);

// The schema version this build writes (PRAGMA user_version).
int current_schema_version();
// SQL that takes a database from version i to i + 1 (index i; migrations()[0] creates version 1).
const std::vector<std::string>& migrations();

struct OpenOptions {
  bool readonly = false;       // open for reading only; no migration, no file created. Works on
                               // read-only media: a clean WAL database in a directory this process
                               // cannot write is opened immutable (nothing to recover, no -shm)
  bool create = true;          // create the file when missing (its directory must exist)
  bool create_directories = false;  // also create missing parent directories (rlx run's results/)
  int busy_timeout_ms = 30000; // how long a writer waits for another process's lock
  // Migrate only up to this version (tests build "older" databases with it); -1 = current.
  int migrate_to = -1;
  // Work on an in-memory copy of the file (a new empty database when there is none), migrated in
  // memory: the file is only read and nothing is created, so a dry run writes nothing (issue 35
  // item 3). The file gets the refusals of a read-only open (not rlx, a newer schema).
  bool snapshot = false;
};

// How Store::claim treats a slot that already holds a row.
struct ClaimOptions {
  bool force = false;          // redo an ok slot (trained without a claim row; replaced at the end)
  // Claim a crashed slot again whatever its deaths: past max_attempts, and after the OOM killer.
  bool retry_crashed = false;
  // How many times a slot is tried when its process dies (kill -9, the OOM killer, a crash):
  // 2 = the first try and one retry. A death by the OOM killer is never retried with the same
  // configuration (unless retry_crashed): it would be killed again.
  int max_attempts = 2;
  // A running claim of another host cannot be checked: it is taken over once older than this
  // many seconds (0 = never). Claims of this host are checked by process id and start time.
  long long stale_after_s = 0;
  // What is known of a dead claimer's end when no supervising parent recorded it (the kernel log,
  // when readable): fields merged into its death entry, e.g. {"oom": true, "evidence": "..."}.
  // Empty: nothing more is known.
  std::function<Json(long long pid)> death_evidence;
};

// What Store::claim found: "claimed" (this process trains the slot; id is the claim row's, empty
// when force redoes an ok slot), "done" (ok already), "busy" (a live process has claimed it),
// or "crashed" (processes died training it and it is not retried; holder says which, stop why).
// crashed_now: this call found the dead claim and marked it crashed.
struct Claim {
  std::string state;
  std::string id;
  int attempt = 1;
  Json holder;  // the slot's row when not claimed (status, pid, host, claimed_at, ...)
  bool crashed_now = false;
  // state "crashed": "oom" (the last death was the OOM killer's) or "limit" (max_attempts deaths).
  std::string stop;
  Json deaths = Json::array();  // every death of the slot so far ({attempt, cause, signal, ...})
  bool retry = false;           // state "claimed" after a death: this is a retry
};

// One death of a claimed slot's process, as the runs column `deaths` stores it (a JSON array of
// these): {attempt, cause, signal, signal_name, exit_code, oom, evidence, pid, host, at}. cause is
// "oom" (the OOM killer), "signal" (another signal), "exit" (exited while training) or "unknown"
// (the process was gone and nothing recorded why).
Json death_entry(int attempt, const std::string& cause, long long pid, const std::string& host);
// "was killed by the OOM killer (SIGKILL; cgroup memory.oom_control oom_kill 0 -> 1)", "exited
// with status 3", ...: the death in words, without the process and time.
std::string death_text(const Json& death);

// Is process pid, claimed at claimed_at (UTC ISO 8601), still running on this host? False when
// no such process exists, it has exited and waits to be reaped (a zombie), or it started after
// the claim (the pid was reused).
bool claim_process_alive(long long pid, const std::string& claimed_at);

// Filters of Store::runs; unset fields match everything.
struct RunFilter {
  std::optional<std::string> study, model, precision, device, status, env, label;
  std::optional<long long> batch, repeat;
  bool samples = false;  // add each run's per-iteration seconds
};

// Filters of Store::points; unset fields match everything.
struct PointFilter {
  std::optional<std::string> study, level, env, model, source;
};

// A run of a merged input whose slot (study, environment, configuration, repeat) the output
// already held with a different run, and what merge_from did with it.
struct MergeConflict {
  std::string id, label, study, status;              // the input's run
  std::string held_id, held_label, held_status;      // the output's run in that slot
  // "skipped" (the output's run stays), "replaced" (the input's ok run replaced a failed,
  // running or crashed attempt, as a rerun would) or "kept" (as_repeats: stored as a further
  // repeat, new_repeat / new_label).
  std::string action;
  int new_repeat = 0;
  std::string new_label;
};

struct MergeOptions {
  // Keep an input's ok run whose slot is held by another ok run as a further repeat of its
  // configuration (the next free repeat number; the label's _runN follows), instead of skipping it.
  bool as_repeats = false;
};

struct MergeStats {
  long long environments = 0;  // rows added, per table
  long long studies = 0;
  long long runs = 0;
  long long samples = 0;
  long long counters = 0;
  long long complexity = 0;
  long long peaks = 0;
  long long roofline_points = 0;
  long long calibrations = 0;
  long long plans = 0;
  long long run_attempts = 0;  // superseded attempts (schema 10), never counted as runs
  std::vector<MergeConflict> conflicts;  // one per input run whose slot was held
  // Labels of the input's `running` claims, not copied: a claim is a process's promise to store a
  // run in the input, not a result, and copied it would read as that process's death in the output
  // (issue 35 item 9).
  std::vector<std::string> running_skipped;
};

// Store::count_runs: all runs and the ok ones.
struct RunCounts {
  long long n = 0, ok = 0;
};

class Store {
 public:
  explicit Store(const std::string& path, OpenOptions opts = {});
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const { return path_; }
  bool readonly() const { return readonly_; }
  int schema_version();

  // Runs one statement with positional parameters (json null, bool, number, string; arrays and
  // objects are bound as their JSON text). query returns an array of row objects keyed by
  // column name (and, when `columns` is given, fills it with the column names in SELECT order,
  // which the objects do not keep); exec returns the number of rows changed.
  Json query(const std::string& sql, const Json& params = Json::array(), std::vector<std::string>* columns = nullptr);
  long long exec(const std::string& sql, const Json& params = Json::array());
  // Runs several statements without parameters (schema scripts).
  void exec_script(const std::string& sql);

  // Transactions: begin() takes the write lock at once (BEGIN IMMEDIATE), so two writers queue
  // on the busy timeout instead of failing at commit.
  void begin();
  // begin(), but when another process holds the write lock past the busy timeout, keeps waiting
  // (a note on stderr each time the timeout passes) instead of failing.
  void begin_waiting();
  void commit();
  void rollback();
  bool in_transaction();

  // Copies every row of another rlx database into this one: environments by content hash, studies
  // by name, runs by their globally unique id; rows already present are left alone, so merging
  // the same file twice adds nothing. An input run whose slot holds another run is reported in
  // stats.conflicts (skipped, replaced, or kept as a further repeat; see MergeOptions). The
  // whole merge is one transaction. The input is only read: an older schema is upgraded in a
  // temporary copy next to this database, never in place.
  MergeStats merge_from(const std::string& other_path, const MergeOptions& options = {});

  // ---- The study API (runs.cpp). Writes are one transaction each (refused inside another).
  // Records an environment (rlx.env.capture's table, keyed by its "id") and a study, once.
  void put_environment(const Json& env);
  void put_study(const std::string& name);
  // Stores a run with its children, by its if_stored rule (by default replacing whatever the slot
  // (study, environment, config hash, repeat) held); fills finished_at and this process's columns
  // (process_columns()) when absent. Returns the run's id. In its own write transaction, refused
  // inside an open one, unless join: then it joins the caller's (rlx import-kit stages all its
  // runs in one).
  std::string put_run(RunRecord run, bool join = false);
  // Stores roofline points of a stored run, replacing its points at the same levels (one point per
  // run and level), e.g. the measured point of counters imported later (rlx import-ncu) replaces
  // the sweep's estimate; returns the rows written.
  long long put_points(const std::string& run_id, const Json& points);
  // Adds (or replaces, by name and source) counters of a stored run; returns the rows written.
  long long put_counters(const std::string& run_id, const std::vector<Counter>& counters);
  // Stores every numeric field of a peaks table (spread: a number or name -> fraction; units:
  // name -> unit, else from the name's suffix) for an environment and device; returns the rows.
  long long put_peaks(const std::string& environment_id, const std::string& device, const std::string& source,
                      const Json& peaks);
  // The latest stored peak per name: {name: value, spread: {}, units: {}, device, source,
  // measured_at}, or null when none were stored.
  Json peaks(const std::string& environment_id, const std::string& device);
  // ---- Calibrations and plans (plans.cpp, schema versions 6 and 7).
  // Stores (or replaces) one model's probe on a device: {device, model, precision, input,
  // memory_format, per_image_s, margin, probe (any JSON), threads (CPU: default probe.threads)}.
  void put_calibration(const std::string& environment_id, const Json& calibration);
  // The environment's calibrations on a device, one object per (model, precision, input, threads:
  // the probe's intra-op threads on a CPU, 0 on a GPU or where not recorded), the probe decoded;
  // an empty array when none. Each row is checked as put_calibration checks one: a row that could
  // not have been stored so (a memory_format that is no layout, a per_image_s that is no positive
  // number, a model name with control characters, ...) is left out, and when `problems` is given a
  // line saying which row and what was wrong is added to it (values escaped).
  Json calibrations(const std::string& environment_id, const std::string& device, Json* problems = nullptr);
  // Records a plan: {study, environment_id, budget_s (or null), estimate_s, planned, left_out,
  // detail}; returns its id.
  std::string put_plan(const Json& plan);
  // Fills a plan's wall time and replaces its detail once the study finished.
  void finish_plan(const std::string& id, double wall_s, const Json& detail);
  // A study's plans, oldest first, detail decoded.
  Json plans(const std::string& study);
  // Runs joined with their environment and complexity, one object per run (columns by name plus
  // env, run = repeat, iter_s = {mean, sd, ...}, config and result decoded, samples on request).
  Json runs(const RunFilter& filter);
  // Roofline points joined with their runs (label, model, batch, device, run, env, study).
  Json points(const PointFilter& filter);
  // ---- Reads for reports (report_reads.cpp); an empty study means every study.
  // The environments that ran the study's runs, every column, info decoded, ordered by label.
  Json study_environments(const std::string& study);
  // Every counter row ({run_id, name, value, unit, source}) of the study's runs.
  Json study_counters(const std::string& study);
  // Every complexity row of the study's runs: the columns plus info decoded.
  Json study_complexity(const std::string& study);
  // ---- Small reads of the Lua modules (study_reads.cpp).
  // Every run's slot and status: {id, study, env (the environment's label), config_key, run
  // (the repeat), status}; only the runs that are not ok with only_not_ok (Slurm shards).
  Json slot_statuses(bool only_not_ok = false);
  // Deletes these runs with their children, in one transaction; returns the runs deleted.
  long long delete_runs(const std::vector<std::string>& ids);
  // Runs of a study (every study when empty), and how many of them are ok.
  RunCounts count_runs(const std::string& study = "");
  // {id, label} of each environment whose label differs from this one.
  Json environments_except(const std::string& label);
  // A run's {counters (ordered by source, name), roofline_points (by level), complexity (its
  // decoded info, or null)}, as rlx export writes them.
  Json run_details(const std::string& run_id);
  // Every study's name, sorted.
  std::vector<std::string> study_names();
  // Claims a slot before training, in its own transaction (claims.cpp; see ClaimOptions).
  Claim claim(RunRecord slot, const ClaimOptions& options = {});
  // The decision claim() would make now, without writing anything (a dry run's plan): state
  // "claimed" means the slot would be trained (retry set when after a death).
  Claim peek_claim(const RunRecord& slot, const ClaimOptions& options = {});
  // Records how process pid of host ended over every claim it still holds (`running` rows):
  // status crashed, error "crashed: process ... <death_text>", the death appended to deaths with
  // the row's attempt. Returns the labels of the rows it marked.
  std::vector<std::string> record_death(long long pid, const std::string& host, const Json& death);
  // Withdraws every claim process pid of host still holds (it was interrupted: Ctrl-C, SIGTERM,
  // SIGHUP, so nothing of those runs exists and a rerun trains them). Returns their labels.
  // Withdrawing a claim undoes it: a first attempt's row is deleted, a retry's row goes back to
  // the crashed row it was claimed from (its deaths and attempt count kept: an interrupt is no
  // death, and max_attempts must still trip; issue 35 item 6).
  std::vector<std::string> release_claims_of(long long pid, const std::string& host);
  // Withdraws a running claim of this process (its run was interrupted), as release_claims_of
  // does; a no-op when the row is no longer a running claim with this id. Returns whether a
  // claim was withdrawn.
  bool release_claim(const std::string& id);
  // The row holding a slot ({id, status, label, pid, host, claimed_at, attempt, deaths (JSON
  // text), error}) or null.
  Json slot(const std::string& study, const std::string& environment_id, const std::string& config_key, int repeat);
  // The seed of the latest random-order sweep of a study in an environment.
  std::optional<long long> last_sweep_seed(const std::string& study, const std::string& environment_id);
  // The id of the latest run of a study with this label.
  std::optional<std::string> run_id_by_label(const std::string& study, const std::string& label);

  // "PRAGMA integrity_check" result ("ok" when healthy).
  std::string integrity_check();
  void close();

 private:
  [[noreturn]] void fail(const std::string& what, const std::exception& e) const;
  void setup_and_migrate(int target);
  void open_snapshot(const OpenOptions& opts);  // OpenOptions::snapshot
  void prepare_run(RunRecord& run);       // checks and fills a record (id, finished_at, process)
  void insert_run(const RunRecord& run);  // writes it, replacing its slot; inside a transaction
  // The run's place by its if_stored rule (its repeat and label for next_repeat; Error for
  // refuse; the same label's rows deleted for replace_label); inside the write transaction.
  void place_run(RunRecord& run, const std::string& config_key);
  // Keeps every finished row (ok or failed) of `runs` that `where` selects (bound to params) in
  // run_attempts before the caller deletes it (issue 55: a rerun adds an attempt, it does not
  // erase one): its columns and result as JSON, its samples, its attempt number (at least one
  // more than any attempt of its slot kept before), the run superseding it (by) and why (the
  // rerun's reason; "failed" for a failed row; "redone" when none is given). Inside the write
  // transaction. Returns the highest attempt number kept, 0 when none.
  int keep_attempts(const std::string& where, const Json& params, const std::string& by, const std::string& why);
  // merge_from's handling of input runs whose slot is held (merge_slots.cpp); inside its
  // transaction, before the runs are copied.
  void resolve_slot_conflicts(const MergeOptions& options, MergeStats& stats);
  SQLite::Database& db();
  // One roofline_points row (INSERT OR REPLACE), precision defaulting to the run's; rows written.
  long long insert_point(const std::string& run_id, const Json& point, const Json& default_precision);
  std::string path_;
  bool readonly_ = false;
  std::unique_ptr<SQLite::Database> db_;
};

// A random 128-bit id as 32 lowercase hex digits (runs are identified by it across machines).
std::string new_run_id();
// A stable content hash (64-bit FNV-1a, 16 hex digits) of a json value's canonical text (object
// keys sorted), used to deduplicate environments and to recognise the same run configuration.
std::string content_hash(const Json& value);
// Current UTC time as ISO 8601 "YYYY-MM-DDTHH:MM:SSZ".
std::string utc_now();

}  // namespace rlx::store
