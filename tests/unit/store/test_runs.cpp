// test_runs.cpp: the study API of engine/store against a real SQLite file: a training result
// becomes a RunRecord, put_run writes it with its children in one transaction and replaces its
// slot, runs/points/peaks read back what was written, bad columns are refused with nothing
// written, the Slurm columns come from the environment, and a version 2 database migrates to
// version 3 keeping every row (children included: the runs table is rebuilt).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>

#include "fresh_db.h"
#include "store/store.h"

using rlx::store::Json;
using rlx::store::RunRecord;
using rlx::store::Store;

namespace {

std::string tmp_db(const std::string& name) {
  return rlx::test::fresh_db_path("store-runs", name);
}

long long count(Store& s, const std::string& sql) {
  return s.query(sql)[0]["n"].get<long long>();
}

Json config(const std::string& model, int batch) {
  return {{"model", model},  {"precision", "fp32"}, {"batch", batch},
          {"device", "cpu"}, {"iters", 3},          {"warmup", 1}};
}

Json result() {
  return {{"ok", true},
          {"images_per_s", 64.0},
          {"seconds", 0.3},
          {"iter_s", {{"mean", 0.1}, {"sd", 0.01}, {"median", 0.1}, {"min", 0.09}, {"max", 0.11}}},
          {"samples", {0.09, 0.1, 0.11}},
          {"device_max_bytes", -1},
          {"max_rss_bytes", 1000000},
          {"memory_format", "channels_last"},
          {"stability", {{"stable", true}, {"drift", 0.02}, {"cv", 0.1}}},
          {"counter_iters", 2},
          {"counted_iter_s", 0.5},
          {"pin_memory", false},
          {"threads", "not a number"},
          {"counters",
           {{"source", "perf"},
            {"values", {{"task_clock_ms", 5}, {"cycles", false}}},
            {"units", {{"task_clock_ms", "ms"}}},
            {"derived", {{"flops", 2e9}}}}}};
}

RunRecord record(const std::string& model, int batch, int repeat) {
  RunRecord r = rlx::store::run_record(config(model, batch), result());
  r.study = "s";
  r.environment_id = "env1";
  r.label = model + "_bs" + std::to_string(batch) + "_run" + std::to_string(repeat);
  r.repeat = repeat;
  return r;
}

void add_env(Store& s) {
  s.put_environment(
      {{"id", "env1"}, {"label", "lab"}, {"host", "h"}, {"cpu_cores", 2}, {"cpu_caches", Json::array()}});
  s.put_study("s");
}

}  // namespace

TEST_CASE("a training result becomes a run record") {
  RunRecord r = record("m1", 2, 1);
  CHECK(r.status == "ok");
  CHECK(r.columns["model"] == "m1");
  CHECK(r.columns["batch"] == 2);
  CHECK(r.columns["images_per_s"] == 64.0);
  CHECK(r.columns["iter_mean_s"] == 0.1);
  CHECK(r.columns["iter_max_s"] == 0.11);
  CHECK_FALSE(r.columns.contains("iter_p95_s"));        // absent from the result
  CHECK_FALSE(r.columns.contains("device_max_bytes"));  // -1 = not available
  CHECK_FALSE(r.columns.contains("threads"));           // wrong type: unknown, not an error
  CHECK(r.columns["memory_format"] == "channels_last");
  CHECK(r.columns["stable"] == 1);
  CHECK(r.columns["drift"] == 0.02);
  CHECK(r.columns["cv"] == 0.1);
  CHECK(r.columns["counter_iters"] == 2);
  CHECK(r.columns["counted_iter_s"] == 0.5);
  CHECK(r.columns["pin_memory"] == 0);
  CHECK(r.samples == std::vector<double>{0.09, 0.1, 0.11});
  CHECK_FALSE(r.result.contains("samples"));
  // task_clock_ms (perf, ms) and flops (perf:derived); cycles = false is not a number.
  REQUIRE(r.counters.size() == 2);
  CHECK(r.counters[0].name == "task_clock_ms");
  CHECK(r.counters[0].source == "perf");
  CHECK(r.counters[0].unit == "ms");
  CHECK(r.counters[1].name == "flops");
  CHECK(r.counters[1].source == "perf:derived");
  RunRecord failed = rlx::store::run_record(config("m1", 2), {{"ok", false}, {"error", "out of memory"}});
  CHECK(failed.status == "failed");
  CHECK(failed.columns["error"] == "out of memory");
}

