// test_attempts.cpp: every attempt of a slot stays (issue 55 point 4). A rerun, a forced redo or
// the retry of a failed run replaces the slot's row in `runs` as before, and the row it replaces
// is kept in run_attempts in the same transaction: its columns and result, its samples, its
// attempt number, the run that superseded it and why. `runs` holds one run per slot, so every
// count of runs is unchanged; merge carries the attempts and never counts them as runs.
#include <catch2/catch.hpp>

#include "fresh_db.h"
#include "store/store.h"

using rlx::store::Json;
using rlx::store::RunRecord;
using rlx::store::Store;

namespace {

std::string tmp_db(const std::string& name) { return rlx::test::fresh_db_path("store-attempts", name); }

long long count(Store& s, const std::string& table) {
  return s.query("SELECT count(*) AS n FROM " + table)[0]["n"].get<long long>();
}

void setup(Store& s) {
  s.put_environment({{"id", "e"}, {"label", "lab"}});
  s.put_study("s");
}

// Run 1 of m at batch 2: images/s `ips`, samples `samples`, steady or not; `because` is the
// sweep's reason for training it again (result.rerun_because), "" for none.
RunRecord run(double ips, std::vector<double> samples, bool stable, const std::string& because = "") {
  Json result = {{"ok", true}, {"images_per_s", ips}, {"samples", samples},
                 {"stability", {{"stable", stable}}}, {"floor_gflops", 400.0}};
  if (!because.empty()) result["rerun_because"] = because;
  RunRecord r = rlx::store::run_record({{"model", "m"}, {"batch", 2}}, result);
  // Assigned as strings, not as char pointers: GCC 12 warns (-Wrestrict) about its own inlined
  // copy of a short literal into a string built from a json (a known false positive).
  r.study = std::string("s");
  r.environment_id = std::string("e");
  r.label = std::string("lab_m_fp32_bs2_run1");
  r.repeat = 1;
  return r;
}

}  // namespace

TEST_CASE("a rerun keeps the attempt it replaces, with its row, samples, number and reason") {
  Store s(tmp_db("rerun.db"));
  setup(s);
  const std::string first = s.put_run(run(8.73, {0.2, 0.3}, false));
  const std::string second = s.put_run(run(12.24, {0.16, 0.17, 0.16}, true, "unsteady"));
  // runs is as before: one row for the slot, the rerun's.
  CHECK(count(s, "runs") == 1);
  CHECK(s.query("SELECT id, attempt FROM runs")[0] == Json({{"id", second}, {"attempt", 2}}));
  CHECK(count(s, "samples") == 3);
  REQUIRE(count(s, "run_attempts") == 1);
  Json a = s.query("SELECT * FROM run_attempts")[0];
  CHECK(a["id"] == first);
  CHECK(a["attempt"] == 1);
  CHECK(a["status"] == "ok");
  CHECK(a["images_per_s"] == 8.73);
  CHECK(a["floor_gflops"] == 400.0);
  CHECK(a["superseded_by"] == second);
  CHECK(a["why"] == "unsteady");
  CHECK(a["label"] == "lab_m_fp32_bs2_run1");
  CHECK(a["repeat"] == 1);
  CHECK(Json::parse(a["samples"].get<std::string>()) == Json({0.2, 0.3}));
  Json row = Json::parse(a["row"].get<std::string>());
  CHECK(row["stable"] == 0);
  CHECK(row["images_per_s"] == 8.73);
  CHECK(row["result"]["images_per_s"] == 8.73);  // the result JSON, parsed
  CHECK(row["config"]["model"] == "m");
  // A third attempt (a forced redo, no reason given) keeps the second as attempt 2.
  const std::string third = s.put_run(run(12.0, {0.17}, true));
  CHECK(count(s, "runs") == 1);
  CHECK(s.query("SELECT attempt FROM runs")[0]["attempt"] == 3);
  Json kept = s.query("SELECT id, attempt, why, superseded_by FROM run_attempts ORDER BY attempt");
  REQUIRE(kept.size() == 2);
  CHECK(kept[1] == Json({{"id", second}, {"attempt", 2}, {"why", "redone"}, {"superseded_by", third}}));
  CHECK(s.integrity_check() == "ok");
}

