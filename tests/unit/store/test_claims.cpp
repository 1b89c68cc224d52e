// test_claims.cpp: claims of engine/store against a real SQLite file: a slot is claimed in its own
// transaction, a live claim keeps others off it, a claim whose process is gone is retried up to
// max_attempts deaths and then marked crashed (never after the OOM killer), the finished run
// replaces its claim keeping claimed_at and the attempt, and a released claim frees the slot.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <fstream>

#include "fresh_db.h"
#include "store/store.h"

using rlx::store::Json;
using rlx::store::RunRecord;
using rlx::store::Store;

namespace {

std::string tmp_db(const std::string& name) {
  return rlx::test::fresh_db_path("store-claims", name);
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

// Issue 25: a slot whose process died is retried (max_attempts = 2: the first try and one retry),
// then left alone; every death is kept in the row's deaths column.
TEST_CASE("a dead claimer's slot is retried once, then marked crashed with its deaths") {
  Store s(tmp_db("crashed.db"));
  setup(s);
  auto c = s.claim(slot());
  long long ghost = dead_pid();
  s.exec("UPDATE runs SET pid = ? WHERE id = ?", Json::array({ghost, c.id}));
  auto peek = s.peek_claim(slot());  // what a dry run shows; nothing written
  CHECK(peek.state == "claimed");
  CHECK(peek.retry);
  CHECK(s.runs({})[0]["status"] == "running");
  auto second = s.claim(slot());
  CHECK(second.state == "claimed");
  CHECK(second.retry);
  CHECK(second.crashed_now);
  CHECK(second.attempt == 2);
  REQUIRE(second.deaths.size() == 1);
  CHECK(second.deaths[0]["cause"] == "unknown");
  CHECK(second.deaths[0]["attempt"] == 1);
  CHECK(second.deaths[0]["pid"] == ghost);
  auto row = s.runs({})[0];
  CHECK(row["status"] == "running");
  CHECK(row["attempt"] == 2);
  CHECK(Json::parse(row["deaths"].get<std::string>()).size() == 1);
  // The retry dies too: the second death reaches max_attempts.
  long long ghost2 = dead_pid();
  s.exec("UPDATE runs SET pid = ? WHERE id = ?", Json::array({ghost2, second.id}));
  auto third = s.claim(slot());
  CHECK(third.state == "crashed");
  CHECK(third.stop == "limit");
  CHECK(third.crashed_now);
  CHECK(third.deaths.size() == 2);
  row = s.runs({})[0];
  CHECK(row["status"] == "crashed");
  CHECK(row["error"].get<std::string>().find(fmt::format("crashed: process {} on host ", ghost2)) == 0);
  CHECK(row["error"].get<std::string>().find("stopped and nothing recorded how") != std::string::npos);
  CHECK(row["finished_at"].is_string());
  auto later = s.claim(slot());
  CHECK(later.state == "crashed");
  CHECK_FALSE(later.crashed_now);
  rlx::store::ClaimOptions three;
  three.max_attempts = 3;
  CHECK(s.peek_claim(slot(), three).state == "claimed");
  auto retry = s.claim(slot(), three);
  CHECK(retry.state == "claimed");
  CHECK(retry.attempt == 3);
  CHECK(s.release_claim(retry.id));
  CHECK_FALSE(s.release_claim(retry.id));
  // Withdrawing the retry (an interrupt, no death) gives the crashed row back, deaths and all
  // (issue 35 item 6: it used to delete the row, and with it the slot's crash history).
  row = s.runs({})[0];
  CHECK(row["status"] == "crashed");
  CHECK(row["attempt"] == 2);
  CHECK(Json::parse(row["deaths"].get<std::string>()).size() == 2);
  CHECK(s.claim(slot()).state == "crashed");
  CHECK(s.claim(slot(), three).attempt == 3);
  CHECK(s.integrity_check() == "ok");
}

TEST_CASE("an interrupted retry keeps the crash history, so max_attempts still trips") {
  Store s(tmp_db("interrupted_retry.db"));
  setup(s);
  const std::string host = rlx::store::process_columns().value("host", "");
  auto first = s.claim(slot());
  Json kill9 = {{"cause", "signal"}, {"signal", 9}, {"signal_name", "SIGKILL"}};
  REQUIRE(s.record_death(getpid(), host, kill9).size() == 1);
  const std::string crashed_error = s.runs({})[0]["error"];
  auto retry = s.claim(slot());
  REQUIRE(retry.state == "claimed");
  CHECK(retry.attempt == 2);
  // Ctrl-C during the retry: the process withdraws its claim itself, or its supervisor does.
  SECTION("release_claim") {
    CHECK(s.release_claim(retry.id));
  }
  SECTION("release_claims_of") {
    CHECK(s.release_claims_of(getpid(), host).size() == 1);
  }
  auto row = s.runs({})[0];
  CHECK(row["status"] == "crashed");
  CHECK(row["attempt"] == 1);
  CHECK(row["error"] == crashed_error);
  REQUIRE(Json::parse(row["deaths"].get<std::string>()).size() == 1);
  auto again = s.claim(slot());
  CHECK(again.state == "claimed");
  CHECK(again.retry);
  CHECK(again.attempt == 2);
  REQUIRE(again.deaths.size() == 1);
  CHECK(again.deaths[0]["signal_name"] == "SIGKILL");
  // The retry dies too: two deaths reach max_attempts (2), so the slot stops.
  s.record_death(getpid(), host, kill9);
  auto stop = s.claim(slot());
  CHECK(stop.state == "crashed");
  CHECK(stop.stop == "limit");
  CHECK(stop.deaths.size() == 2);
}

TEST_CASE("a zombie claimer is dead: its slot is retried, not left to it") {
  // A child that exits and is not reaped stays a zombie: kill(pid, 0) still succeeds for it
  // (issue 35 item 1: after kill -9 of the supervising rlx, its child was one for about a second
  // and the next run left the slot to it).
  pid_t zombie = fork();
  if (zombie == 0) _exit(0);
  std::string state;
  for (int i = 0; i < 5000 && state != "Z"; ++i) {
    std::ifstream stat(fmt::format("/proc/{}/stat", zombie));
    std::string line;
    std::getline(stat, line);
    state = line.substr(line.rfind(')') + 2, 1);
    if (state != "Z") usleep(1000);
  }
  REQUIRE(state == "Z");
  CHECK(kill(zombie, 0) == 0);
  CHECK_FALSE(rlx::store::claim_process_alive(zombie, rlx::store::utc_now()));
  Store s(tmp_db("zombie.db"));
  setup(s);
  auto c = s.claim(slot());
  s.exec("UPDATE runs SET pid = ? WHERE id = ?", Json::array({static_cast<long long>(zombie), c.id}));
  auto retry = s.claim(slot());
  CHECK(retry.state == "claimed");
  CHECK(retry.retry);
  CHECK(retry.attempt == 2);
  waitpid(zombie, nullptr, 0);
}

TEST_CASE(
    "record_death marks a dead process's claims with the cause, and an OOM kill stops its configuration") {
  Store s(tmp_db("death.db"));
  setup(s);
  s.claim(slot());
  const std::string host = rlx::store::process_columns().value("host", "");
  Json death = {
      {"cause", "oom"}, {"oom", true}, {"signal", 9}, {"signal_name", "SIGKILL"}, {"evidence", "E"}};
  auto labels = s.record_death(getpid(), host, death);
  REQUIRE(labels.size() == 1);
  CHECK(labels[0] == kLabel);
  CHECK(s.record_death(getpid(), host, death).empty());  // nothing left running
  auto row = s.runs({})[0];
  CHECK(row["status"] == "crashed");
  CHECK(row["error"] ==
        fmt::format("crashed: process {} on host {} was killed by the kernel's OOM killer (SIGKILL; E) "
                    "while training (claimed at {}); nothing of that attempt was stored",
                    getpid(), host, row["claimed_at"].get<std::string>()));
  Json deaths = Json::parse(row["deaths"].get<std::string>());
  REQUIRE(deaths.size() == 1);
  CHECK(deaths[0]["attempt"] == 1);
  CHECK(deaths[0]["signal"] == 9);
  // Not retried, though it died once (max_attempts 2): the same configuration would be killed again.
  auto again = s.claim(slot());
  CHECK(again.state == "crashed");
  CHECK(again.stop == "oom");
  // Nor is another repeat of the configuration tried; nothing is written for it.
  RunRecord repeat2 = slot();
  repeat2.repeat = 2;
  auto sibling = s.claim(repeat2);
  CHECK(sibling.state == "crashed");
  CHECK(sibling.stop == "oom");
  CHECK(sibling.holder["label"] == kLabel);
  CHECK(s.runs({}).size() == 1);
  rlx::store::ClaimOptions retry;
  retry.retry_crashed = true;
  auto forced = s.claim(slot(), retry);
  CHECK(forced.state == "claimed");
  CHECK(forced.attempt == 2);
  CHECK(s.claim(repeat2, retry).state == "claimed");
}

TEST_CASE("release_claims_of withdraws every claim of an interrupted process") {
  Store s(tmp_db("release_of.db"));
  setup(s);
  s.claim(slot());
  RunRecord other = slot();
  other.repeat = 2;
  other.label = "lab_m_fp32_bs2_run2";
  s.claim(other);
  const std::string host = rlx::store::process_columns().value("host", "");
  CHECK(s.release_claims_of(getpid(), host).size() == 2);
  CHECK(s.runs({}).empty());
}

TEST_CASE("death_text says how a process ended") {
  using rlx::store::death_text;
  CHECK(death_text({{"cause", "signal"}, {"signal_name", "SIGSEGV"}}) == "was killed by SIGSEGV");
  CHECK(death_text({{"cause", "signal"}, {"signal_name", "SIGKILL"}, {"evidence", "not the OOM killer"}}) ==
        "was killed by SIGKILL (not the OOM killer)");
  CHECK(death_text({{"cause", "exit"}, {"exit_code", 3}}) == "exited with status 3");
  CHECK(death_text({{"cause", "oom"}, {"oom", true}}) == "was killed by the kernel's OOM killer");
  CHECK(death_text({{"cause", "unknown"}}).rfind("stopped and nothing recorded how", 0) == 0);
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
  // Taken over: its death is unknown, and a first death is retried.
  auto taken = s.claim(slot(), stale);
  CHECK(taken.state == "claimed");
  CHECK(taken.retry);
  REQUIRE(taken.deaths.size() == 1);
  CHECK(taken.deaths[0]["cause"] == "unknown");
  CHECK(taken.deaths[0]["host"] == "elsewhere");
}

TEST_CASE("process liveness: this process is alive, a reaped child and pid 0 are not") {
  std::string now = rlx::store::utc_now();
  CHECK(rlx::store::claim_process_alive(getpid(), now));
  CHECK_FALSE(rlx::store::claim_process_alive(dead_pid(), now));
  CHECK_FALSE(rlx::store::claim_process_alive(0, now));
  // A live pid that started after the claim is a reused pid: the claimer is gone.
  CHECK_FALSE(rlx::store::claim_process_alive(getpid(), "2000-01-01T00:00:00Z"));
}