TEST_CASE("counters come as a table, an array or flat names") {
  auto arr = rlx::store::counters_from(Json::array({{{"name", "x"}, {"value", 2}, {"unit", "u"}},
                                                    {{"name", "y"}, {"value", 3}, {"source", "cupti"}},
                                                    {{"name", "z"}}}),
                                       "ncu");
  REQUIRE(arr.size() == 2);
  CHECK(arr[0].source == "ncu");
  CHECK(arr[0].unit == "u");
  CHECK(arr[1].source == "cupti");
  auto flat = rlx::store::counters_from({{"source", "perf"}, {"a", 1.5}, {"b", "x"}}, "");
  REQUIRE(flat.size() == 1);
  CHECK(flat[0].name == "a");
  CHECK(flat[0].value == 1.5);
  CHECK(flat[0].source == "perf");
}

TEST_CASE("put_run writes a run with its children and runs reads it back") {
  Store s(tmp_db("put.db"));
  add_env(s);
  RunRecord r = record("m1", 2, 1);
  r.complexity = {{"params", 11}, {"forward_flops", 1e9}, {"layers", Json::array({1, 2})}};
  r.roofline = Json::array({{{"level", "dram"}, {"ai", 10}, {"gflops", 3.5}, {"source", "measured"}}});
  r.columns["position"] = 4;
  r.columns["sweep_order"] = "interleaved";
  std::string id = s.put_run(r);
  CHECK(id.size() == 32);
  auto rows = s.runs({});
  REQUIRE(rows.size() == 1);
  const Json& row = rows[0];
  CHECK(row["id"] == id);
  CHECK(row["env"] == "lab");
  CHECK(row["run"] == 1);
  CHECK(row["status"] == "ok");
  CHECK(row["images_per_s"] == 64.0);
  CHECK(row["iter_s"]["sd"] == 0.01);
  CHECK(row["iter_s"]["p95"].is_null());
  CHECK(row["config"]["batch"] == 2);
  CHECK(row["result"]["memory_format"] == "channels_last");
  CHECK(row["stable"] == 1);
  CHECK(row["position"] == 4);
  CHECK(row["sweep_order"] == "interleaved");
  CHECK(row["params"] == 11);
  CHECK(row["pid"] == static_cast<long long>(getpid()));
  CHECK(row["finished_at"].get<std::string>().size() == 20);
  CHECK(row["config_key"] == rlx::store::content_hash(config("m1", 2)));
  CHECK_FALSE(row.contains("samples"));
  rlx::store::RunFilter f;
  f.samples = true;
  f.model = "m1";
  CHECK(s.runs(f)[0]["samples"] == Json::array({0.09, 0.1, 0.11}));
  f.model = "m2";
  CHECK(s.runs(f).empty());
  CHECK(count(s, "SELECT count(*) AS n FROM counters") == 2);
  CHECK(s.query("SELECT info FROM complexity")[0]["info"].get<std::string>().find("layers") ==
        std::string::npos);
  rlx::store::PointFilter pf;
  pf.study = "s";
  auto pts = s.points(pf);
  REQUIRE(pts.size() == 1);
  CHECK(pts[0]["label"] == "m1_bs2_run1");
  CHECK(pts[0]["precision"] == "fp32");  // from the configuration
  CHECK(pts[0]["source"] == "measured");
  pf.level = "l2";
  CHECK(s.points(pf).empty());
  auto slot = s.slot("s", "env1", row["config_key"], 1);
  CHECK(slot["status"] == "ok");
  CHECK(s.slot("s", "env1", row["config_key"], 2).is_null());
  CHECK(s.run_id_by_label("s", "m1_bs2_run1") == id);
  CHECK_FALSE(s.run_id_by_label("s", "nope"));
}

