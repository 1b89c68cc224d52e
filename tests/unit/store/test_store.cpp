// test_store.cpp: the SQLite study database (engine/store): schema and migrations, bound
// parameters, transactions, concurrent writers, merge idempotence, and the errors for files that
// are not databases, are missing, or are read-only.
#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "fresh_db.h"
#include "store/store.h"

namespace fs = std::filesystem;
using rlx::store::Json;
using rlx::store::Store;

namespace {

std::string tmp_db(const std::string& name) {
  return rlx::test::fresh_db_path("store", name);
}

void add_run(Store& s, const std::string& id, const std::string& env, const std::string& study, int repeat,
             int samples) {
  s.exec("INSERT OR IGNORE INTO environments (id, label, info, first_seen) VALUES (?, ?, '{}', ?)",
         Json::array({env, "env-" + env, rlx::store::utc_now()}));
  s.exec("INSERT OR IGNORE INTO studies (name, created_at) VALUES (?, ?)",
         Json::array({study, rlx::store::utc_now()}));
  s.exec(
      "INSERT INTO runs (id, study, environment_id, label, config_key, config, model, status, repeat) "
      "VALUES (?, ?, ?, ?, 'k', '{}', 'resnet18', 'ok', ?)",
      Json::array({id, study, env, "lbl_" + id, repeat}));
  for (int i = 1; i <= samples; ++i)
    s.exec("INSERT INTO samples (run_id, iter, seconds) VALUES (?, ?, ?)", Json::array({id, i, 0.01 * i}));
}

long long count(Store& s, const std::string& table) {
  return s.query("SELECT count(*) AS n FROM " + table)[0]["n"].get<long long>();
}

}  // namespace

TEST_CASE("a new database has the current schema, WAL and foreign keys") {
  Store s(tmp_db("new.db"));
  CHECK(s.schema_version() == rlx::store::current_schema_version());
  CHECK(rlx::store::current_schema_version() == 10);
  CHECK(s.query("PRAGMA journal_mode")[0]["journal_mode"] == "wal");
  CHECK(s.query("PRAGMA foreign_keys")[0]["foreign_keys"] == 1);
  for (const char* t :
       {"environments", "studies", "runs", "samples", "counters", "complexity", "peaks", "roofline_points"})
    CHECK(s.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", Json::array({t}))
              .size() == 1);
  CHECK(s.integrity_check() == "ok");
}

TEST_CASE("opening creates missing directories only when asked (rlx run's results/)") {
  fs::path dir = fs::path(RLX_TEST_TMP) / "store" / "nested-dir";
  fs::remove_all(dir);
  const std::string path = (dir / "a" / "b.db").string();
  // Issue 17 item 17: `import-ncu --db missing_dir/x.db` used to create the directory.
  CHECK_THROWS_WITH(Store(path), "cannot create database '" + path + "': the directory '" +
                                     (dir / "a").string() +
                                     "' does not exist (create it first, or check the path)");
  CHECK_FALSE(fs::exists(dir));
  rlx::store::OpenOptions o;
  o.create_directories = true;
  Store s(path, o);
  CHECK(fs::exists(dir / "a" / "b.db"));
}

TEST_CASE("a version 1 database is migrated to the current version, keeping its rows") {
  std::string path = tmp_db("v1.db");
  {
    rlx::store::OpenOptions o;
    o.migrate_to = 1;
    Store old(path, o);
    REQUIRE(old.schema_version() == 1);
    add_run(old, "r1", "e1", "s", 1, 3);
    // Version 1 has no roofline_points and no runs.total_s.
    CHECK_THROWS(old.query("SELECT total_s FROM runs"));
    CHECK(old.query("SELECT name FROM sqlite_master WHERE name = 'roofline_points'").empty());
  }
  Store s(path);
  CHECK(s.schema_version() == rlx::store::current_schema_version());
  CHECK(count(s, "runs") == 1);
  CHECK(count(s, "samples") == 3);
  CHECK(s.query("SELECT total_s FROM runs")[0]["total_s"].is_null());
  s.exec(
      "INSERT INTO roofline_points (run_id, level, precision, flops, source) VALUES ('r1', 'dram', 'fp32', "
      "1e9, "
      "'estimated')");
  CHECK(count(s, "roofline_points") == 1);
  CHECK(s.integrity_check() == "ok");
}

