// claims.cpp: a process claims a slot before it trains it (issue 17 items 4 and 8).
//
// Nothing of a run is written while it trains, so a process killed by the kernel's OOM killer
// used to leave no trace: every rerun trained the slot again and was killed again. Now a sweep
// first writes a `running` row for the slot (pid, host, claimed_at, attempt) in its own short
// transaction, then trains, then replaces that row with the finished run (put_run). A later
// claim that finds a `running` row checks its process: alive (same host: the pid exists and
// started before the claim) means another sweep is training it, so the slot is left to it;
// gone means the attempt crashed, and the row says so. Crashed slots are skipped unless the
// caller opts in (ClaimOptions::retry_crashed). Two sweeps on one study therefore split the work.
#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

#include "store/store.h"
#include "store/transaction.h"

namespace rlx::store {

namespace {

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ", or -1.
long long parse_utc(const std::string& text) {
  std::tm tm{};
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
                  &tm.tm_sec) != 6)
    return -1;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<long long>(timegm(&tm));
}

// When process pid started, in seconds since the epoch (boot time + field 22 of its stat), or -1.
long long process_start_s(long long pid) {
  std::ifstream stat(fmt::format("/proc/{}/stat", pid));
  std::string line;
  if (!std::getline(stat, line)) return -1;
  auto close = line.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return -1;
  std::istringstream fields(line.substr(close + 2));
  std::string f;
  for (int i = 3; i <= 22 && fields >> f; ++i) {
    if (i == 22) {
      std::ifstream proc_stat("/proc/stat");
      std::string key;
      long long btime = -1;
      while (proc_stat >> key)
        if (key == "btime" && proc_stat >> btime) break;
      if (btime < 0) return -1;
      return btime + std::stoll(f) / sysconf(_SC_CLK_TCK);
    }
  }
  return -1;
}

std::string this_host() {
  Json p = process_columns();
  return p.value("host", "");
}

}  // namespace

bool claim_process_alive(long long pid, const std::string& claimed_at) {
  if (pid <= 0) return false;
  if (kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM) return false;
  long long started = process_start_s(pid), claimed = parse_utc(claimed_at);
  // A process that started after the claim only reuses the pid (2 s for clock rounding).
  return started < 0 || claimed < 0 || started <= claimed + 2;
}

void Store::begin_waiting() {
  auto start = std::chrono::steady_clock::now();
  for (;;) {
    try {
      begin();
      return;
    } catch (const Error&) {
      int code = sqlite3_errcode(db().getHandle()) & 0xff;
      if (code != SQLITE_BUSY && code != SQLITE_LOCKED) throw;
    }
    auto waited = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start);
    fmt::print(stderr,
               "rlx: '{}' is locked by another process ({} s so far); waiting for it so that the run "
               "is not lost\n",
               path_, waited.count());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

Claim Store::claim(RunRecord slot, const ClaimOptions& options) {
  Claim c;
  slot.status = "running";
  slot.samples.clear();
  slot.counters.clear();
  slot.roofline = Json::array();
  slot.complexity = nullptr;
  std::string now = utc_now();
  slot.columns["claimed_at"] = now;
  slot.columns["started_at"] = now;
  slot.columns["finished_at"] = nullptr;
  Transaction tx(*this, "claim", true);
  Json row = this->slot(slot.study, slot.environment_id, content_hash(slot.config), slot.repeat);
  c.holder = row;
  if (!row.is_null()) {
    std::string status = row["status"];
    int attempt = row["attempt"].is_number() ? row["attempt"].get<int>() : 1;
    if (status == "ok") {
      c.state = options.force ? "claimed" : "done";  // force: the ok row stays until replaced
      tx.commit();
      return c;
    }
    if (status == "running") {
      std::string host = row["host"].is_string() ? row["host"].get<std::string>() : "";
      std::string at = row["claimed_at"].is_string() ? row["claimed_at"].get<std::string>() : "";
      bool alive = host == this_host()
                       ? claim_process_alive(row["pid"].is_number() ? row["pid"].get<long long>() : 0, at)
                       : !(options.stale_after_s > 0 && parse_utc(at) >= 0 &&
                           parse_utc(now) - parse_utc(at) > options.stale_after_s);
      if (alive) {
        c.state = "busy";
        tx.commit();
        return c;
      }
      std::string why = fmt::format(
          "crashed: process {} on host {} stopped while training (claimed at {}) without storing a result; "
          "killed (the kernel's OOM killer, kill -9) or lost. Rerun with retry_crashed = true to try again",
          row["pid"].is_number() ? std::to_string(row["pid"].get<long long>()) : "?", host.empty() ? "?" : host, at);
      exec("UPDATE runs SET status = 'crashed', error = ?, finished_at = ? WHERE id = ?",
           Json::array({why, now, row["id"]}));
      c.crashed_now = true;
      c.holder["status"] = "crashed";
      c.holder["error"] = why;
      status = "crashed";
    }
    if (status == "crashed" && !options.retry_crashed && !options.force) {
      c.state = "crashed";
      tx.commit();
      return c;
    }
    c.attempt = attempt + 1;
  }
  slot.columns["attempt"] = c.attempt;
  slot.id = new_run_id();
  prepare_run(slot);
  slot.columns["finished_at"] = nullptr;
  insert_run(slot);
  tx.commit();
  c.state = "claimed";
  c.id = slot.id;
  return c;
}

void Store::release_claim(const std::string& id) {
  Transaction tx(*this, "release_claim", true);
  exec("DELETE FROM runs WHERE id = ? AND status = 'running'", Json::array({id}));
  tx.commit();
}

}  // namespace rlx::store