TEST_CASE("put_points gives a stored run a measured point, tagged with its counters' source") {
  Store s(tmp_db("points.db"));
  add_env(s);
  RunRecord r = record("m1", 2, 1);
  r.roofline = Json::array({{{"level", "dram"}, {"ai", 10}, {"gflops", 3.5}, {"source", "estimated"}}});
  const std::string id = s.put_run(r);
  // An ncu import later: 2e10 FLOP and 1e9 B per iteration over a 0.5 s timed iteration.
  const Json measured = Json::array({{{"level", "dram"},
                                      {"precision", "fp32"},
                                      {"flops", 2e10},
                                      {"bytes", 1e9},
                                      {"seconds", 0.5},
                                      {"ai", 20},
                                      {"gflops", 40},
                                      {"source", "measured"},
                                      {"counters_source", "ncu"}}});
  CHECK(s.put_points(id, measured) == 1);
  rlx::store::PointFilter pf;
  pf.source = "measured";
  auto pts = s.points(pf);
  REQUIRE(pts.size() == 1);
  CHECK(pts[0]["counters_source"] == "ncu");
  CHECK(pts[0]["gflops"] == 40.0);
  // One point per run and level: the measured point replaced the estimate; importing again
  // replaces it, never duplicates it.
  CHECK(count(s, "SELECT count(*) AS n FROM roofline_points") == 1);
  CHECK(s.put_points(id, measured) == 1);
  CHECK(count(s, "SELECT count(*) AS n FROM roofline_points") == 1);
  pf.source = "estimated";
  CHECK(s.points(pf).empty());
  CHECK_THROWS_WITH(s.put_points(id, Json::object()), Catch::Contains("the points must be an array"));
}

TEST_CASE("a slot holds one run: put_run replaces it with its children") {
  Store s(tmp_db("replace.db"));
  add_env(s);
  std::string first = s.put_run(record("m1", 2, 1));
  s.put_run(record("m1", 2, 2));
  RunRecord again = record("m1", 2, 1);
  again.samples = {0.5};
  std::string second = s.put_run(again);
  CHECK(first != second);
  CHECK(count(s, "SELECT count(*) AS n FROM runs") == 2);
  CHECK(count(s, "SELECT count(*) AS n FROM samples") == 4);  // 3 of run 2, 1 of the new run 1
  CHECK(s.query("SELECT count(*) AS n FROM samples WHERE run_id = ?", Json::array({first}))[0]["n"] == 0);
  CHECK(s.integrity_check() == "ok");
}

TEST_CASE(
    "if_stored: next takes the next repeat, refuse names the held run, replace_label clears the label") {
  // Issue 48 item 2: a second unlabelled `rlx train --db` replaced the first.
  using rlx::store::IfStored;
  Store s(tmp_db("if_stored.db"));
  add_env(s);
  auto stem = [&](IfStored rule) {
    RunRecord r = record("m1", 2, 1);
    r.label = "e_m1_fp32_bs2";
    r.if_stored = rule;
    return r;
  };
  const std::string a = s.put_run(stem(IfStored::next_repeat));
  const std::string b = s.put_run(stem(IfStored::next_repeat));
  CHECK(s.query("SELECT label, repeat FROM runs WHERE id = ?", Json::array({a}))[0] ==
        Json({{"label", "e_m1_fp32_bs2_run1"}, {"repeat", 1}}));
  CHECK(s.query("SELECT label, repeat FROM runs WHERE id = ?", Json::array({b}))[0] ==
        Json({{"label", "e_m1_fp32_bs2_run2"}, {"repeat", 2}}));
  // Asked to, a run joins the caller's transaction (rlx import-kit's one transaction).
  s.begin();
  s.put_run(stem(IfStored::next_repeat), true);
  s.rollback();
  CHECK(count(s, "SELECT count(*) AS n FROM runs") == 2);
  // refuse: the label is held (by run 1 of this configuration), nothing is written.
  RunRecord held = record("m1", 4, 1);
  held.label = "e_m1_fp32_bs2_run1";
  held.if_stored = IfStored::refuse;
  CHECK_THROWS_WITH(s.put_run(held),
                    "study 's' already holds a run labelled 'e_m1_fp32_bs2_run1' (repeat 1): it is "
                    "not replaced; give another label, or ask to replace it");
  CHECK(count(s, "SELECT count(*) AS n FROM runs") == 2);
  // replace_label: the run labelled so goes, whatever its configuration; the other stays.
  held.if_stored = IfStored::replace_label;
  const std::string c = s.put_run(held);
  CHECK(count(s, "SELECT count(*) AS n FROM runs") == 2);
  CHECK(s.query("SELECT id FROM runs WHERE label = 'e_m1_fp32_bs2_run1'")[0]["id"] == c);
  CHECK(s.integrity_check() == "ok");
}