TEST_CASE("a database from a newer rlx is refused") {
  std::string path = tmp_db("future.db");
  {
    Store s(path);
    s.exec_script("PRAGMA user_version = 99");
  }
  CHECK_THROWS_WITH(Store(path), Catch::Contains("newer rlx (schema version 99") && Catch::Contains(path));
}

TEST_CASE("hostile strings go through bound parameters unchanged") {
  Store s(tmp_db("hostile.db"));
  std::string evil = "x'); DROP TABLE runs; --\n\"quoted\" \\ ' ; \xE2\x9C\x93";
  std::string nul("a\0b", 3);
  s.exec("INSERT INTO studies (name, created_at) VALUES (?, ?)", Json::array({evil, "t"}));
  s.exec("INSERT INTO studies (name, created_at) VALUES (?, ?)", Json::array({nul, "t"}));
  auto rows = s.query("SELECT name FROM studies WHERE name = ?", Json::array({evil}));
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]["name"] == evil);
  CHECK(s.query("SELECT length(name) AS n FROM studies WHERE name = ?", Json::array({nul}))[0]["n"] == 1);
  CHECK(s.query("SELECT name FROM sqlite_master WHERE name = 'runs'").size() == 1);
  // A table parameter is bound as its JSON text, never as SQL.
  s.exec("INSERT INTO studies (name, created_at) VALUES (?, ?)", Json::array({Json{{"a", "'; DROP"}}, "t"}));
  CHECK(s.query("SELECT name FROM studies WHERE name LIKE '{%'")[0]["name"] == R"({"a":"'; DROP"})");
}

TEST_CASE("parameter count and multiple statements are checked") {
  Store s(tmp_db("params.db"));
  CHECK_THROWS_WITH(s.query("SELECT ?, ?", Json::array({1})),
                    Catch::Contains("2 parameter(s)") && Catch::Contains("1 value(s)"));
  CHECK_THROWS_WITH(s.exec("SELECT 1; DROP TABLE runs"), Catch::Contains("one statement per call"));
  CHECK_THROWS_WITH(s.query("SELEC 1"), Catch::Contains("bad SQL") && Catch::Contains("params.db"));
  auto r = s.query("SELECT 1 AS i, 2.5 AS f, 'x' AS t, NULL AS n");
  CHECK(r[0]["i"].is_number_integer());
  CHECK(r[0]["f"] == 2.5);
  CHECK(r[0]["t"] == "x");
  CHECK(r[0]["n"].is_null());
}

TEST_CASE("a rolled-back run leaves nothing behind; deleting a run deletes its children") {
  Store s(tmp_db("tx.db"));
  s.begin();
  add_run(s, "r1", "e1", "s", 1, 5);
  CHECK(s.in_transaction());
  s.rollback();
  CHECK_FALSE(s.in_transaction());
  CHECK(count(s, "runs") == 0);
  CHECK(count(s, "samples") == 0);
  add_run(s, "r2", "e1", "s", 1, 4);
  s.exec("INSERT INTO counters (run_id, name, value) VALUES ('r2', 'task_clock', 1.5)");
  CHECK(s.exec("DELETE FROM runs WHERE id = ?", Json::array({"r2"})) == 1);
  CHECK(count(s, "samples") == 0);
  CHECK(count(s, "counters") == 0);
  // Foreign keys are enforced: a sample of no run is refused.
  CHECK_THROWS_WITH(s.exec("INSERT INTO samples (run_id, iter, seconds) VALUES ('ghost', 1, 0.1)"),
                    Catch::Contains("FOREIGN KEY"));
  CHECK_THROWS_WITH(s.exec("INSERT INTO runs (id, study, environment_id, label, config_key, config, status) "
                           "VALUES ('x', 's', 'e1', 'l', 'k', '{}', 'maybe')"),
                    Catch::Contains("CHECK"));
}

