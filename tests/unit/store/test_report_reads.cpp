// test_report_reads.cpp: the reads a report needs (report_reads.cpp) against a real SQLite file:
// a study's environments (only those that ran it, info decoded), its runs' counters and
// complexity rows; another study's rows stay out, and no study means every study.
#include <catch2/catch.hpp>

#include "fresh_db.h"
#include "store/records.h"
#include "store/store.h"

using rlx::store::Json;
using rlx::store::RunRecord;
using rlx::store::Store;

namespace {

std::string fresh_db() {
  return rlx::test::fresh_db_path("store-report", "reads.db");
}

RunRecord run(const std::string& study, const std::string& env, const std::string& label, double flops) {
  Json config = {{"model", "m"}, {"precision", "fp32"}, {"batch", 2}, {"device", "cpu"}};
  Json result = {
      {"ok", true},
      {"images_per_s", 10.0},
      {"counters", {{"source", "ncu"}, {"values", Json::object()}, {"derived", {{"flops", flops}}}}}};
  RunRecord r = rlx::store::run_record(config, result);
  r.study = study;
  r.environment_id = env;
  r.label = label;
  r.complexity = {{"params", 7}, {"train_flops", 100.0}, {"memory_bytes", 50.0}, {"activation_bytes", 20.0}};
  return r;
}

}  // namespace

TEST_CASE("a study's environments, counters and complexity") {
  Store s(fresh_db());
  s.put_environment({{"id", "e1"}, {"label", "b-env"}, {"host", "h1"}, {"storage", {{"root_fs", "ext4"}}}});
  s.put_environment({{"id", "e2"}, {"label", "a-env"}, {"host", "h2"}});
  s.put_environment({{"id", "e3"}, {"label", "unused"}, {"host", "h3"}});
  s.put_study("s1");
  s.put_study("s2");
  const std::string id1 = s.put_run(run("s1", "e1", "r1", 2e9));
  s.put_run(run("s1", "e2", "r2", 3e9));
  s.put_run(run("s2", "e3", "r3", 4e9));

  Json envs = s.study_environments("s1");
  REQUIRE(envs.size() == 2);
  CHECK(envs[0]["label"] == "a-env");  // ordered by label; e3 ran only s2
  CHECK(envs[1]["label"] == "b-env");
  CHECK(envs[1]["info"]["storage"]["root_fs"] == "ext4");
  CHECK(s.study_environments("").size() == 3);

  Json counters = s.study_counters("s1");
  REQUIRE(counters.size() == 2);
  bool found = false;
  for (const auto& c : counters) {
    if (c["run_id"] == id1) {
      CHECK(c["name"] == "flops");
      CHECK(c["value"] == 2e9);
      CHECK(c["source"] == "ncu:derived");
      found = true;
    }
  }
  CHECK(found);

  Json cx = s.study_complexity("s2");
  REQUIRE(cx.size() == 1);
  CHECK(cx[0]["params"] == 7);
  CHECK(cx[0]["info"]["activation_bytes"] == 20.0);
  CHECK(s.study_complexity("").size() == 3);
  CHECK(s.study_counters("nope").empty());
}
