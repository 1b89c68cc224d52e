// test_claims.cpp: claims of engine/store against a real SQLite file: a slot is claimed in its own
// transaction, a live claim keeps others off it, a claim whose process is gone is marked crashed
// and skipped unless retry_crashed, the finished run replaces its claim keeping claimed_at and the
// attempt, and a released claim frees the slot.
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "store/store.h"

namespace fs = std::filesystem;
using rlx::store::Json;
using rlx::store::RunRecord;
using rlx::store::Store;

namespace {

std::string tmp_db(const std::string& name) {
  fs::path dir = fs::path(RLX_TEST_TMP) / "store-claims";
  fs::create_directories(dir);
  fs::path p = dir / name;
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(p.string() + suffix);
  return p.string();
}

const std::string kStudy = "s", kEnv = "e", kLabel = "lab_m_fp32_bs2_run1";

RunRecord slot() {
  RunRecord r;
  r.study = kStudy;
  r.environment_id = kEnv;
  r.label = kLabel;
  r.config = {{"model", "m"}, {"batch", 2}};
  r.repeat = 1;
  return r;
}

void setup(Store& s) {
  s.put_environment({{"id", "e"}, {"label", "lab"}});
  s.put_study("s");
}

// The pid of a process that has exited (forked, reaped).
long long dead_pid() {
  pid_t pid = fork();
  if (pid == 0) _exit(0);
  waitpid(pid, nullptr, 0);
  return pid;
}

}  // namespace

TEST_CASE("a claim holds the slot for this live process; the finished run replaces it") {
  Store s(tmp_db("claim.db"));
  setup(s);
  auto c = s.claim(slot());
  REQUIRE(c.state == "claimed");
  CHECK(c.attempt == 1);
  auto row = s.runs({})[0];
  CHECK(row["status"] == "running");
  CHECK(row["pid"] == static_cast<long long>(getpid()));
  CHECK(row["claimed_at"].is_string());
  CHECK(row["finished_at"].is_null());
  CHECK(row["attempt"] == 1);
  auto again = s.claim(slot());
  CHECK(again.state == "busy");
  CHECK(again.holder["id"] == c.id);
  RunRecord done = rlx::store::run_record(slot().config, {{"ok", true}, {"images_per_s", 5}});
  done.study = kStudy;
  done.environment_id = kEnv;
  done.label = kLabel;
  done.id = c.id;
  s.put_run(done);
  auto rows = s.runs({});
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]["status"] == "ok");
  CHECK(rows[0]["id"] == c.id);
  CHECK(rows[0]["claimed_at"] == row["claimed_at"]);
  CHECK(rows[0]["attempt"] == 1);
  CHECK(s.claim(slot()).state == "done");
  rlx::store::ClaimOptions force;
  force.force = true;
  auto redo = s.claim(slot(), force);
  CHECK(redo.state == "claimed");
  CHECK(redo.id.empty());  // the ok run stays until its replacement is stored
  CHECK(s.runs({})[0]["status"] == "ok");
}

TEST_CASE("a claim whose process is gone is marked crashed; retrying is opt-in") {
  Store s(tmp_db("crashed.db"));
  setup(s);
  auto c = s.claim(slot());
  long long ghost = dead_pid();
  s.exec("UPDATE runs SET pid = ? WHERE id = ?", Json::array({ghost, c.id}));
  auto found = s.claim(slot());
  CHECK(found.state == "crashed");
  CHECK(found.crashed_now);
  auto row = s.runs({})[0];
  CHECK(row["status"] == "crashed");
  CHECK(row["error"].get<std::string>().find(fmt::format("crashed: process {} on host", ghost)) == 0);
  CHECK(row["finished_at"].is_string());
  auto later = s.claim(slot());
  CHECK(later.state == "crashed");
  CHECK_FALSE(later.crashed_now);
  rlx::store::ClaimOptions retry;
  retry.retry_crashed = true;
  auto second = s.claim(slot(), retry);
  CHECK(second.state == "claimed");
  CHECK(second.attempt == 2);
  CHECK(s.runs({})[0]["status"] == "running");
  s.release_claim(second.id);
  CHECK(s.runs({}).empty());
  CHECK(s.claim(slot()).state == "claimed");
  CHECK(s.integrity_check() == "ok");
}

TEST_CASE("another host's claim is live until stale_after_s") {
  Store s(tmp_db("otherhost.db"));
  setup(s);
  auto c = s.claim(slot());
  s.exec("UPDATE runs SET host = 'elsewhere', pid = 1, claimed_at = '2020-01-01T00:00:00Z' WHERE id = ?",
         Json::array({c.id}));
  CHECK(s.claim(slot()).state == "busy");
  rlx::store::ClaimOptions stale;
  stale.stale_after_s = 3600;
  CHECK(s.claim(slot(), stale).state == "crashed");
}

TEST_CASE("process liveness: this process is alive, a reaped child and pid 0 are not") {
  std::string now = rlx::store::utc_now();
  CHECK(rlx::store::claim_process_alive(getpid(), now));
  CHECK_FALSE(rlx::store::claim_process_alive(dead_pid(), now));
  CHECK_FALSE(rlx::store::claim_process_alive(0, now));
  // A live pid that started after the claim is a reused pid: the claimer is gone.
  CHECK_FALSE(rlx::store::claim_process_alive(getpid(), "2000-01-01T00:00:00Z"));
}