TEST_CASE("put_run refuses bad columns and writes nothing") {
  Store s(tmp_db("bad.db"));
  add_env(s);
  RunRecord r = record("m1", 2, 1);
  r.columns["images_per_sec"] = 1;
  CHECK_THROWS_WITH(s.put_run(r), Catch::Contains("'images_per_sec' is not a runs column"));
  r = record("m1", 2, 1);
  r.columns["batch"] = "two";
  CHECK_THROWS_WITH(s.put_run(r), Catch::Contains("run column 'batch' must be a whole number"));
  r = record("m1", 2, 1);
  r.status = "done";
  CHECK_THROWS_WITH(s.put_run(r), Catch::Contains("status must be ok, failed, running or crashed"));
  r = record("m1", 2, 1);
  r.label = "";
  CHECK_THROWS_WITH(s.put_run(r), Catch::Contains("a run needs its study, environment id and label"));
  // A run of an unknown environment breaks a foreign key: the whole run is rolled back.
  r = record("m1", 2, 1);
  r.environment_id = "ghost";
  CHECK_THROWS_WITH(s.put_run(r), Catch::Contains("FOREIGN KEY"));
  CHECK(count(s, "SELECT count(*) AS n FROM runs") == 0);
  CHECK(count(s, "SELECT count(*) AS n FROM samples") == 0);
  CHECK_FALSE(s.in_transaction());
  s.begin();
  CHECK_THROWS_WITH(s.put_run(record("m1", 2, 1)), Catch::Contains("inside an open transaction"));
  s.rollback();
}

TEST_CASE("the Slurm job, array task and node come from the environment") {
  Store s(tmp_db("slurm.db"));
  add_env(s);
  setenv("SLURM_JOB_ID", "999", 1);
  setenv("SLURM_ARRAY_JOB_ID", "123", 1);
  setenv("SLURM_ARRAY_TASK_ID", "7", 1);
  setenv("SLURMD_NODENAME", "node01", 1);
  s.put_run(record("m1", 2, 1));
  unsetenv("SLURM_ARRAY_JOB_ID");
  unsetenv("SLURM_ARRAY_TASK_ID");
  s.put_run(record("m1", 2, 2));
  unsetenv("SLURM_JOB_ID");
  unsetenv("SLURMD_NODENAME");
  s.put_run(record("m1", 2, 3));
  auto rows = s.runs({});
  REQUIRE(rows.size() == 3);
  CHECK(rows[0]["slurm_job_id"] == "123");  // an array job's id, not the task's own job id
  CHECK(rows[0]["slurm_array_task_id"] == 7);
  CHECK(rows[0]["node"] == "node01");
  CHECK(rows[1]["slurm_job_id"] == "999");
  CHECK(rows[1]["slurm_array_task_id"].is_null());
  CHECK(rows[2]["slurm_job_id"].is_null());
  CHECK(rows[2]["node"].is_null());
}

