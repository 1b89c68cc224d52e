// claims.cpp: a process claims a slot before it trains it (issue 17 items 4 and 8), and a slot
// whose process died is retried a bounded number of times (issue 25).
//
// Nothing of a run is written while it trains, so a process killed by the kernel's OOM killer
// used to leave no trace: every rerun trained the slot again and was killed again. Now a sweep
// first writes a `running` row for the slot (pid, host, claimed_at, attempt) in its own short
// transaction, then trains, then replaces that row with the finished run (put_run). A later
// claim that finds a `running` row checks its process: alive (same host: the pid exists and
// started before the claim) means another sweep is training it, so the slot is left to it;
// gone means the attempt crashed, and the row says so. Two sweeps on one study split the work.
//
// Every death is kept in the row's `deaths` column (a JSON array, one entry per death: attempt,
// cause, signal, exit code, whether the OOM killer did it, and the evidence), carried from the
// crashed row to the claim that retries it and on to the finished run. The cause comes from the
// rlx process that supervised the dead one (util/supervisor.h, record_death below), which saw its
// exit status; when nobody recorded it, from what ClaimOptions::death_evidence finds, else it is
// "unknown". A crashed slot is claimed again while it has died fewer than max_attempts times,
// except after the OOM killer: the same configuration would be killed again, so neither that slot
// nor another repeat of its configuration is tried (unless retry_crashed or force).
#include <SQLiteCpp/SQLiteCpp.h>
#include <fmt/format.h>
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "store/store.h"
#include "store/transaction.h"