TEST_CASE("two connections write one database at once") {
  std::string path = tmp_db("concurrent.db");
  { Store init(path); }
  std::string errors[2];
  auto writer = [&](const std::string& prefix, std::string* error) {
    try {
      Store s(path);
      for (int i = 0; i < 25; ++i) {
        s.begin();
        add_run(s, prefix + std::to_string(i), "e-" + prefix, "s", i + 1, 3);
        s.commit();
      }
    } catch (const std::exception& e) {
      *error = e.what();
    }
  };
  std::thread a(writer, "a", &errors[0]);
  std::thread b(writer, "b", &errors[1]);
  a.join();
  b.join();
  CHECK(errors[0].empty());
  CHECK(errors[1].empty());
  Store s(path);
  CHECK(count(s, "runs") == 50);
  CHECK(count(s, "samples") == 150);
  CHECK(s.integrity_check() == "ok");
}

TEST_CASE("two connections creating one new database at once both get the current schema") {
  for (int round = 0; round < 20; ++round) {
    std::string path = tmp_db("race.db");
    std::string errors[2];
    int versions[2] = {0, 0};
    auto open = [&](int i) {
      try {
        Store s(path);
        versions[i] = s.schema_version();
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
    };
    std::thread a(open, 0), b(open, 1);
    a.join();
    b.join();
    INFO(errors[0] << " | " << errors[1]);
    CHECK(errors[0].empty());
    CHECK(errors[1].empty());
    CHECK(versions[0] == rlx::store::current_schema_version());
    CHECK(versions[1] == rlx::store::current_schema_version());
  }
}

TEST_CASE("merging is a union and merging twice adds nothing") {
  std::string a = tmp_db("merge-a.db"), b = tmp_db("merge-b.db"), out = tmp_db("merge-out.db");
  {
    Store sa(a);
    add_run(sa, "ra1", "env-a", "cpu", 1, 2);
    add_run(sa, "ra2", "env-a", "cpu", 2, 2);
    sa.exec(
        "INSERT INTO peaks (environment_id, device, name, value, measured_at) VALUES ('env-a', 'cpu', "
        "'dram_gbps', 20, 't')");
    Store sb(b);
    add_run(sb, "rb1", "env-b", "cpu", 1, 3);
    add_run(sb, "rb2", "env-a", "gpu", 1, 1);  // the same environment as a's
  }
  Store o(out);
  auto st = o.merge_from(a);
  CHECK(st.runs == 2);
  CHECK(st.samples == 4);
  CHECK(st.peaks == 1);
  st = o.merge_from(b);
  CHECK(st.runs == 2);
  CHECK(st.environments == 1);  // env-a was there already
  CHECK(st.studies == 1);       // "gpu"; "cpu" was there
  for (int round = 0; round < 2; ++round) {
    auto again_a = o.merge_from(a);
    auto again_b = o.merge_from(b);
    CHECK(again_a.runs + again_a.samples + again_a.environments + again_a.peaks == 0);
    CHECK(again_b.runs + again_b.samples + again_b.environments + again_b.studies == 0);
  }
  CHECK(count(o, "runs") == 4);
  CHECK(count(o, "samples") == 8);
  CHECK(count(o, "environments") == 2);
  CHECK(count(o, "studies") == 2);
  CHECK(o.integrity_check() == "ok");
  CHECK_THROWS_WITH(o.merge_from(out), Catch::Contains("into itself"));
  CHECK_THROWS_WITH(o.merge_from(tmp_db("missing.db")), Catch::Contains("no database at"));
}

TEST_CASE("files that are not databases, missing or read-only give errors naming the file") {
  std::string bad = tmp_db("not-a-db.db");
  {
    std::ofstream f(bad);
    f << "this is a text file, not SQLite, padded to more than one header's worth of bytes................"
         "..........................................................................................";
  }
  CHECK_THROWS_WITH(Store(bad), Catch::Contains(bad) && Catch::Contains("not a usable SQLite database"));
  rlx::store::OpenOptions ro;
  ro.readonly = true;
  CHECK_THROWS_WITH(Store(bad, ro), Catch::Contains(bad));
  std::string missing = tmp_db("missing.db");
  CHECK_THROWS_WITH(Store(missing, ro), Catch::Contains("no database at '" + missing + "'"));
  CHECK_FALSE(fs::exists(missing));

  std::string foreign = tmp_db("foreign.db");
  {
    SQLite::Database d(foreign, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    d.exec("CREATE TABLE t (x)");
  }
  CHECK_THROWS_WITH(Store(foreign),
                    "'" + foreign +
                        "' is not an rlx database: an SQLite database with 1 tables "
                        "of its own and no rlx schema version; give the path of a study database (rlx run "
                        "writes results/<study>.db)");

  std::string good = tmp_db("readonly.db");
  {
    Store s(good);
    add_run(s, "r", "e", "s", 1, 1);
  }
  Store r(good, ro);
  CHECK(r.readonly());
  CHECK(count(r, "runs") == 1);
  CHECK_THROWS_WITH(r.exec("DELETE FROM runs"), Catch::Contains("readonly") && Catch::Contains(good));
  if (geteuid() != 0) {  // root ignores file permissions
    fs::permissions(good, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    CHECK_THROWS_WITH(Store(good), Catch::Contains("is read-only") && Catch::Contains(good));
    fs::permissions(good, fs::perms::owner_read | fs::perms::owner_write);
  }
}

TEST_CASE("a damaged database file is reported, naming the file") {
  std::string path = tmp_db("damaged.db");
  {
    Store s(path);
    for (int i = 0; i < 50; ++i) {
      std::string id = "r";
      id += std::to_string(i);
      add_run(s, id, "e", "s", i + 1, 20);
    }
    s.exec_script("PRAGMA wal_checkpoint(TRUNCATE)");
  }
  {
    // Overwrite the first page's header: the file no longer starts with "SQLite format 3".
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(0);
    f << "garbage garbage garbage garbage";
  }
  CHECK_THROWS_WITH(Store(path), Catch::Contains(path));
}

TEST_CASE("run ids are 128-bit hex and unique; content hashes are stable and order-independent") {
  std::set<std::string> ids;
  for (int i = 0; i < 1000; ++i) ids.insert(rlx::store::new_run_id());
  CHECK(ids.size() == 1000);
  CHECK(ids.begin()->size() == 32);
  CHECK(ids.begin()->find_first_not_of("0123456789abcdef") == std::string::npos);
  Json a = {{"model", "resnet18"}, {"batch", 2}};
  Json b = {{"batch", 2}, {"model", "resnet18"}};
  CHECK(rlx::store::content_hash(a) == rlx::store::content_hash(b));
  CHECK(rlx::store::content_hash(a) != rlx::store::content_hash(Json{{"model", "resnet18"}, {"batch", 4}}));
  // FNV-1a 64 of the text "1" (the JSON of the number 1): offset basis cbf29ce484222325 xor '1',
  // times the prime 100000001b3, modulo 2^64.
  CHECK(rlx::store::content_hash(Json(1)) == "af63ac4c86019afc");
  CHECK(rlx::store::utc_now().size() == 20);
}

TEST_CASE("merging reports runs whose slot is held; as_repeats keeps ok ones as further repeats") {
  std::string a = tmp_db("slot-a.db"), b = tmp_db("slot-b.db"), out = tmp_db("slot-out.db");
  {
    Store sa(a);
    add_run(sa, "a1", "e", "s", 1, 2);
    add_run(sa, "a2", "e", "s", 2, 2);
    sa.exec("UPDATE runs SET status = 'failed' WHERE id = 'a2'");
    Store sb(b);
    add_run(sb, "b1", "e", "s", 1, 3);  // ok, slot held by ok a1
    add_run(sb, "b2", "e", "s", 2, 3);  // ok, slot held by failed a2: replaces it
    add_run(sb, "b3", "e", "s", 3, 1);  // a free slot
    sb.exec("UPDATE runs SET label = 'lab_m_fp32_bs2_run1' WHERE id = 'b1'");
  }
  {
    Store o(out);
    o.merge_from(a);
    auto st = o.merge_from(b);
    REQUIRE(st.conflicts.size() == 2);
    CHECK(st.conflicts[0].id == "b1");
    CHECK(st.conflicts[0].held_id == "a1");
    CHECK(st.conflicts[0].action == "skipped");
    CHECK(st.conflicts[1].id == "b2");
    CHECK(st.conflicts[1].held_status == "failed");
    CHECK(st.conflicts[1].action == "replaced");
    CHECK(st.runs == 2);  // b2 and b3
    CHECK(count(o, "runs") == 3);
    CHECK(o.query("SELECT count(*) AS n FROM samples WHERE run_id = 'a2'")[0]["n"] == 0);
    CHECK(o.query("SELECT count(*) AS n FROM samples WHERE run_id = 'b1'")[0]["n"] == 0);
  }
  std::string out2 = tmp_db("slot-out2.db");
  Store o(out2);
  o.merge_from(a);
  rlx::store::MergeOptions keep;
  keep.as_repeats = true;
  auto st = o.merge_from(b, keep);
  REQUIRE(st.conflicts.size() == 2);
  // b1's slot (repeat 1) is held by ok a1: the configuration's repeats go up to 3 in b, so b1
  // becomes repeat 4 and its label's _run1 becomes _run4.
  CHECK(st.conflicts[0].action == "kept");
  CHECK(st.conflicts[0].new_repeat == 4);
  CHECK(st.conflicts[0].new_label == "lab_m_fp32_bs2_run4");
  CHECK(st.runs == 3);
  CHECK(o.query("SELECT \"repeat\" AS r, label FROM runs WHERE id = 'b1'")[0]["r"] == 4);
  CHECK(o.query("SELECT count(*) AS n FROM samples WHERE run_id = 'b1'")[0]["n"] == 3);
  auto again = o.merge_from(b, keep);
  CHECK(again.conflicts.empty());
  CHECK(again.runs + again.samples == 0);
  CHECK(count(o, "runs") == 4);
  CHECK(o.integrity_check() == "ok");
}

TEST_CASE("a store error says SQLite's result code as data, and the message without its advice") {
  using rlx::store::sqlite_code_name;
  CHECK(sqlite_code_name(SQLITE_OK).empty());
  CHECK(sqlite_code_name(SQLITE_FULL) == "SQLITE_FULL");
  CHECK(sqlite_code_name(SQLITE_IOERR_WRITE) == "SQLITE_IOERR");  // an extended code by its primary
  CHECK(sqlite_code_name(SQLITE_READONLY) == "SQLITE_READONLY");
  CHECK(sqlite_code_name(200) == "SQLITE_200");

  std::string good = tmp_db("coded.db");
  {
    Store s(good);
    add_run(s, "r", "e", "s", 1, 1);
  }
  rlx::store::OpenOptions ro;
  ro.readonly = true;
  Store r(good, ro);
  try {
    r.exec("DELETE FROM runs");
    FAIL("a write through a read-only connection was accepted");
  } catch (const rlx::store::Error& e) {
    CHECK(e.code == "SQLITE_READONLY");
    CHECK(e.cause.empty());
  }
  try {
    r.query("SELECT nothing FROM nowhere");
    FAIL("bad SQL was accepted");
  } catch (const rlx::store::Error& e) {
    CHECK(e.code == "SQLITE_ERROR");
  }
  if (geteuid() != 0) {  // root ignores file permissions
    fs::permissions(good, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    try {
      Store w(good);
      FAIL("a read-only file was opened for writing");
    } catch (const rlx::store::Error& e) {
      CHECK(e.code == "SQLITE_READONLY");
      CHECK(std::string(e.what()) == e.cause + "; open it with readonly=true to query it");
    }
    fs::permissions(good, fs::perms::owner_read | fs::perms::owner_write);
  }
}
