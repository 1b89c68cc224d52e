// rank_launch.cpp: the launching side of a data-parallel run (data_parallel.h). It trains nothing:
// it serves the run's c10d TCPStore, starts the ranks, watches them and makes one result of theirs.
//
// A rank that ends without its result (killed, crashed, failed to start) ends the run at once: the
// others get SIGTERM, then SIGKILL after kRankGraceS, and the run is ok = false with that rank
// named. Ctrl-C or SIGTERM to rlx ends every rank the same way, then rlx's own interrupt follows.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "train/data_parallel.h"
#include "train/gradient_sync.h"
#include "train/process_usage.h"
#include "train/run_failure.h"
#include "util/cpu_quota.h"
#include "util/cpu_stat.h"
#include "util/interrupt.h"
#include "util/supervisor.h"

#ifdef RLX_HAVE_C10D
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/torch.h>
#endif

extern char** environ;

namespace rlx::train {

#ifdef RLX_HAVE_C10D
namespace {

using Clock = std::chrono::steady_clock;

// How the ranks are started: under a Slurm allocation with enough tasks, one srun step whose
// tasks are the ranks; otherwise this executable, once per rank, on this machine.
struct LaunchPlan {
  std::string launcher;  // "local" or "slurm"
  std::string store_host;
  int64_t threads = 1;  // per rank
};

std::optional<long> env_long(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return *end == '\0' ? std::optional<long>(n) : std::nullopt;
}

// Refuses ranks this machine (or allocation) cannot hold, with the reason and the fix; sets the
// threads per rank: the usable CPUs split between the ranks unless `threads` was given.
LaunchPlan plan_launch(const TrainConfig& c) {
  LaunchPlan p;
  const auto slurm_tasks = std::getenv("SLURM_JOB_ID") ? env_long("SLURM_NTASKS") : std::nullopt;
  p.launcher = slurm_tasks && *slurm_tasks >= c.ranks ? "slurm" : "local";
  p.store_host = p.launcher == "local" ? "127.0.0.1" : this_host();
  if (c.device.rfind("cuda", 0) == 0 && !ranks_on_cuda(c))
    throw RunFailure(fmt::format("device '{}' is not available: no CUDA GPU is visible to this rlx (rlx env lists "
                                 "the devices)",
                                 c.device),
                     "device", "cpu");
#ifndef RLX_HAVE_C10D_NCCL
  // Refused before any rank starts, with the fix as data (the CLI says it as --device cpu).
  if (ranks_on_cuda(c))
    throw RunFailure(
        "this rlx was built without c10d's NCCL process group (no nccl.h at build time): a data-parallel run on "
        "GPUs needs it; rebuild with NVIDIA's NCCL headers",
        "device", "cpu");
#endif
  if (ranks_on_cuda(c)) {
#ifdef RLX_HAVE_TORCH_CUDA
    const auto gpus = static_cast<int64_t>(torch::cuda::device_count());
    if (p.launcher == "local" && c.ranks > gpus)
      throw RunFailure(fmt::format("ranks={} needs one GPU per rank, and {} GPU(s) are visible (cuda:0..cuda:{}): "
                                   "lower ranks to {}, or train on device=\"cpu\"",
                                   c.ranks, gpus, gpus - 1, gpus));
#endif
    p.threads = c.threads > 0 ? c.threads : 1;
    return p;
  }
  if (p.launcher == "slurm") {
    p.threads = c.threads > 0 ? c.threads : std::max<long>(1, env_long("SLURM_CPUS_PER_TASK").value_or(1));
    return p;
  }
  const int cpus = util::usable_cpus(util::cpu_quota());
  if (c.ranks > cpus)
    throw RunFailure(fmt::format("ranks={} needs a CPU per rank, and this process may use {} CPU(s): lower ranks "
                                 "to {} or fewer",
                                 c.ranks, cpus, cpus));
  p.threads = c.threads > 0 ? c.threads : std::max<int64_t>(1, cpus / c.ranks);
  return p;
}

c10::intrusive_ptr<c10d::TCPStore> serve_store(const TrainConfig& c) {
  c10d::TCPStoreOptions o;
  o.port = static_cast<std::uint16_t>(c.rendezvous_port);
  o.isServer = true;
  o.waitWorkers = false;
  o.timeout = std::chrono::milliseconds(kCollectiveTimeoutS * 1000);
  try {
    return c10::make_intrusive<c10d::TCPStore>("0.0.0.0", o);
  } catch (const std::exception& e) {
    if (c.rendezvous_port == 0)
      throw RunFailure(fmt::format("the run's rendezvous store could not start: {}", std::string(e.what()).substr(0, 200)));
    throw RunFailure(fmt::format("rendezvous_port {} is in use (another run or program listens there): choose "
                                 "another rendezvous_port, or leave it unset for a free one",
                                 c.rendezvous_port));
  }
}

std::string self_executable() {
  char path[PATH_MAX] = {};
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) throw RunFailure("cannot find rlx's own executable (/proc/self/exe) to start the ranks");
  return std::string(path, static_cast<size_t>(n));
}

// This process's environment with the rank's variables set (any inherited ones replaced).
std::vector<std::string> rank_environment(const std::vector<std::pair<std::string, std::string>>& set) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const bool replaced = std::any_of(set.begin(), set.end(), [&](const auto& kv) {
      return entry.rfind(kv.first + "=", 0) == 0;
    });
    if (!replaced) env.push_back(entry);
  }
  for (const auto& [k, v] : set) env.push_back(k + "=" + v);
  return env;
}