namespace rlx::store {

namespace {

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ", or -1.
long long parse_utc(const std::string& text) {
  std::tm tm{};
  if (std::sscanf(text.c_str(), "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec) != 6)
    return -1;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return static_cast<long long>(timegm(&tm));
}

// The fields of /proc/PID/stat after the command name (field 3, the state, first), or "".
std::string stat_fields(long long pid) {
  std::ifstream stat(fmt::format("/proc/{}/stat", pid));
  std::string line;
  if (!std::getline(stat, line)) return "";
  auto close = line.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos || close + 2 > line.size()) return "";
  return line.substr(close + 2);
}

// A zombie ('Z': it has exited, its parent has not reaped it yet) or a dying process ('X'):
// kill(pid, 0) still succeeds for it, but it will never finish a run (issue 35 item 1: after a
// kill -9 of the supervising rlx, its child stays a zombie until reaped).
bool has_exited(long long pid) {
  const std::string fields = stat_fields(pid);
  return !fields.empty() && (fields[0] == 'Z' || fields[0] == 'X');
}

// When process pid started, in seconds since the epoch (boot time + field 22 of its stat), or -1.
long long process_start_s(long long pid) {
  const std::string after_name = stat_fields(pid);
  if (after_name.empty()) return -1;
  std::istringstream fields(after_name);
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

std::string text_of(const Json& v, const char* fallback = "?") {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  return fallback;
}

// The row's deaths (the column holds JSON text); a crashed row of a database older than the
// column counts as one death of unknown cause.
Json row_deaths(const Json& row) {
  Json d = Json::array();
  if (row.contains("deaths") && row["deaths"].is_string()) {
    Json parsed = Json::parse(row["deaths"].get<std::string>(), nullptr, false);
    if (parsed.is_array()) d = parsed;
  }
  if (d.empty() && row.value("status", "") == "crashed") {
    Json e = death_entry(row["attempt"].is_number() ? row["attempt"].get<int>() : 1, "unknown",
                         row["pid"].is_number() ? row["pid"].get<long long>() : 0, text_of(row["host"], ""));
    if (row["error"].is_string()) e["error"] = row["error"];
    d.push_back(e);
  }
  return d;
}

int row_attempt(const Json& row) {
  return row["attempt"].is_number() ? row["attempt"].get<int>() : 1;
}

// The row's error text for a death: "crashed: process 123 on host h was killed by SIGKILL while
// training (claimed at ...); nothing of that attempt was stored".
std::string crash_error(const Json& row, const Json& death) {
  const Json& at = row.contains("claimed_at") ? row["claimed_at"] : Json();
  return fmt::format("crashed: process {} on host {} {} while training{}; nothing of that attempt was stored",
                     text_of(row["pid"]), text_of(row["host"]), death_text(death),
                     at.is_string() ? " (claimed at " + at.get<std::string>() + ")" : "");
}

// What claim() decides for the slot's row (null: no row). found: the death of a `running` row
// whose process is gone (null otherwise), not yet written.
Claim evaluate(const Json& row, const ClaimOptions& options, const std::string& now, Json* found) {
  Claim c;
  c.holder = row;
  *found = nullptr;
  if (row.is_null()) {
    c.state = "claimed";
    return c;
  }
  std::string status = row["status"];
  const int attempt = row_attempt(row);
  if (status == "ok") {
    c.state = options.force ? "claimed" : "done";  // force: the ok row stays until replaced
    return c;
  }
  c.deaths = row_deaths(row);
  if (status == "running") {
    const std::string host = text_of(row["host"], "");
    const std::string at = text_of(row["claimed_at"], "");
    const long long pid = row["pid"].is_number() ? row["pid"].get<long long>() : 0;
    const bool here = host == this_host();
    const bool alive = here ? claim_process_alive(pid, at)
                            : !(options.stale_after_s > 0 && parse_utc(at) >= 0 &&
                                parse_utc(now) - parse_utc(at) > options.stale_after_s);
    if (alive) {
      c.state = "busy";
      return c;
    }
    Json death = death_entry(attempt, "unknown", pid, host);
    death["claimed_at"] = row["claimed_at"];
    if (here && options.death_evidence) {
      Json more = options.death_evidence(pid);
      if (more.is_object()) death.update(more);
    }
    *found = death;
    c.deaths.push_back(death);
    c.crashed_now = true;
    c.holder["status"] = "crashed";
    c.holder["error"] = crash_error(row, death);
    c.holder["deaths"] = c.deaths.dump();
    status = "crashed";
  }
  c.attempt = attempt + 1;
  if (status == "crashed" && !options.retry_crashed && !options.force) {
    const Json& last = c.deaths.back();
    if (last.value("oom", false)) {
      c.state = "crashed";
      c.stop = "oom";
      return c;
    }
    if (static_cast<int>(c.deaths.size()) >= options.max_attempts) {
      c.state = "crashed";
      c.stop = "limit";
      return c;
    }
  }
  c.retry = status == "crashed";
  c.state = "claimed";
  return c;
}

// A crashed row of another repeat of the same configuration whose last death was the OOM
// killer's, or null: a repeat not yet tried would be killed the same way.
Json oom_sibling(Store& s, const RunRecord& slot) {
  for (const auto& r :
       s.query("SELECT id, status, label, pid, host, claimed_at, attempt, deaths, error FROM runs "
               "WHERE study = ? AND environment_id = ? AND config_key = ? AND repeat <> ? AND "
               "status = 'crashed' ORDER BY repeat",
               Json::array({slot.study, slot.environment_id, content_hash(slot.config), slot.repeat}))) {
    Json d = row_deaths(r);
    if (!d.empty() && d.back().value("oom", false)) return r;
  }
  return nullptr;
}

// The OOM killer ended another repeat of this configuration: this one is not tried either.
bool skip_after_sibling_oom(Store& s, const RunRecord& slot, const Json& row, const ClaimOptions& o,
                            Claim* c) {
  if (o.force || o.retry_crashed || !(row.is_null() || row["status"] == "failed")) return false;
  Json sibling = oom_sibling(s, slot);
  if (sibling.is_null()) return false;
  c->state = "crashed";
  c->stop = "oom";
  c->holder = sibling;
  c->deaths = row_deaths(sibling);
  return true;
}

// Undoes a running claim whose run will not be stored: the row of a first attempt is deleted; a
// retry's row becomes again the crashed row it was claimed from, deaths and attempt count kept,
// so the next run is the same retry and max_attempts still counts every death.
void withdraw(Store& s, const Json& row) {
  const Json deaths = row_deaths(row);
  if (deaths.empty()) {
    s.exec("DELETE FROM runs WHERE id = ? AND status = 'running'", Json::array({row["id"]}));
    return;
  }
  const Json& last = deaths.back();
  Json dead = row;
  dead["pid"] = last.value("pid", 0LL);
  dead["host"] = last.contains("host") ? last["host"] : row["host"];
  dead["claimed_at"] = last.contains("claimed_at") ? last["claimed_at"] : Json();
  s.exec("UPDATE runs SET status = 'crashed', attempt = ?, pid = ?, error = ?, finished_at = ? WHERE id = ?",
         Json::array({std::max(1, row_attempt(row) - 1), dead["pid"], crash_error(dead, last),
                      last.value("at", utc_now()), row["id"]}));
}

}  // namespace

Json death_entry(int attempt, const std::string& cause, long long pid, const std::string& host) {
  return {{"attempt", attempt}, {"cause", cause}, {"oom", cause == "oom"},
          {"pid", pid},         {"host", host},   {"at", utc_now()}};
}

std::string death_text(const Json& d) {
  const std::string cause = d.value("cause", "unknown");
  const std::string sig = d.value("signal_name", "");
  const std::string evidence = d.value("evidence", "");
  const std::string detail = sig.empty() ? evidence : (evidence.empty() ? sig : sig + "; " + evidence);
  const std::string paren = detail.empty() ? "" : " (" + detail + ")";
  if (cause == "oom" || d.value("oom", false)) return "was killed by the kernel's OOM killer" + paren;
  if (cause == "signal")
    return "was killed by " + (sig.empty() ? std::string("a signal") : sig) +
           (evidence.empty() ? "" : " (" + evidence + ")");
  if (cause == "exit")
    return fmt::format("exited with status {}{}", d.value("exit_code", -1),
                       evidence.empty() ? "" : " (" + evidence + ")");
  return "stopped and nothing recorded how (killed with SIGKILL together with the rlx process that "
         "supervised it, "
         "or the machine restarted)" +
         (evidence.empty() ? std::string() : " (" + evidence + ")");
}

bool claim_process_alive(long long pid, const std::string& claimed_at) {
  if (pid <= 0) return false;
  if (kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM) return false;
  if (has_exited(pid)) return false;
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
  Json found;
  Claim c;
  if (skip_after_sibling_oom(*this, slot, row, options, &c)) {
    tx.commit();
    return c;
  }
  c = evaluate(row, options, now, &found);
  if (c.crashed_now)
    exec("UPDATE runs SET status = 'crashed', error = ?, finished_at = ?, deaths = ? WHERE id = ?",
         Json::array({c.holder["error"], now, c.deaths.dump(), row["id"]}));
  if (c.state != "claimed" || (!row.is_null() && row["status"] == "ok")) {
    tx.commit();
    return c;
  }
  slot.columns["attempt"] = c.attempt;
  if (!c.deaths.empty()) slot.columns["deaths"] = c.deaths.dump();
  slot.id = new_run_id();
  prepare_run(slot);
  slot.columns["finished_at"] = nullptr;
  insert_run(slot);
  tx.commit();
  c.id = slot.id;
  return c;
}

Claim Store::peek_claim(const RunRecord& slot, const ClaimOptions& options) {
  Json row = this->slot(slot.study, slot.environment_id, content_hash(slot.config), slot.repeat);
  Json found;
  Claim c;
  if (skip_after_sibling_oom(*this, slot, row, options, &c)) return c;
  return evaluate(row, options, utc_now(), &found);
}

std::vector<std::string> Store::record_death(long long pid, const std::string& host, const Json& death) {
  Transaction tx(*this, "record_death", true);
  std::vector<std::string> labels;
  const std::string now = utc_now();
  for (const auto& row :
       query("SELECT id, label, pid, host, claimed_at, attempt, deaths FROM runs WHERE status = "
             "'running' AND pid = ? AND host = ?",
             Json::array({pid, host}))) {
    Json d = death;
    d["attempt"] = row_attempt(row);
    if (!d.contains("at")) d["at"] = now;
    d["claimed_at"] = row["claimed_at"];
    if (!d.contains("pid")) d["pid"] = pid;
    if (!d.contains("host")) d["host"] = host;
    Json deaths = row_deaths(row);
    deaths.push_back(d);
    exec("UPDATE runs SET status = 'crashed', error = ?, finished_at = ?, deaths = ? WHERE id = ?",
         Json::array({crash_error(row, d), now, deaths.dump(), row["id"]}));
    labels.push_back(text_of(row["label"]));
  }
  tx.commit();
  return labels;
}

std::vector<std::string> Store::release_claims_of(long long pid, const std::string& host) {
  Transaction tx(*this, "release_claims_of", true);
  std::vector<std::string> labels;
  for (const auto& row :
       query("SELECT id, label, status, pid, host, attempt, deaths FROM runs WHERE status = "
             "'running' AND pid = ? AND host = ?",
             Json::array({pid, host}))) {
    withdraw(*this, row);
    labels.push_back(text_of(row["label"]));
  }
  tx.commit();
  return labels;
}

bool Store::release_claim(const std::string& id) {
  Transaction tx(*this, "release_claim", true);
  const auto rows = query(
      "SELECT id, label, status, pid, host, attempt, deaths FROM runs WHERE id = ? AND "
      "status = 'running'",
      Json::array({id}));
  for (const auto& row : rows) withdraw(*this, row);
  tx.commit();
  return !rows.empty();
}

}  // namespace rlx::store