TEST_CASE("peaks: every numeric field, the latest per name, units from the name") {
  Store s(tmp_db("peaks.db"));
  add_env(s);
  CHECK(s.peaks("env1", "cpu").is_null());
  Json p = {{"dram_gbps", 21.5},
            {"fp32_gflops", 150},
            {"spread", {{"dram_gbps", 0.03}}},
            {"isa", "avx2"},
            {"units", {{"fp32_gflops", "GFLOP/s"}}}};
  CHECK(s.put_peaks("env1", "cpu", "measured", p) == 2);
  Json got = s.peaks("env1", "cpu");
  CHECK(got["dram_gbps"] == 21.5);
  CHECK(got["fp32_gflops"] == 150);
  CHECK(got["spread"]["dram_gbps"] == 0.03);
  CHECK(got["spread"]["fp32_gflops"].is_null());
  CHECK(got["units"]["dram_gbps"] == "GB/s");
  CHECK(got["source"] == "measured");
  CHECK(s.peaks("env1", "cuda").is_null());
  CHECK(s.put_peaks("env1", "cpu", "measured", {{"isa", "avx2"}}) == 0);
}

TEST_CASE("the latest random-order seed of a study is found again") {
  Store s(tmp_db("seed.db"));
  add_env(s);
  CHECK_FALSE(s.last_sweep_seed("s", "env1"));
  RunRecord r = record("m1", 2, 1);
  r.columns["sweep_order"] = "random";
  r.columns["sweep_seed"] = 4242;
  r.columns["claimed_at"] = "2026-01-01T00:00:00Z";
  s.put_run(r);
  CHECK(s.last_sweep_seed("s", "env1") == 4242);
}

TEST_CASE("a version 2 database migrates to the current version keeping runs and their children") {
  std::string path = tmp_db("v2.db");
  {
    rlx::store::OpenOptions o;
    o.migrate_to = 2;
    Store old(path, o);
    REQUIRE(old.schema_version() == 2);
    old.exec("INSERT INTO environments (id, label, info, first_seen) VALUES ('e', 'lab', '{}', 't')");
    old.exec("INSERT INTO studies (name, created_at) VALUES ('s', 't')");
    old.exec(
        "INSERT INTO runs (id, study, environment_id, label, config_key, config, model, status, repeat, "
        "images_per_s, total_s) VALUES ('r1', 's', 'e', 'lab_m_fp32_bs2_run1', 'k', '{}', 'm', 'ok', 1, "
        "12.5, 3)");
    for (int i = 1; i <= 3; ++i)
      old.exec("INSERT INTO samples (run_id, iter, seconds) VALUES ('r1', ?, ?)", Json::array({i, 0.1 * i}));
    old.exec("INSERT INTO counters (run_id, name, value) VALUES ('r1', 'c', 1)");
    old.exec("INSERT INTO complexity (run_id, params) VALUES ('r1', 5)");
    old.exec("INSERT INTO roofline_points (run_id, level, source) VALUES ('r1', 'dram', 'estimated')");
    CHECK_THROWS_WITH(old.exec("UPDATE runs SET status = 'crashed'"), Catch::Contains("CHECK"));
  }
  Store s(path);
  CHECK(s.schema_version() == rlx::store::current_schema_version());
  CHECK(s.query("PRAGMA foreign_keys")[0]["foreign_keys"] == 1);
  auto rows = s.runs({});
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]["images_per_s"] == 12.5);
  // Version 5's columns (issues 21 and 25) are unknown for an old run.
  for (const char* col : {"input", "stop_reason", "ci_rel", "floor_gflops", "contended", "deaths"})
    CHECK(rows[0][col].is_null());
  CHECK(rows[0]["total_s"] == 3.0);
  CHECK(rows[0]["label"] == "lab_m_fp32_bs2_run1");
  CHECK(rows[0]["memory_format"].is_null());
  CHECK(rows[0]["slurm_job_id"].is_null());
  CHECK(rows[0]["params"] == 5);
  CHECK(count(s, "SELECT count(*) AS n FROM samples") == 3);
  CHECK(count(s, "SELECT count(*) AS n FROM counters") == 1);
  CHECK(count(s, "SELECT count(*) AS n FROM roofline_points") == 1);
  CHECK(s.query("PRAGMA foreign_key_check").empty());
  CHECK(s.integrity_check() == "ok");
  CHECK(s.exec("UPDATE runs SET status = 'crashed'") == 1);
  // The children still cascade from the rebuilt table, and the slot is still unique.
  CHECK_THROWS_WITH(
      s.exec("INSERT INTO runs (id, study, environment_id, label, config_key, config, status, repeat) "
             "VALUES ('r2', 's', 'e', 'x', 'k', '{}', 'ok', 1)"),
      Catch::Contains("UNIQUE"));
  s.exec("DELETE FROM runs WHERE id = 'r1'");
  CHECK(count(s, "SELECT count(*) AS n FROM samples") == 0);
  CHECK(count(s, "SELECT count(*) AS n FROM complexity") == 0);
  CHECK(s.query("SELECT name FROM sqlite_master WHERE name = 'runs_v3'").empty());
  for (const char* index : {"runs_slot", "runs_label", "runs_model"})
    CHECK(s.query("SELECT name FROM sqlite_master WHERE type = 'index' AND name = ?", Json::array({index}))
              .size() == 1);
}