pid_t spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env, bool search_path) {
  std::vector<char*> a, e;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  for (const auto& s : env) e.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  e.push_back(nullptr);
  pid_t pid = 0;
  const int rc = search_path ? posix_spawnp(&pid, a[0], nullptr, nullptr, a.data(), e.data())
                             : posix_spawn(&pid, a[0], nullptr, nullptr, a.data(), e.data());
  if (rc != 0)
    throw RunFailure(fmt::format("{} could not be started: '{}': {}{}", search_path ? "the ranks' srun" : "a rank",
                                 argv[0], std::strerror(rc),
                                 search_path ? " (is Slurm's srun on PATH?)"
                                             : " (was rlx rebuilt or moved while it ran? start the run again)"));
  return pid;
}

// The processes of the run: one per rank locally, one srun under Slurm (rank -1: all of them).
struct Child {
  pid_t pid = 0;
  int rank = -1;
  bool ended = false;
  int status = 0;
};

std::vector<Child> start_ranks(const TrainConfig& c, const LaunchPlan& plan, int port) {
  const std::string exe = self_executable();
  std::vector<std::pair<std::string, std::string>> vars = {
      {kRankStoreEnv, fmt::format("{}:{}", plan.store_host, port)},
      {kRanksEnv, std::to_string(c.ranks)},
      {kRankLauncherEnv, plan.launcher},
      // Each rank's OpenMP team is its share of the cores (rlx.train's threads, set by the rank).
      {"OMP_NUM_THREADS", std::to_string(plan.threads)}};
  std::vector<Child> children;
  if (plan.launcher == "slurm") {
    const std::vector<std::string> argv = {"srun", fmt::format("--ntasks={}", c.ranks),
                                           fmt::format("--cpus-per-task={}", plan.threads), "--kill-on-bad-exit=1",
                                           "--overlap", exe, "_rank"};
    children.push_back({spawn(argv, rank_environment(vars), true), -1});
    return children;
  }
  // Each rank pinned to CPUs of its own (its share of this process's, in order), as Slurm binds a
  // task to its CPUs: ranks left to float shared cores with each other's communication threads
  // (docs/benchmarks.md, "Data-parallel").
  const std::vector<int> cpus = util::allowed_cpus();
  // RLX_RANK_PIN=0 leaves them to the scheduler (the comparison in bench/data_parallel.sh).
  const char* pin_env = std::getenv("RLX_RANK_PIN");
  const bool pin = static_cast<int64_t>(cpus.size()) >= c.ranks * plan.threads &&
                   !(pin_env && std::string(pin_env) == "0");
  for (int rank = 0; rank < c.ranks; ++rank) {
    auto with_rank = vars;
    with_rank.emplace_back(kRankEnv, std::to_string(rank));
    if (pin) {
      std::string list;
      for (int64_t k = 0; k < plan.threads; ++k) {
        if (k > 0) list += ',';
        list += std::to_string(cpus[static_cast<size_t>(rank * plan.threads + k)]);
      }
      with_rank.emplace_back(kRankCpusEnv, list);
    }
    try {
      children.push_back({spawn({exe, "_rank"}, rank_environment(with_rank), false), rank});
    } catch (...) {
      for (auto& ch : children) kill(ch.pid, SIGKILL);
      for (auto& ch : children) waitpid(ch.pid, nullptr, 0);
      throw;
    }
  }
  return children;
}

