// bind_db.cpp: rlx._core.db, the SQLite study database for Lua (engine/store/store.h).
//
// open() returns a connection userdata whose methods map one to one onto store::Store: the raw
// query/exec/transaction calls and the study API (put_run, runs, points, peaks, ...) that
// rlx.study composes. Values cross as json (parameters are always bound, never spliced into the
// SQL). Also the small pure helpers: random run ids, content hashes, UTC time, JSON text.
#include <SQLiteCpp/Exception.h>
#include <fmt/format.h>

#include "env/memory.h"
#include "lua_bind.h"
#include "registry.h"
#include "store/store.h"
#include "supervise.h"

namespace rlx::bindings {
namespace {

const char* kConnMeta = "rlx.db.connection";

struct Conn {
  store::Store* store;
};

// The connection a method was called on. conn.query(sql) (a '.' for a ':') passes the SQL where
// the connection belongs: say so, with the call as it should be written (`usage`: its arguments).
Conn* conn_of(lua_State* L, const char* usage) {
  auto* c = static_cast<Conn*>(luaL_testudata(L, 1, kConnMeta));
  if (!c)
    throw lua::Error(fmt::format("called with '.' instead of ':' (use {}({}))", lua::fn_name(L), usage));
  return c;
}

store::Store& conn(lua_State* L, const char* usage = "") {
  Conn* c = conn_of(L, usage);
  if (!c->store) throw lua::Error("the connection is closed; open the database again with rlx.db.open");
  return *c->store;
}

// The method's first argument (Lua argument 2, after the connection), which must be a string.
std::string text_arg(lua_State* L, const char* what) {
  if (lua_type(L, 2) != LUA_TSTRING)
    throw lua::Error(fmt::format("the {} (argument 1) must be a string, got {}", what,
                                 lua_isnoneornil(L, 2) ? "nil" : lua::type_name(L, 2)));
  size_t n = 0;
  const char* s = lua_tolstring(L, 2, &n);
  return std::string(s, n);
}

nlohmann::json params_from(lua_State* L, int first) {
  nlohmann::json p = nlohmann::json::array();
  for (int i = first; i <= lua_gettop(L); ++i)
    p.push_back(lua::to_json(L, i, fmt::format("parameter {}", i - first + 1)));
  return p;
}

int open(lua_State* L) {
  std::string path = lua::check_string(L, 1);
  auto o = lua::Options::optional(
      L, 2, {"readonly", "create", "create_directories", "busy_timeout_ms", "migrate_to", "snapshot"});
  store::OpenOptions opts;
  opts.readonly = o.boolean("readonly", false);
  opts.snapshot = o.boolean("snapshot", false);
  if (opts.snapshot && opts.readonly)
    o.fail("snapshot", "and readonly exclude each other (a snapshot is a writable copy)");
  opts.create = o.boolean("create", true);
  opts.create_directories = o.boolean("create_directories", false);
  opts.busy_timeout_ms = static_cast<int>(o.integer("busy_timeout_ms", opts.busy_timeout_ms, 0));
  opts.migrate_to = static_cast<int>(o.integer("migrate_to", -1, -1));
  if (opts.migrate_to > store::current_schema_version())
    o.fail("migrate_to", fmt::format("must be at most {} (this rlx's schema version)", store::current_schema_version()));
  auto s = std::make_unique<store::Store>(path, opts);
  auto* c = static_cast<Conn*>(lua_newuserdata(L, sizeof(Conn)));
  c->store = s.release();
  luaL_getmetatable(L, kConnMeta);
  lua_setmetatable(L, -2);
  return 1;
}

int query(lua_State* L) {
  auto& s = conn(L, "sql, ...");
  std::string sql = text_arg(L, "SQL");
  lua::push_json(L, s.query(sql, params_from(L, 3)));
  return 1;
}

// _query(sql, ...) -> rows, column names in SELECT order (scripts/rlx/db.lua makes them a frame).
int query_columns(lua_State* L) {
  auto& s = conn(L, "sql, ...");
  std::string sql = text_arg(L, "SQL");
  std::vector<std::string> columns;
  lua::push_json(L, s.query(sql, params_from(L, 3), &columns));
  lua::push_json(L, columns);
  return 2;
}

// first(sql, ...) -> the first row of query, or nil.
int first(lua_State* L) {
  auto& s = conn(L, "sql, ...");
  std::string sql = text_arg(L, "SQL");
  const nlohmann::json rows = s.query(sql, params_from(L, 3));
  if (rows.is_array() && !rows.empty()) lua::push_json(L, rows[0]);
  else lua_pushnil(L);
  return 1;
}

int exec(lua_State* L) {
  auto& s = conn(L, "sql, ...");
  std::string sql = text_arg(L, "SQL");
  lua_pushnumber(L, static_cast<double>(s.exec(sql, params_from(L, 3))));
  return 1;
}

int begin(lua_State* L) {
  conn(L).begin();
  return 0;
}
int commit(lua_State* L) {
  conn(L).commit();
  return 0;
}
int rollback(lua_State* L) {
  conn(L).rollback();
  return 0;
}
int in_transaction(lua_State* L) {
  lua_pushboolean(L, conn(L).in_transaction());
  return 1;
}
int path(lua_State* L) {
  lua_pushstring(L, conn(L).path().c_str());
  return 1;
}
int schema_version(lua_State* L) {
  lua_pushinteger(L, conn(L).schema_version());
  return 1;
}
int integrity_check(lua_State* L) {
  lua_pushstring(L, conn(L).integrity_check().c_str());
  return 1;
}
int readonly(lua_State* L) {
  lua_pushboolean(L, conn(L).readonly());
  return 1;
}

// merge_from(path [, {as_repeats = bool}]) -> {environments=, studies=, runs=, ..., conflicts = {
// {id, label, study, status, held_id, held_label, held_status, action, new_repeat, new_label}}}.
int merge_from(lua_State* L) {
  auto& s = conn(L, "path [, {as_repeats = true}]");
  std::string other = text_arg(L, "path of the database to merge");
  auto o = lua::Options::optional(L, 3, {"as_repeats"});
  store::MergeOptions mo;
  mo.as_repeats = o.boolean("as_repeats", false);
  auto st = s.merge_from(other, mo);
  nlohmann::json conflicts = nlohmann::json::array();
  for (const auto& c : st.conflicts) {
    nlohmann::json j = {{"id", c.id}, {"label", c.label}, {"study", c.study}, {"status", c.status},
                        {"held_id", c.held_id}, {"held_label", c.held_label}, {"held_status", c.held_status},
                        {"action", c.action}};
    if (c.action == "kept") {
      j["new_repeat"] = c.new_repeat;
      j["new_label"] = c.new_label;
    }
    conflicts.push_back(j);
  }
  lua::push_json(L, {{"environments", st.environments}, {"studies", st.studies}, {"runs", st.runs},
                     {"samples", st.samples}, {"counters", st.counters}, {"complexity", st.complexity},
                     {"peaks", st.peaks}, {"roofline_points", st.roofline_points},
                     {"calibrations", st.calibrations}, {"plans", st.plans}, {"conflicts", conflicts},
                     {"running_skipped", st.running_skipped}, {"run_attempts", st.run_attempts}});
  return 1;
}

// ---- The study API (store.h, runs.cpp): Lua tables in, json across, plain tables out.

std::string str_arg(lua_State* L, int idx, const char* what) {
  if (lua_type(L, idx) != LUA_TSTRING)
    throw lua::Error(
        fmt::format("the {} (argument {}) must be a string, got {}", what, idx - 1, lua::type_name(L, idx)));
  return lua_tostring(L, idx);
}

int put_environment(lua_State* L) {
  auto& s = conn(L, "env");
  s.put_environment(lua::to_json(L, 2, "env"));
  return 0;
}

int put_study(lua_State* L) {
  auto& s = conn(L, "name");
  s.put_study(str_arg(L, 2, "study name"));
  return 0;
}

// The slot fields put_run and claim share: the record built from config (and result), its study,
// environment, label and repeat, with `columns` (any runs column by name) set over it.
store::RunRecord slot_record(lua::Options& o, const nlohmann::json& result) {
  store::RunRecord r = store::run_record(o.json("config"), result);
  r.study = o.required_str("study");
  r.environment_id = o.required_str("environment_id");
  r.label = o.required_str("label");
  r.repeat = static_cast<int>(o.integer("run", 1, 1));
  return r;
}

void set_columns(lua::Options& o, store::RunRecord& r) {
  nlohmann::json cols = o.json("columns");
  if (!cols.is_null() && !cols.is_object()) o.fail("columns", "must be a table of runs columns");
  if (cols.is_object())
    for (const auto& [k, v] : cols.items()) r.columns[k] = v;
}

// put_run{study=, environment_id=, label=, run= (the repeat), config=, result=, columns=, complexity=,
// roofline=, id=, if_stored=, join=} -> id (join: inside the caller's open transaction). The record comes
// from store::run_record(config, result); columns (any runs column by name) are set over it. if_stored:
// "replace" (default), "next" (the next free repeat, label .. "_run<N>"), "refuse", "replace_label"
// (store::IfStored).
int put_run(lua_State* L) {
  auto& s = conn(L, "{...}");
  lua::Options o(L, 2,
                 {"study", "environment_id", "label", "run", "config", "result", "columns", "complexity",
                  "roofline", "id", "status", "if_stored", "join"});
  store::RunRecord r = slot_record(o, o.json("result"));
  const std::string if_stored =
      o.choice("if_stored", "replace", {"next", "refuse", "replace", "replace_label"});
  r.if_stored = if_stored == "next"            ? store::IfStored::next_repeat
                : if_stored == "refuse"        ? store::IfStored::refuse
                : if_stored == "replace_label" ? store::IfStored::replace_label
                                               : store::IfStored::replace;
  r.id = o.str("id", "");
  r.status = o.str("status", r.status);
  set_columns(o, r);
  r.complexity = o.json("complexity");
  nlohmann::json roof = o.json("roofline");
  if (roof.is_array()) r.roofline = roof;
  std::string id = s.put_run(std::move(r), o.boolean("join", false));
  lua_pushlstring(L, id.data(), id.size());
  return 1;
}

// put_points(run_id, points) -> rows written (roofline point rows as rlx.roofline.for_run makes).
int put_points(lua_State* L) {
  auto& s = conn(L, "run_id, points");
  std::string id = str_arg(L, 2, "run id");
  lua_pushnumber(L, static_cast<double>(s.put_points(id, lua::to_json(L, 3, "points"))));
  return 1;
}

// The options claim and peek_claim share: force, retry_crashed, max_attempts, stale_after_s; a
// dead claimer's death is looked up in the kernel log when it can be read.
store::ClaimOptions claim_options(lua::Options& o) {
  store::ClaimOptions co;
  co.force = o.boolean("force", false);
  co.retry_crashed = o.boolean("retry_crashed", false);
  co.max_attempts = static_cast<int>(o.integer("max_attempts", 2, 1));
  co.stale_after_s = o.integer("stale_after_s", 0, 0);
  co.death_evidence = [](long long pid) -> nlohmann::json {
    if (!env::kernel_log_oom_killed(pid).value_or(false)) return nlohmann::json::object();
    return {
        {"cause", "oom"}, {"oom", true}, {"evidence", fmt::format("the kernel log: Killed process {}", pid)}};
  };
  return co;
}

nlohmann::json claim_json(const store::Claim& c) {
  nlohmann::json out = {{"state", c.state},   {"attempt", c.attempt},
                        {"holder", c.holder}, {"crashed_now", c.crashed_now},
                        {"deaths", c.deaths}, {"retry", c.retry}};
  if (!c.id.empty()) out["id"] = c.id;
  if (!c.stop.empty()) out["stop"] = c.stop;
  if (!c.deaths.empty()) out["last_death"] = store::death_text(c.deaths.back());
  return out;
}

const std::vector<std::string> kClaimKeys = {"study",        "environment_id", "label", "run",
                                             "config",       "columns",        "force", "retry_crashed",
                                             "max_attempts", "stale_after_s"};

// claim{study=, environment_id=, label=, run=, config=, columns=, force=, retry_crashed=,
// max_attempts=, stale_after_s=} -> {state = "claimed"|"done"|"busy"|"crashed", id=, attempt=,
// holder=, crashed_now=, deaths=, retry=, stop=}. A claim is announced to the supervising parent
// (host/supervise.h), which records the death if this process dies holding it.
int claim(lua_State* L) {
  auto& s = conn(L, "{...}");
  lua::Options o(L, 2, kClaimKeys);
  store::RunRecord r = slot_record(o, nlohmann::json::object());
  r.columns.erase("error");
  set_columns(o, r);
  store::Claim c = s.claim(std::move(r), claim_options(o));
  if (!c.id.empty()) host::tell_claim(s.path());
  lua::push_json(L, claim_json(c));
  return 1;
}

// peek_claim{...}: what claim{...} would find now, without writing (a dry run's plan).
int peek_claim(lua_State* L) {
  auto& s = conn(L, "{...}");
  lua::Options o(L, 2, kClaimKeys);
  store::RunRecord r = slot_record(o, nlohmann::json::object());
  lua::push_json(L, claim_json(s.peek_claim(r, claim_options(o))));
  return 1;
}

int release_claim(lua_State* L) {
  auto& s = conn(L, "id");
  lua_pushboolean(L, s.release_claim(str_arg(L, 2, "claim id")));
  return 1;
}

// put_counters(run_id, counters [, default_source]) -> rows written.
int put_counters(lua_State* L) {
  auto& s = conn(L, "run_id, counters [, source]");
  std::string id = str_arg(L, 2, "run id");
  std::string source = lua_isnoneornil(L, 4) ? "" : str_arg(L, 4, "source");
  auto counters = store::counters_from(lua::to_json(L, 3, "counters"), source);
  lua_pushnumber(L, static_cast<double>(s.put_counters(id, counters)));
  return 1;
}

int put_peaks(lua_State* L) {
  auto& s = conn(L, "environment_id, device, source, peaks");
  std::string env = str_arg(L, 2, "environment id");
  std::string device = str_arg(L, 3, "device");
  std::string source = str_arg(L, 4, "source");
  lua_pushnumber(L, static_cast<double>(s.put_peaks(env, device, source, lua::to_json(L, 5, "peaks"))));
  return 1;
}

int peaks(lua_State* L) {
  auto& s = conn(L, "environment_id, device");
  lua::push_json(L, s.peaks(str_arg(L, 2, "environment id"), str_arg(L, 3, "device")));
  return 1;
}

// put_calibration(environment_id, {device, model, precision, input, memory_format, per_image_s,
// margin, probe}) and calibrations(environment_id, device): schema version 6 (plans.cpp).
int put_calibration(lua_State* L) {
  auto& s = conn(L, "environment_id, calibration");
  std::string env = str_arg(L, 2, "environment id");
  s.put_calibration(env, lua::to_json(L, 3, "calibration"));
  return 0;
}

// calibrations(environment_id, device) -> rows, problems: the usable rows, and a line for each row
// left out as unusable (store.h).
int calibrations(lua_State* L) {
  auto& s = conn(L, "environment_id, device");
  nlohmann::json problems = nlohmann::json::array();
  lua::push_json(L, s.calibrations(str_arg(L, 2, "environment id"), str_arg(L, 3, "device"), &problems));
  lua::push_json(L, problems);
  return 2;
}

// put_plan{study, environment_id, budget_s, estimate_s, planned, left_out, detail} -> id;
// finish_plan(id, wall_s, detail); plans(study).
int put_plan(lua_State* L) {
  auto& s = conn(L, "{study, environment_id, ...}");
  lua_pushstring(L, s.put_plan(lua::to_json(L, 2, "plan")).c_str());
  return 1;
}

int finish_plan(lua_State* L) {
  auto& s = conn(L, "id, wall_s, detail");
  std::string id = str_arg(L, 2, "plan id");
  double wall = luaL_checknumber(L, 3);
  s.finish_plan(id, wall, lua_isnoneornil(L, 4) ? nlohmann::json() : lua::to_json(L, 4, "detail"));
  return 0;
}

int plans(lua_State* L) {
  auto& s = conn(L, "study");
  lua::push_json(L, s.plans(str_arg(L, 2, "study")));
  return 1;
}

// runs{study=, model=, precision=, batch=, device=, status=, env=, label=, run=, samples=}.
int runs(lua_State* L) {
  auto& s = conn(L, "{...}");
  auto o = lua::Options::optional(
      L, 2, {"study", "model", "precision", "batch", "device", "status", "env", "label", "run", "samples"});
  store::RunFilter f;
  f.study = o.opt_str("study");
  f.model = o.opt_str("model");
  f.precision = o.opt_str("precision");
  f.device = o.opt_str("device");
  f.status = o.opt_str("status");
  f.env = o.opt_str("env");
  f.label = o.opt_str("label");
  f.batch = o.opt_integer("batch");
  f.repeat = o.opt_integer("run");
  f.samples = o.boolean("samples", false);
  lua::push_json(L, s.runs(f));
  return 1;
}

// points{study=, level=, env=, model=, source=}.
int points(lua_State* L) {
  auto& s = conn(L, "{...}");
  auto o = lua::Options::optional(L, 2, {"study", "level", "env", "model", "source"});
  store::PointFilter f;
  f.study = o.opt_str("study");
  f.level = o.opt_str("level");
  f.env = o.opt_str("env");
  f.model = o.opt_str("model");
  f.source = o.opt_str("source");
  lua::push_json(L, s.points(f));
  return 1;
}

// study_environments / study_counters / study_complexity([study]): a report's reads (store.h);
// no study (nil) reads every study.
std::string optional_study(lua_State* L) {
  return lua_isnoneornil(L, 2) ? std::string() : lua::check_string(L, 2);
}

int study_environments(lua_State* L) {
  auto& s = conn(L, "[study]");
  lua::push_json(L, s.study_environments(optional_study(L)));
  return 1;
}

int study_counters(lua_State* L) {
  auto& s = conn(L, "[study]");
  lua::push_json(L, s.study_counters(optional_study(L)));
  return 1;
}

int study_complexity(lua_State* L) {
  auto& s = conn(L, "[study]");
  lua::push_json(L, s.study_complexity(optional_study(L)));
  return 1;
}

// slot(study, environment_id, config_key, repeat) -> the row holding the slot, or nil.
int slot(lua_State* L) {
  auto& s = conn(L, "study, environment_id, config_key, repeat");
  std::string study = str_arg(L, 2, "study");
  std::string env = str_arg(L, 3, "environment id");
  std::string key = str_arg(L, 4, "configuration key");
  int repeat = static_cast<int>(lua::check_number(L, 5));
  lua::push_json(L, s.slot(study, env, key, repeat));
  return 1;
}

int run_id_by_label(lua_State* L) {
  auto& s = conn(L, "study, label");
  auto id = s.run_id_by_label(str_arg(L, 2, "study"), str_arg(L, 3, "label"));
  if (id) lua_pushlstring(L, id->data(), id->size());
  else lua_pushnil(L);
  return 1;
}

int last_sweep_seed(lua_State* L) {
  auto& s = conn(L, "study, environment_id");
  auto seed = s.last_sweep_seed(str_arg(L, 2, "study"), str_arg(L, 3, "environment id"));
  if (seed) lua_pushnumber(L, static_cast<double>(*seed));
  else lua_pushnil(L);
  return 1;
}

// ---- Small reads of the Lua modules (store.h, study_reads.cpp); options tables only.
// slot_statuses{not_ok=} -> {{id, study, env, config_key, run, status}, ...}.
int slot_statuses(lua_State* L) {
  auto& s = conn(L, "{...}");
  auto o = lua::Options::optional(L, 2, {"not_ok"});
  lua::push_json(L, s.slot_statuses(o.boolean("not_ok", false)));
  return 1;
}

// delete_runs{ids={...}} -> the number of runs deleted.
int delete_runs(lua_State* L) {
  auto& s = conn(L, "{ids = {...}}");
  lua::Options o(L, 2, {"ids"});
  lua_pushnumber(L, static_cast<double>(s.delete_runs(o.str_list("ids"))));
  return 1;
}

// count_runs{study=} -> {n = runs, ok = ok runs}; every study without one.
int count_runs(lua_State* L) {
  auto& s = conn(L, "{...}");
  auto o = lua::Options::optional(L, 2, {"study"});
  auto c = s.count_runs(o.str("study", ""));
  lua::push_json(L, nlohmann::json{{"n", c.n}, {"ok", c.ok}});
  return 1;
}

// environments_except{label=} -> {{id, label}, ...} of the other labels.
int environments_except(lua_State* L) {
  auto& s = conn(L, "{label = ...}");
  lua::Options o(L, 2, {"label"});
  lua::push_json(L, s.environments_except(o.required_str("label")));
  return 1;
}

// run_details{id=} -> {counters, roofline_points, complexity}.
int run_details(lua_State* L) {
  auto& s = conn(L, "{id = ...}");
  lua::Options o(L, 2, {"id"});
  lua::push_json(L, s.run_details(o.required_str("id")));
  return 1;
}

// study_names() -> sorted names.
int study_names(lua_State* L) {
  auto& s = conn(L);
  lua::Options::optional(L, 2, {});
  lua::push_json(L, nlohmann::json(s.study_names()));
  return 1;
}

int close(lua_State* L) {
  Conn* c = conn_of(L, "");
  delete c->store;
  c->store = nullptr;
  return 0;
}

int tostring(lua_State* L) {
  auto* c = static_cast<Conn*>(luaL_checkudata(L, 1, kConnMeta));
  std::string s = c->store ? fmt::format("rlx.db connection ({})", c->store->path()) : "rlx.db connection (closed)";
  lua_pushlstring(L, s.data(), s.size());
  return 1;
}

int new_id(lua_State* L) {
  lua_pushstring(L, store::new_run_id().c_str());
  return 1;
}
int hash(lua_State* L) {
  lua_pushstring(L, store::content_hash(lua::to_json(L, 1)).c_str());
  return 1;
}
int now(lua_State* L) {
  lua_pushstring(L, store::utc_now().c_str());
  return 1;
}
int current_version(lua_State* L) {
  lua_pushinteger(L, store::current_schema_version());
  return 1;
}

// Runs F; SQLite's own exception (a statement the store runs through SQLiteCpp) becomes a
// store::Error with the same message and its result code's name as data, so the error table
// carries `code` (SQLITE_FULL, SQLITE_IOERR, SQLITE_READONLY, ...) whichever layer met the failure.
template <int (*F)(lua_State*)>
int sqlite_coded(lua_State* L) {
  try {
    return F(L);
  } catch (const SQLite::Exception& e) {
    throw store::Error(e.what(), store::sqlite_code_name(e.getErrorCode()));
  }
}

}  // namespace

void open_db(lua_State* L) {
  if (luaL_newmetatable(L, kConnMeta)) {
    lua_newtable(L);
    int methods = lua_gettop(L);
    lua::set_functions(L, methods, "conn:",
                       {{"query", lua::guarded<sqlite_coded<query>>},
                        {"_query", lua::guarded<sqlite_coded<query_columns>>, "conn:query"},
                        {"first", lua::guarded<sqlite_coded<first>>},
                        {"exec", lua::guarded<sqlite_coded<exec>>},
                        {"begin", lua::guarded<sqlite_coded<begin>>},
                        {"commit", lua::guarded<sqlite_coded<commit>>},
                        {"rollback", lua::guarded<sqlite_coded<rollback>>},
                        {"in_transaction", lua::guarded<sqlite_coded<in_transaction>>},
                        {"path", lua::guarded<sqlite_coded<path>>},
                        {"schema_version", lua::guarded<sqlite_coded<schema_version>>},
                        {"integrity_check", lua::guarded<sqlite_coded<integrity_check>>},
                        {"readonly", lua::guarded<sqlite_coded<readonly>>},
                        {"merge_from", lua::guarded<sqlite_coded<merge_from>>},
                        {"close", lua::guarded<sqlite_coded<close>>},
                        {"put_environment", lua::guarded<sqlite_coded<put_environment>>},
                        {"put_study", lua::guarded<sqlite_coded<put_study>>},
                        {"put_run", lua::guarded<sqlite_coded<put_run>>},
                        {"put_counters", lua::guarded<sqlite_coded<put_counters>>},
                        {"put_points", lua::guarded<sqlite_coded<put_points>>},
                        {"put_peaks", lua::guarded<sqlite_coded<put_peaks>>},
                        {"peaks", lua::guarded<sqlite_coded<peaks>>},
                        {"put_calibration", lua::guarded<sqlite_coded<put_calibration>>},
                        {"calibrations", lua::guarded<sqlite_coded<calibrations>>},
                        {"put_plan", lua::guarded<sqlite_coded<put_plan>>},
                        {"finish_plan", lua::guarded<sqlite_coded<finish_plan>>},
                        {"plans", lua::guarded<sqlite_coded<plans>>},
                        {"runs", lua::guarded<sqlite_coded<runs>>},
                        {"points", lua::guarded<sqlite_coded<points>>},
                        {"slot", lua::guarded<sqlite_coded<slot>>},
                        {"run_id_by_label", lua::guarded<sqlite_coded<run_id_by_label>>},
                        {"last_sweep_seed", lua::guarded<sqlite_coded<last_sweep_seed>>},
                        {"study_environments", lua::guarded<sqlite_coded<study_environments>>},
                        {"study_counters", lua::guarded<sqlite_coded<study_counters>>},
                        {"study_complexity", lua::guarded<sqlite_coded<study_complexity>>},
                        {"slot_statuses", lua::guarded<sqlite_coded<slot_statuses>>},
                        {"delete_runs", lua::guarded<sqlite_coded<delete_runs>>},
                        {"count_runs", lua::guarded<sqlite_coded<count_runs>>},
                        {"environments_except", lua::guarded<sqlite_coded<environments_except>>},
                        {"run_details", lua::guarded<sqlite_coded<run_details>>},
                        {"study_names", lua::guarded<sqlite_coded<study_names>>},
                        {"claim", lua::guarded<sqlite_coded<claim>>},
                        {"peek_claim", lua::guarded<sqlite_coded<peek_claim>>},
                        {"release_claim", lua::guarded<sqlite_coded<release_claim>>}});
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, lua::guarded<sqlite_coded<close>>);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, lua::guarded<sqlite_coded<tostring>>);
    lua_setfield(L, -2, "__tostring");
  }
  lua_pop(L, 1);
  lua::register_module(L, "db",
                       {{"open", lua::guarded<sqlite_coded<open>>},
                        {"new_id", lua::guarded<sqlite_coded<new_id>>},
                        {"hash", lua::guarded<sqlite_coded<hash>>},
                        {"now", lua::guarded<sqlite_coded<now>>},
                        {"schema_version", lua::guarded<sqlite_coded<current_version>>}});
}

}  // namespace rlx::bindings