TEST_CASE("run_record maps issue 21's measurement fields to columns, with the iterations a run took") {
  const Json config = {{"model", "m"}, {"batch", 2}, {"warmup", "auto"}, {"target_ci", 0.02}};
  const Json result = {
      {"ok", true},        {"iters", 7},          {"warmup_used", 3},  {"input", 224},
      {"target_ci", 0.02}, {"stop_reason", "ci"}, {"ci_rel", 0.015},   {"floor_gflops", 120.5},
      {"other_cpu", 0.25}, {"steal_cpu", 0.0},    {"cpu_share", 0.97}, {"contended", false}};
  RunRecord r = rlx::store::run_record(config, result);
  CHECK(r.columns["iters"] == 7);   // the timed iterations taken, not a configured count
  CHECK(r.columns["warmup"] == 3);  // warm-up until steady: the iterations it used
  CHECK(r.columns["input"] == 224);
  CHECK(r.columns["target_ci"] == 0.02);
  CHECK(r.columns["stop_reason"] == "ci");
  CHECK(r.columns["ci_rel"] == 0.015);
  CHECK(r.columns["floor_gflops"] == 120.5);
  CHECK(r.columns["other_cpu"] == 0.25);
  CHECK(r.columns["steal_cpu"] == 0.0);
  CHECK(r.columns["cpu_share"] == 0.97);
  CHECK(r.columns["contended"] == 0);
  // A fixed run of an older rlx (no warmup_used) keeps the configuration's counts.
  RunRecord fixed = rlx::store::run_record({{"model", "m"}, {"warmup", 1}, {"iters", 4}}, {{"ok", true}});
  CHECK(fixed.columns["warmup"] == 1);
  CHECK(fixed.columns["iters"] == 4);
}

TEST_CASE("run_record maps cuda_graphs to its column (issue 46), written and read back") {
  const Json config = {{"model", "m"}, {"batch", 2}, {"cuda_graphs", true}};
  RunRecord graphed = rlx::store::run_record(config, {{"ok", true}, {"cuda_graphs", true}});
  CHECK(graphed.columns["cuda_graphs"] == 1);
  RunRecord eager = rlx::store::run_record({{"model", "m"}}, {{"ok", true}, {"cuda_graphs", false}});
  CHECK(eager.columns["cuda_graphs"] == 0);
  // A result from before the option has none: unknown, not "eager".
  RunRecord older = rlx::store::run_record({{"model", "m"}}, {{"ok", true}});
  CHECK((!older.columns.contains("cuda_graphs") || older.columns["cuda_graphs"].is_null()));
  Store s(tmp_db("graphs.db"));
  add_env(s);
  RunRecord r = record("m1", 2, 1);
  r.columns["cuda_graphs"] = 1;
  s.put_run(r);
  const auto rows = s.runs({});
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]["cuda_graphs"] == 1);
}
