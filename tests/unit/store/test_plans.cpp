// test_plans.cpp: schema versions 6 and 7 against a real SQLite file: calibrations (one model's
// probe on a device and thread count, replaced by a newer probe of the same), a version 6 file's
// calibrations keyed by the threads their probes recorded, plans (recorded, finished, read back in
// order), their errors, and merge copying both once.
#include <catch2/catch.hpp>

#include "fresh_db.h"
#include "store/store.h"

using rlx::store::Json;
using rlx::store::Store;

namespace {

std::string fresh_db(const std::string& name) {
  return rlx::test::fresh_db_path("store-plans", name + ".db");
}

void with_env(Store& s, const std::string& id) {
  s.put_environment({{"id", id}, {"label", id}});
  s.put_study("st");
}

Json vgg(const std::string& format, double per_image, double margin) {
  return {{"device", "cpu"},         {"model", "vgg16"},
          {"precision", "fp32"},     {"input", 224},
          {"memory_format", format}, {"per_image_s", per_image},
          {"margin", margin},        {"probe", {{"batch", 4}, {"samples", {{"contiguous", {3.1, 3.0}}}}}}};
}

}  // namespace

TEST_CASE("calibrations: one row per model, precision, input and threads; a newer probe replaces it") {
  Store s(fresh_db("calib"));
  with_env(s, "e1");
  s.put_calibration("e1", vgg("channels_last", 1.10, 1.02));
  s.put_calibration("e1", vgg("contiguous", 0.75, 1.46));
  Json rows = s.calibrations("e1", "cpu");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]["memory_format"] == "contiguous");
  CHECK(rows[0]["per_image_s"] == 0.75);
  CHECK(rows[0]["margin"] == 1.46);
  CHECK(rows[0]["probe"]["batch"] == 4);  // decoded
  CHECK(rows[0]["probe"]["samples"]["contiguous"][1] == 3.0);
  CHECK(s.calibrations("e1", "cuda").empty());
  CHECK(s.calibrations("other", "cpu").empty());
}

TEST_CASE("calibrations: a CPU probe is kept per thread count; a GPU's has none") {
  Store s(fresh_db("calib-threads"));
  with_env(s, "e1");
  Json two = vgg("contiguous", 0.75, 1.46), one = vgg("channels_last", 1.40, 1.08),
       gpu = vgg("contiguous", 0.01, 1.2);
  two["probe"]["threads"] = 2;
  one["threads"] = 1;  // given directly rather than in the probe
  gpu["device"] = "cuda";
  gpu["probe"]["threads"] = 2;  // the host's threads: no key of a GPU probe
  s.put_calibration("e1", two);
  s.put_calibration("e1", one);
  s.put_calibration("e1", gpu);
  Json rows = s.calibrations("e1", "cpu");
  REQUIRE(rows.size() == 2);  // ordered by threads
  CHECK(rows[0]["threads"] == 1);
  CHECK(rows[0]["memory_format"] == "channels_last");
  CHECK(rows[1]["threads"] == 2);
  CHECK(rows[1]["memory_format"] == "contiguous");
  REQUIRE(s.calibrations("e1", "cuda").size() == 1);
  CHECK(s.calibrations("e1", "cuda")[0]["threads"] == 0);
  Json bad = vgg("contiguous", 0.75, 1.46);
  bad["threads"] = -1;
  CHECK_THROWS_WITH(s.put_calibration("e1", bad),
                    "put_calibration: field 'threads' must be an integer >= 0, got -1");
}

TEST_CASE("calibrations: a version 6 file keys each probe by the threads it recorded") {
  const std::string path = fresh_db("calib-v6");
  {
    rlx::store::OpenOptions o;
    o.migrate_to = 6;
    Store old(path, o);
    REQUIRE(old.schema_version() == 6);
    old.exec("INSERT INTO environments (id, label, info, first_seen) VALUES ('e1', 'e1', '{}', 't')");
    const char* insert =
        "INSERT INTO calibrations (environment_id, device, model, precision, input, memory_format, "
        "per_image_s, "
        "margin, probe, measured_at) VALUES ('e1', ?, ?, 'fp32', 224, 'contiguous', 0.75, 1.46, ?, 't')";
    old.exec(insert, Json::array({"cpu", "vgg16", R"({"batch": 2, "threads": 2})"}));
    old.exec(insert, Json::array({"cpu", "resnet50", R"({"batch": 2})"}));   // before probes recorded threads
    old.exec(insert, Json::array({"cpu", "mobilenet_v2", "not json"}));      // a probe that is not JSON
    old.exec(insert, Json::array({"cuda", "vgg16", R"({"threads": 16})"}));  // a GPU's: no threads in its key
  }
  {
    // Read-only (rlx env reading rlx train's cache): not migrated, no threads column, each probe
    // read as threads 0, which serves any count.
    rlx::store::OpenOptions ro;
    ro.readonly = true;
    Store r(path, ro);
    Json rows = r.calibrations("e1", "cpu");
    REQUIRE(rows.size() == 3);
    CHECK(rows[2]["model"] == "vgg16");
    CHECK(rows[2]["threads"] == 0);
    CHECK(r.schema_version() == 6);
  }
  Store s(path);
  REQUIRE(s.schema_version() == rlx::store::current_schema_version());  // 7 and later
  Json rows = s.calibrations("e1", "cpu");
  REQUIRE(rows.size() == 3);  // ordered by model
  CHECK(rows[0]["model"] == "mobilenet_v2");
  CHECK(rows[0]["threads"] == 0);
  CHECK(rows[1]["model"] == "resnet50");
  CHECK(rows[1]["threads"] == 0);
  CHECK(rows[2]["model"] == "vgg16");
  CHECK(rows[2]["threads"] == 2);
  CHECK(rows[2]["probe"]["batch"] == 2);
  CHECK(s.calibrations("e1", "cuda")[0]["threads"] == 0);
}

