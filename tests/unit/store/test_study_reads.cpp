// test_study_reads.cpp: the small reads the Lua modules use (study_reads.cpp) against a real
// SQLite file: slot statuses (all, or only the runs not ok), deleting runs with their children,
// run counts per study, environments with another label, a run's details and the study names.
#include <catch2/catch.hpp>

#include "fresh_db.h"
#include "store/records.h"
#include "store/store.h"

using rlx::store::Json;
using rlx::store::RunRecord;
using rlx::store::Store;

namespace {

// One file per test case: ctest runs the cases in parallel.
std::string fresh_db(const std::string& name) {
  return rlx::test::fresh_db_path("store-study-reads", name + ".db");
}

RunRecord run(const std::string& study, const std::string& env, const std::string& label, int batch,
              bool ok) {
  Json config = {{"model", "m"}, {"precision", "fp32"}, {"batch", batch}, {"device", "cpu"}};
  Json result = {{"ok", ok}, {"images_per_s", 10.0}};
  if (ok)
    result["counters"] = {{"source", "perf"}, {"values", {{"cycles", 5.0e9}, {"instructions", 8.0e9}}}};
  else
    result["error"] = "out of memory";
  RunRecord r = rlx::store::run_record(config, result);
  r.study = study;
  r.environment_id = env;
  r.label = label;
  r.complexity = {{"params", 7}, {"train_flops", 100.0}};
  return r;
}

}  // namespace

TEST_CASE("slot statuses, counts and deleting runs") {
  Store s(fresh_db("slots"));
  s.put_environment({{"id", "e1"}, {"label", "box"}, {"host", "h1"}});
  s.put_environment({{"id", "e2"}, {"label", "gpu"}, {"host", "h2"}});
  s.put_study("s1");
  s.put_study("a0");
  const std::string ok1 = s.put_run(run("s1", "e1", "r1", 2, true));
  const std::string bad = s.put_run(run("s1", "e1", "r2", 4, false));
  s.put_run(run("a0", "e2", "r3", 2, true));

  CHECK(s.slot_statuses().size() == 3);
  Json notok = s.slot_statuses(true);
  REQUIRE(notok.size() == 1);
  CHECK(notok[0]["id"] == bad);
  CHECK(notok[0]["study"] == "s1");
  CHECK(notok[0]["env"] == "box");
  CHECK(notok[0]["run"] == 1);
  CHECK(notok[0]["status"] == "failed");

  auto c = s.count_runs("s1");
  CHECK(c.n == 2);
  CHECK(c.ok == 1);
  CHECK(s.count_runs().n == 3);
  CHECK(s.count_runs().ok == 2);
  CHECK(s.count_runs("none").n == 0);
  CHECK(s.count_runs("none").ok == 0);

  CHECK(s.delete_runs({bad, "no-such-id"}) == 1);
  CHECK(s.count_runs("s1").n == 1);
  CHECK(s.slot_statuses(true).empty());
  CHECK(s.delete_runs({}) == 0);

  Json d = s.run_details(ok1);
  REQUIRE(d["counters"].size() == 2);
  CHECK(d["counters"][0]["name"] == "cycles");  // ordered by source, then name
  CHECK(d["counters"][0]["value"] == 5.0e9);
  CHECK(d["counters"][1]["name"] == "instructions");
  CHECK(d["roofline_points"].empty());
  CHECK(d["complexity"]["params"] == 7);
  Json none = s.run_details(bad);  // deleted with its children
  CHECK(none["counters"].empty());
  CHECK(none["complexity"].is_null());
}

TEST_CASE("environments with another label and study names") {
  Store s(fresh_db("names"));
  CHECK(s.study_names().empty());
  s.put_environment({{"id", "e1"}, {"label", "box"}, {"host", "h1"}});
  s.put_environment({{"id", "e2"}, {"label", "docker"}, {"host", "h2"}});
  s.put_study("zeta");
  s.put_study("alpha");
  Json others = s.environments_except("box");
  REQUIRE(others.size() == 1);
  CHECK(others[0]["id"] == "e2");
  CHECK(others[0]["label"] == "docker");
  CHECK(s.environments_except("other").size() == 2);
  CHECK(s.study_names() == std::vector<std::string>{"alpha", "zeta"});
}
