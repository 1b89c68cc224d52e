// rank_process.cpp: `rlx _rank`, one rank of a data-parallel run (data_parallel.h). It joins the
// run's TCPStore, reads the configuration the launcher put there, forms the c10d process group
// (Gloo for the CPU's tensors; NCCL for a CUDA device's where LibTorch has it), trains its slice
// (trainer.cpp train_in_group) and posts its result; an error it can name is posted too, so the
// launcher reports the rank's own words rather than its exit status.
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <iostream>

#include <fmt/format.h>

#include "train/data_parallel.h"
#include "train/gradient_sync.h"
#include "train/run_failure.h"
#include "util/interrupt.h"

#ifdef RLX_HAVE_C10D
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef RLX_HAVE_C10D_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include "train/c10d_group.h"
#endif

namespace rlx::train {

#ifdef RLX_HAVE_C10D
namespace {

std::string text_of(const std::vector<uint8_t>& bytes) {
  return {bytes.begin(), bytes.end()};
}

std::vector<uint8_t> bytes_of(const std::string& text) {
  return {text.begin(), text.end()};
}

// Gloo carries the CPU's tensors (and the decisions of GradientSync::agree on a CPU run), NCCL a
// GPU's: PyTorch's "cpu:gloo,cuda:nccl".
std::unique_ptr<GradientSync::Group> form_group(const c10::intrusive_ptr<c10d::Store>& store, const RankContext& ctx,
                                                const TrainConfig& c) {
  const std::chrono::milliseconds timeout(kCollectiveTimeoutS * 1000);
  auto group = std::make_unique<GradientSync::Group>();
  group->pg = c10::make_intrusive<c10d::ProcessGroup>(store, ctx.rank, ctx.ranks);
  auto options = c10d::ProcessGroupGloo::Options::create(timeout);
  // Locally every rank is on this machine: loopback, whatever the host name resolves to.
  options->devices.push_back(ctx.launcher == "local" ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                                                     : c10d::ProcessGroupGloo::createDefaultDevice());
  auto gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(c10::make_intrusive<c10d::PrefixStore>("gloo", store),
                                                          ctx.rank, ctx.ranks, options);
  group->pg->setBackend(c10::DeviceType::CPU, c10d::ProcessGroup::BackendType::GLOO, gloo);
  group->pg->setDefaultBackend(c10d::ProcessGroup::BackendType::GLOO);
  group->backend = "gloo";
  if (ranks_on_cuda(c)) {
#ifdef RLX_HAVE_C10D_NCCL
    auto nccl_options = c10d::ProcessGroupNCCL::Options::create();
    nccl_options->timeout = timeout;
    auto nccl = c10::make_intrusive<c10d::ProcessGroupNCCL>(c10::make_intrusive<c10d::PrefixStore>("nccl", store),
                                                            ctx.rank, ctx.ranks, nccl_options);
    group->pg->setBackend(c10::DeviceType::CUDA, c10d::ProcessGroup::BackendType::NCCL, nccl);
    group->pg->setDefaultBackend(c10d::ProcessGroup::BackendType::NCCL);
    group->backend = "nccl";
    group->device = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(ctx.local_rank));
#else
    // The launcher refuses this first (plan_launch); a rank whose device the launcher could not see
    // (device "auto" under srun from a machine without a GPU) says it with the same fix, as data.
    throw RunFailure(
        "this rlx was built without c10d's NCCL process group (no nccl.h at build time): a data-parallel run "
        "on GPUs needs it; rebuild with NVIDIA's NCCL headers",
        "device", "cpu");
#endif
  }
  return group;
}

void post(c10d::Store& store, const std::string& key, const std::string& text) {
  store.set(key, bytes_of(text));
}

}  // namespace

// Local ranks: the CPUs the launcher gave this rank (RLX_RANK_CPUS), before any thread starts, so
// every thread LibTorch and Gloo make inherits them. Returns the list as given ("" when none).
std::string pin_to_given_cpus() {
  const char* list = std::getenv(kRankCpusEnv);
  if (!list || !*list) return "";
  cpu_set_t set;
  CPU_ZERO(&set);
  const std::string text = list;
  size_t at = 0;
  while (at < text.size()) {
    const size_t comma = text.find(',', at);
    const int cpu = std::atoi(text.substr(at, comma == std::string::npos ? std::string::npos : comma - at).c_str());
    if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &set);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return sched_setaffinity(0, sizeof set, &set) == 0 ? text : "";
}

int run_rank_process() {
  // The launcher ends a rank with SIGTERM (or SIGKILL): a rank has nothing to save, and one
  // waiting in a collective would never look at rlx's interrupt flag.
  signal(SIGTERM, SIG_DFL);
  signal(SIGINT, SIG_DFL);
  const std::string pinned = pin_to_given_cpus();
  std::optional<RankContext> ctx;
  try {
    ctx = rank_context_from_env();
  } catch (const std::invalid_argument& e) {
    std::cerr << "rlx _rank: " << e.what() << "\n";
    return 2;
  }
  if (!ctx) {
    std::cerr << "rlx _rank: a rank of a data-parallel run is started by rlx itself (rlx.train{ranks=N}), "
                 "not by hand\n";
    return 2;
  }
  c10::intrusive_ptr<c10d::Store> store;
  try {
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(ctx->store_port);
    options.isServer = false;
    options.timeout = std::chrono::milliseconds(kCollectiveTimeoutS * 1000);
    store = c10::make_intrusive<c10d::TCPStore>(ctx->store_host, options);
  } catch (const std::exception& e) {
    std::cerr << fmt::format("rlx rank {}: cannot reach the run's store at {}:{}: {}\n", ctx->rank, ctx->store_host,
                             ctx->store_port, e.what());
    return 1;
  }
  try {
    post(*store, fmt::format("started/{}", ctx->rank), std::to_string(getpid()));
    TrainConfig config = config_from_wire(nlohmann::json::parse(text_of(store->get("config"))));
    config.progress = config.progress && ctx->rank == 0;
    GradientSync sync(form_group(store, *ctx, config));
    TrainResult r = train_in_group(config, sync, ctx->local_rank);
    r.comm.rank = ctx->rank;
    r.comm.host = this_host();
    r.comm.pid = getpid();
    r.comm.cpus = pinned;
    post(*store, fmt::format("result/{}", ctx->rank), result_to_wire(r).dump());
    return r.ok ? 0 : 1;
  } catch (const RunFailure& e) {
    // A failure with its fix as data goes back as a failed result, so the launcher keeps the fix.
    TrainResult r;
    e.fill(r);
    try {
      post(*store, fmt::format("result/{}", ctx->rank), result_to_wire(r).dump());
    } catch (const std::exception&) {
    }
    std::cerr << fmt::format("rlx rank {}: {}\n", ctx->rank, r.error);
    return 1;
  } catch (const std::exception& e) {
    const std::string what = e.what();
    const std::string message = what.substr(0, what.find('\n'));
    try {
      post(*store, fmt::format("error/{}", ctx->rank), message);
    } catch (const std::exception&) {
    }
    std::cerr << fmt::format("rlx rank {}: {}\n", ctx->rank, message);
    return 1;
  }
}

#else

int run_rank_process() {
  std::cerr << "rlx _rank: this rlx was built without LibTorch's c10d (LibTorch 2.10 or newer with Gloo's "
               "headers): it cannot train data-parallel\n";
  return 1;
}

#endif

}  // namespace rlx::train