TEST_CASE("calibrations: a bad layout or time is refused, naming the field") {
  Store s(fresh_db("calib-bad"));
  with_env(s, "e1");
  CHECK_THROWS_WITH(s.put_calibration("e1", vgg("nhwc", 1.0, 1.0)),
                    "put_calibration: memory_format must be channels_last or contiguous, got 'nhwc'");
  CHECK_THROWS_WITH(s.put_calibration("e1", vgg("contiguous", 0, 1.0)),
                    "put_calibration: field 'per_image_s' must be a number > 0, got 0");
  Json no_model = vgg("contiguous", 1.0, 1.0);
  no_model.erase("model");
  CHECK_THROWS_WITH(s.put_calibration("e1", no_model), "put_calibration: field 'model' is required");
  CHECK(s.calibrations("e1", "cpu").empty());
}

TEST_CASE("calibrations: a row edited by hand is left out on read, and what was wrong is said, escaped") {
  // Issue 48 item 7: memory_format = 'bogus' || char(27) || '[2J' reached the terminal raw and the
  // trainer as an option the user never gave.
  Store s(fresh_db("calib_corrupt"));
  with_env(s, "e1");
  s.put_calibration("e1", vgg("contiguous", 0.75, 1.46));
  Json resnet = vgg("channels_last", 0.5, 1.2);
  resnet["model"] = "resnet18";
  s.put_calibration("e1", resnet);
  s.exec("UPDATE calibrations SET memory_format = 'bogus' || char(27) || '[2J' WHERE model = 'vgg16'");
  Json problems = Json::array();
  Json rows = s.calibrations("e1", "cpu", &problems);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]["model"] == "resnet18");
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] ==
        "database '" + s.path() +
            "': the cpu calibration of 'vgg16' ('fp32', input 224, threads 0) is unusable: "
            "memory_format 'bogus\\027[2J' is not channels_last or contiguous; it is ignored, and "
            "measured again where needed");
  s.exec("UPDATE calibrations SET memory_format = 'contiguous', per_image_s = -1 WHERE model = 'vgg16'");
  problems = Json::array();
  CHECK(s.calibrations("e1", "cpu", &problems).size() == 1);
  CHECK_THAT(problems[0].get<std::string>(),
             Catch::Contains("per_image_s -1.0 is not a number of seconds > 0"));
  s.exec("UPDATE calibrations SET per_image_s = 0.75, margin = 'x' WHERE model = 'vgg16'");
  problems = Json::array();
  CHECK(s.calibrations("e1", "cpu", &problems).size() == 1);
  CHECK_THAT(problems[0].get<std::string>(), Catch::Contains("margin 'x' is not a ratio > 0"));
  // A new probe replaces the bad row: both are usable again.
  s.put_calibration("e1", vgg("contiguous", 0.75, 1.46));
  problems = Json::array();
  CHECK(s.calibrations("e1", "cpu", &problems).size() == 2);
  CHECK(problems.empty());
}

TEST_CASE("plans: recorded before the runs, finished with the wall time, read back oldest first") {
  Store s(fresh_db("plans"));
  with_env(s, "e1");
  const std::string a = s.put_plan({{"study", "st"},
                                    {"environment_id", "e1"},
                                    {"budget_s", 1800},
                                    {"estimate_s", 1750.5},
                                    {"planned", 22},
                                    {"left_out", 5},
                                    {"detail", {{"add", "--set budget=40m"}}}});
  const std::string b = s.put_plan({{"study", "st"},
                                    {"environment_id", "e1"},
                                    {"budget_s", nullptr},
                                    {"estimate_s", 60},
                                    {"planned", 5},
                                    {"left_out", 0}});
  CHECK(a.size() == 32);
  CHECK(a != b);
  s.finish_plan(a, 1802.25, {{"add", "--set budget=40m"}, {"left_out_labels", {"x_run3"}}});
  Json rows = s.plans("st");
  REQUIRE(rows.size() == 2);
  CHECK(rows[0]["id"] == a);
  CHECK(rows[0]["wall_s"] == 1802.25);
  CHECK(rows[0]["estimate_s"] == 1750.5);
  CHECK(rows[0]["detail"]["left_out_labels"][0] == "x_run3");
  CHECK(rows[1]["budget_s"].is_null());
  CHECK(rows[1]["wall_s"].is_null());
  CHECK_THROWS_WITH(s.finish_plan("nope", 1, nullptr), "finish_plan: no plan 'nope' in this database");
  CHECK_THROWS_WITH(s.put_plan({{"study", "st"}}), "put_plan: field 'environment_id' is required");
}

TEST_CASE("merge copies calibrations and plans once") {
  const std::string in = fresh_db("merge-in"), out = fresh_db("merge-out");
  {
    Store s(in);
    with_env(s, "e1");
    s.put_calibration("e1", vgg("contiguous", 0.75, 1.46));
    s.put_plan({{"study", "st"}, {"environment_id", "e1"}, {"estimate_s", 10}});
  }
  Store o(out);
  auto st = o.merge_from(in);
  CHECK(st.calibrations == 1);
  CHECK(st.plans == 1);
  CHECK(o.calibrations("e1", "cpu").size() == 1);
  CHECK(o.plans("st").size() == 1);
  auto again = o.merge_from(in);
  CHECK(again.calibrations == 0);
  CHECK(again.plans == 0);
}