// Ends every child still running: SIGTERM, then SIGKILL after the grace period; reaps them all.
void stop_all(std::vector<Child>& children) {
  for (auto& ch : children)
    if (!ch.ended) kill(ch.pid, SIGTERM);
  const auto deadline = Clock::now() + std::chrono::seconds(kRankGraceS);
  for (auto& ch : children) {
    while (!ch.ended) {
      const pid_t r = waitpid(ch.pid, &ch.status, WNOHANG);
      if (r == ch.pid || r < 0) {
        ch.ended = true;
        break;
      }
      if (Clock::now() > deadline) kill(ch.pid, SIGKILL);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
}

std::string ending_of(int status) {
  if (WIFSIGNALED(status))
    return fmt::format("was killed by signal {} ({})", WTERMSIG(status), util::signal_name(WTERMSIG(status)));
  return fmt::format("exited with status {}", WEXITSTATUS(status));
}

bool failed(int status) {
  return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

std::string key_text(c10d::TCPStore& store, const std::string& key) {
  if (!store.check({key})) return "";
  const auto bytes = store.get(key);
  return {bytes.begin(), bytes.end()};
}

// Waits until every child has ended; the first that failed (in rank order when several) is
// returned, and the rest are stopped at once. Ctrl-C stops them all and throws Interrupted.
std::optional<Child> wait_for_ranks(std::vector<Child>& children) {
  std::optional<Child> first_failure;
  for (;;) {
    if (util::interrupted()) {
      stop_all(children);
      util::check_interrupt();
    }
    bool all_ended = true;
    for (auto& ch : children) {
      if (ch.ended) continue;
      const pid_t r = waitpid(ch.pid, &ch.status, WNOHANG);
      if (r == 0) {
        all_ended = false;
        continue;
      }
      ch.ended = true;
      if (failed(ch.status) && !first_failure) first_failure = ch;
    }
    if (first_failure) {
      // A Ctrl-C reaches the ranks too (one foreground process group): theirs is rlx's interrupt.
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      if (util::interrupted()) {
        stop_all(children);
        util::check_interrupt();
      }
      stop_all(children);
      return first_failure;
    }
    if (all_ended) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// Why the run failed, in the failing rank's own words when it posted them.
RunFailure rank_failure(c10d::TCPStore& store, const Child& failure, int ranks) {
  for (int rank = 0; rank < ranks; ++rank) {
    if (failure.rank >= 0 && rank != failure.rank) continue;
    const std::string error = key_text(store, fmt::format("error/{}", rank));
    if (!error.empty()) return RunFailure(fmt::format("rank {} of {} failed: {}", rank, ranks, error));
    const std::string result = key_text(store, fmt::format("result/{}", rank));
    if (!result.empty()) {
      const TrainResult r = result_from_wire(nlohmann::json::parse(result));
      if (!r.ok) return RunFailure::of_rank(fmt::format("rank {} of {} failed: ", rank, ranks), r);
      continue;
    }
    const bool started = !key_text(store, fmt::format("started/{}", rank)).empty();
    if (failure.rank >= 0)
      return RunFailure(fmt::format("rank {} of {} {} {}; the other ranks were stopped", rank, ranks,
                                    ending_of(failure.status),
                                    started ? "while training" : "before it reached the run's store"));
    return RunFailure(fmt::format("rank {} of {} ended without a result (srun {}); the other ranks were stopped", rank,
                                  ranks, ending_of(failure.status)));
  }
  return RunFailure(fmt::format("a rank {}; the other ranks were stopped", ending_of(failure.status)));
}

// Rank 0 measured the machine's other load as everything but itself, its sibling ranks included:
// the run's contention is what remains once their CPU time is taken out too (locally; under Slurm
// the ranks on other nodes were never in rank 0's count).
void subtract_sibling_ranks(const std::vector<TrainResult>& ranks, TrainResult& r) {
  if (r.other_cpu < 0) return;
  double siblings = 0;
  const std::string host = ranks.front().comm.host;
  for (size_t k = 1; k < ranks.size(); ++k)
    if (ranks[k].comm.host == host && ranks[k].wall_s > 0) siblings += (ranks[k].user_s + ranks[k].sys_s) / ranks[k].wall_s;
  r.other_cpu = std::max(0.0, r.other_cpu - siblings);
  // A rank's CPU share falls while it waits for its peers' gradients, which is the run's own
  // communication, not contention: only the other processes' load counts here.
  r.contended = r.device.rfind("cuda", 0) != 0 && r.other_cpu >= kContendedOtherPerThread * static_cast<double>(r.threads);
}

TrainResult combine(const TrainConfig& c, const std::vector<TrainResult>& ranks, const std::string& launcher) {
  TrainResult r = ranks.front();
  r.ranks = c.ranks;
  // The global rate: every rank's images over the slowest rank's measured time (the ranks step
  // together, so the slowest sets the pace).
  double slowest_s = 0;
  for (const auto& rank : ranks) slowest_s = std::max(slowest_s, rank.seconds);
  r.images_per_s = slowest_s > 0 ? static_cast<double>(c.ranks * c.batch) * static_cast<double>(r.samples.size()) /
                                       slowest_s
                                 : 0;
  r.data_parallel = data_parallel_summary(ranks, launcher);
  subtract_sibling_ranks(ranks, r);
  return r;
}

TrainResult launch(const TrainConfig& asked) {
  TrainConfig c = asked;
  const LaunchPlan plan = plan_launch(c);
  c.threads = plan.threads;
  auto store = serve_store(c);
  store->set("config", [&] {
    const std::string text = config_to_wire(c).dump();
    return std::vector<uint8_t>(text.begin(), text.end());
  }());
  std::vector<Child> children = start_ranks(c, plan, store->getPort());
  if (const auto failure = wait_for_ranks(children)) throw rank_failure(*store, *failure, c.ranks);
  std::vector<TrainResult> results;
  for (int rank = 0; rank < c.ranks; ++rank) {
    const std::string text = key_text(*store, fmt::format("result/{}", rank));
    if (text.empty()) throw RunFailure(fmt::format("rank {} of {} ended without a result", rank, c.ranks));
    results.push_back(result_from_wire(nlohmann::json::parse(text)));
    if (!results.back().ok)
      throw RunFailure::of_rank(fmt::format("rank {} of {} failed: ", rank, c.ranks), results.back());
  }
  return combine(c, results, plan.launcher);
}

}  // namespace

TrainResult train_ranks(const TrainConfig& config) {
  try {
    return launch(config);
  } catch (const RunFailure& e) {
    TrainResult r;
    e.fill(r);
    r.ranks = config.ranks;
    r.precision = config.precision;
    return r;
  }
}

#else

TrainResult train_ranks(const TrainConfig& config) {
  TrainResult r;
  r.ok = false;
  r.ranks = config.ranks;
  r.error = "this rlx was built without LibTorch's c10d (LibTorch 2.10 or newer, with Gloo's headers: "
            "scripts/setup.sh installs both): ranks > 1 cannot run; use ranks=1";
  return r;
}

#endif

}  // namespace rlx::train