TEST_CASE("a failed run claimed again is kept as a failed attempt; a claim itself is not an attempt") {
  Store s(tmp_db("failed.db"));
  setup(s);
  RunRecord bad = run(0, {}, false);
  bad.status = "failed";
  bad.columns["error"] = "out of memory";
  const std::string failed = s.put_run(bad);
  RunRecord slot = run(0, {}, false);
  slot.result = Json::object();
  slot.samples.clear();
  rlx::store::Claim c = s.claim(slot, {});
  REQUIRE(c.state == "claimed");
  CHECK(c.attempt == 2);
  Json a = s.query("SELECT id, attempt, status, why, superseded_by FROM run_attempts");
  REQUIRE(a.size() == 1);
  CHECK(a[0] == Json({{"id", failed}, {"attempt", 1}, {"status", "failed"}, {"why", "failed"},
                      {"superseded_by", c.id}}));
  RunRecord done = run(10, {0.1, 0.1}, true);
  done.id = c.id;
  done.columns["attempt"] = c.attempt;
  s.put_run(done);  // replaces its own claim: nothing more is kept
  CHECK(count(s, "run_attempts") == 1);
  CHECK(s.query("SELECT status, attempt FROM runs")[0] == Json({{"status", "ok"}, {"attempt", 2}}));
}

TEST_CASE("merge carries the attempts, once, and never as runs") {
  std::string a = tmp_db("merge-a.db"), out = tmp_db("merge-out.db"), old = tmp_db("merge-old.db");
  std::string first, second;
  {
    Store sa(a);
    setup(sa);
    first = sa.put_run(run(8.73, {0.2, 0.3}, false));
    // An older copy of the same database: the first attempt still its slot's run.
    Store so(old);
    setup(so);
    RunRecord same = run(8.73, {0.2, 0.3}, false);
    same.id = first;
    so.put_run(same);
    second = sa.put_run(run(12.24, {0.16}, true, "contended"));
  }
  Store o(out);
  auto st = o.merge_from(a);
  CHECK(st.runs == 1);
  CHECK(st.run_attempts == 1);
  CHECK(o.count_runs("s").n == 1);
  auto again = o.merge_from(a);
  CHECK(again.runs + again.run_attempts == 0);
  // The older copy's run is the attempt the output keeps: it comes back neither as a run nor as a
  // conflict.
  auto from_old = o.merge_from(old);
  CHECK(from_old.runs == 0);
  CHECK(from_old.conflicts.empty());
  CHECK(count(o, "runs") == 1);
  CHECK(o.query("SELECT id FROM runs")[0]["id"] == second);
  CHECK(o.query("SELECT id, why FROM run_attempts")[0] == Json({{"id", first}, {"why", "contended"}}));
  CHECK(o.integrity_check() == "ok");
}

TEST_CASE("an older copy merged first: its run becomes the attempt when the rerun arrives") {
  std::string a = tmp_db("late-a.db"), old = tmp_db("late-old.db"), out = tmp_db("late-out.db");
  std::string first;
  {
    Store so(old);
    setup(so);
    first = so.put_run(run(8.73, {0.2}, false));
  }
  {
    Store sa(a);
    setup(sa);
    RunRecord same = run(8.73, {0.2}, false);
    same.id = first;
    sa.put_run(same);
    sa.put_run(run(12.24, {0.16}, true, "unsteady"));
  }
  Store o(out);
  o.merge_from(old);
  auto st = o.merge_from(a);
  // The output's run of the slot is the first attempt; the input holds the rerun there (ok vs ok):
  // skipped, as any ok run over an ok slot, and the first attempt stays the slot's run.
  CHECK(st.run_attempts == 0);  // the input's attempt is the output's run: not copied beside it
  CHECK(count(o, "runs") == 1);
  CHECK(o.query("SELECT id FROM runs")[0]["id"] == first);
}
