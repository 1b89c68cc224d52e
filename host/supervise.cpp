// supervise.cpp: see supervise.h. The parent reads the memory cgroup's OOM kill count before the
// fork and after the child ended; the child announces each database it claims a slot in ("claim"
// and the absolute path, one line); after a death the parent opens those databases and marks the
// child's `running` claims crashed with the cause (store::Store::record_death), so the next sweep
// knows whether to retry the slot (claims.cpp) and the user sees what happened.
#include "supervise.h"

#include <signal.h>

#include <cstdio>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "env/memory.h"
#include "startup/traits.h"
#include "store/store.h"
#include "util/printable.h"

namespace rlx::host {
namespace {

constexpr const char* kClaimMessage = "claim\t";

void record(const util::ChildEnd& end, long long oom_before) {
  std::set<std::string> dbs;
  for (const auto& m : end.messages)
    if (m.rfind(kClaimMessage, 0) == 0) dbs.insert(m.substr(std::string(kClaimMessage).size()));
  if (dbs.empty()) return;
  // Ctrl-C, SIGTERM, SIGHUP: the child stopped on purpose (128 + the signal). A claim it could
  // not withdraw itself (the signal came between two runs) is withdrawn here, as it would have.
  const bool interrupted = end.exited && (end.exit_code == 128 + SIGINT || end.exit_code == 128 + SIGTERM ||
                                          end.exit_code == 128 + SIGHUP);
  const long long oom_after = env::cgroup_oom_kills().value_or(-1);
  const nlohmann::json death = death_of(end, oom_before, oom_after);
  const std::string host = store::process_columns().value("host", "");
  for (const auto& path : dbs) {
    store::OpenOptions o;
    o.create = false;
    store::Store s(path, o);
    if (interrupted) {
      for (const auto& label : s.release_claims_of(end.pid, host))
        std::fprintf(
            stderr,
            "rlx: %s: not finished (exit status %d); its claim in %s was withdrawn, so the same command "
            "trains it again\n",
            util::printable(label).c_str(), end.exit_code, util::printable(path).c_str());
      continue;
    }
    // The OOM killer's slots are not retried at the same configuration (store/claims.cpp).
    const char* next = death.value("oom", false) ? "the same command goes on without it: lower its batch size"
                                                 : "run the same command again to retry it";
    for (const auto& label : s.record_death(end.pid, host, death))
      std::fprintf(
          stderr,
          "rlx: %s: process %d %s while training it; marked crashed in %s (%s; docs/study.md, \"Crashed "
          "slots\")\n",
          util::printable(label).c_str(), static_cast<int>(end.pid), store::death_text(death).c_str(),
          util::printable(path).c_str(), next);
  }
}

}  // namespace

nlohmann::json death_of(const util::ChildEnd& end, long long oom_before, long long oom_after) {
  nlohmann::json d = store::death_entry(0, end.exited ? "exit" : "signal", end.pid, "");
  d.erase("attempt");  // record_death sets each row's own
  d.erase("host");
  if (end.exited) {
    d["exit_code"] = end.exit_code;
    return d;
  }
  d["signal"] = end.signal;
  d["signal_name"] = util::signal_name(end.signal);
  std::string evidence;
  if (end.signal == SIGKILL) {
    if (oom_before >= 0 && oom_after > oom_before) {
      d["oom"] = true;
      evidence = fmt::format("the memory cgroup's oom_kill count went {} -> {}", oom_before, oom_after);
    } else if (env::kernel_log_oom_killed(end.pid).value_or(false)) {
      d["oom"] = true;
      evidence = fmt::format("the kernel log: Killed process {}", end.pid);
    } else if (oom_before >= 0 && oom_after >= 0) {
      evidence = fmt::format(
          "not the OOM killer: the memory cgroup's oom_kill count stayed at {}; kill -9 or a time "
          "limit",
          oom_after);
    }
  } else if (end.core_dumped) {
    evidence = "core dumped";
  }
  if (d["oom"] == true) d["cause"] = "oom";
  if (!evidence.empty()) d["evidence"] = evidence;
  return d;
}

void tell_claim(const std::string& db_path) {
  if (!util::supervised()) return;
  static std::set<std::string> told;
  std::error_code ec;
  const std::string path = std::filesystem::absolute(db_path, ec).lexically_normal().string();
  if (ec || !told.insert(path).second) return;
  util::tell_supervisor(kClaimMessage + path);
}

void supervise_command(const std::string& command) {
  if (!startup::traits_of(command).supervised) return;
  const long long oom_before = env::cgroup_oom_kills().value_or(-1);
  util::supervise([oom_before](const util::ChildEnd& end) { record(end, oom_before); });
}

}  // namespace rlx::host
