// test_data_parallel.cpp: data-parallel training on c10d (train/data_parallel.h, gradient_sync.h):
// the averaged gradient of 2 ranks equals one process's over the global batch; parameters stay
// identical across ranks; the wire form and the run's summary. The ranks are threads of this test,
// each with its own Gloo process group over one in-memory store (c10d's HashStore).
// LibTorch first: its glog CHECK would otherwise replace Catch2's (test_sgd.cpp).
#include <torch/torch.h>

#include <cstdlib>
#include <thread>

#include "models/model_spec.h"
#include "models/torch_model.h"
#include "train/data_parallel.h"
#include "train/gradient_sync.h"
#include "train/run_failure.h"

#ifdef RLX_HAVE_C10D
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include "train/c10d_group.h"
#endif

#include <catch2/catch.hpp>

using namespace rlx::train;

namespace {

// BatchNorm normalizes with each rank's own batch statistics (as DDP without SyncBatchNorm), so
// the gradient identity holds for a model without it.
nlohmann::json model_without_bn() {
  return nlohmann::json::parse(R"({"name": "no_bn", "layers": [
      {"kind": "conv", "out": 6, "k": 3, "pad": 1}, {"kind": "relu"},
      {"kind": "conv", "out": 8, "k": 3, "pad": 1, "stride": 2}, {"kind": "relu"},
      {"kind": "adaptive_avgpool", "out": 1}, {"kind": "flatten"}, {"kind": "linear"}]})");
}

nlohmann::json model_with_bn() {
  return nlohmann::json::parse(R"({"name": "bn", "layers": [
      {"kind": "conv", "out": 6, "k": 3, "pad": 1}, {"kind": "bn"}, {"kind": "relu"},
      {"kind": "adaptive_avgpool", "out": 1}, {"kind": "flatten"}, {"kind": "linear"}]})");
}

}  // namespace

#ifdef RLX_HAVE_C10D
namespace {

constexpr int64_t kBatch = 4, kSide = 12, kClasses = 5;

std::unique_ptr<GradientSync::Group> gloo_group(const c10::intrusive_ptr<c10d::Store>& store, int rank, int ranks) {
  auto group = std::make_unique<GradientSync::Group>();
  group->pg = c10::make_intrusive<c10d::ProcessGroup>(store, rank, ranks);
  auto options = c10d::ProcessGroupGloo::Options::create(std::chrono::seconds(60));
  options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  auto gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(c10::make_intrusive<c10d::PrefixStore>("gloo", store), rank,
                                                          ranks, options);
  group->pg->setBackend(c10::DeviceType::CPU, c10d::ProcessGroup::BackendType::GLOO, gloo);
  group->pg->setDefaultBackend(c10d::ProcessGroup::BackendType::GLOO);
  group->backend = "gloo";
  return group;
}

std::shared_ptr<rlx::models::Net> seeded_net(const nlohmann::json& model, uint64_t seed) {
  torch::manual_seed(seed);
  auto net = rlx::models::build_module(rlx::models::from_option(model, kClasses, kSide));
  net->train();
  return net;
}

std::vector<torch::Tensor> grads_of(rlx::models::Net& net) {
  std::vector<torch::Tensor> g;
  for (const auto& p : net.parameters()) g.push_back(p.grad().detach().clone());
  return g;
}

// Each rank (a thread) trains its slice of every global batch for `steps` SGD steps; returns
// each rank's gradients of the last step and its parameters after it.
struct RankOutcome {
  std::vector<torch::Tensor> grads, params;
  CommFigures figures;
};

std::vector<RankOutcome> train_ranks_in_threads(const nlohmann::json& model, const torch::Tensor& x,
                                                const torch::Tensor& y, int ranks, int steps) {
  auto store = c10::make_intrusive<c10d::HashStore>();
  std::vector<std::shared_ptr<rlx::models::Net>> nets;
  // Different seeds: rank 0's initial parameters must reach the others by GradientSync's broadcast.
  for (int r = 0; r < ranks; ++r) nets.push_back(seeded_net(model, 11 + static_cast<uint64_t>(r)));
  std::vector<RankOutcome> out(static_cast<size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      auto& net = *nets[static_cast<size_t>(r)];
      GradientSync sync(gloo_group(store, r, ranks));
      sync.attach(net.parameters(), net.buffers());
      sync.count_from_here();
      torch::optim::SGD sgd(net.parameters(), torch::optim::SGDOptions(0.1));
      for (int s = 0; s < steps; ++s) {
        sgd.zero_grad();
        sync.before_forward();
        const auto xs = x[s].narrow(0, r * kBatch, kBatch), ys = y[s].narrow(0, r * kBatch, kBatch);
        auto loss = torch::nn::functional::cross_entropy(net.forward(xs), ys);
        sync.before_backward(loss);
        loss.backward();
        sync.after_backward();
        if (s + 1 < steps) sgd.step();
      }
      auto& o = out[static_cast<size_t>(r)];
      o.grads = grads_of(net);
      for (const auto& p : net.parameters()) o.params.push_back(p.detach().clone());
      o.figures = sync.figures();
    });
  }
  for (auto& t : threads) t.join();
  return out;
}

}  // namespace

TEST_CASE("data-parallel: the gradient of 2 ranks x batch B is one process's on batch 2B (within 1e-5)") {
  at::set_num_threads(1);
  const int ranks = 2, steps = 3;
  torch::manual_seed(3);
  const auto x = torch::randn({steps, ranks * kBatch, 3, kSide, kSide});
  const auto y = torch::randint(0, kClasses, {steps, ranks * kBatch});
  const auto outcome = train_ranks_in_threads(model_without_bn(), x, y, ranks, steps);

  // One process, rank 0's initial parameters (seed 11), the whole global batch, the same steps.
  auto one = seeded_net(model_without_bn(), 11);
  torch::optim::SGD sgd(one->parameters(), torch::optim::SGDOptions(0.1));
  for (int s = 0; s < steps; ++s) {
    sgd.zero_grad();
    torch::nn::functional::cross_entropy(one->forward(x[s]), y[s]).backward();
    if (s + 1 < steps) sgd.step();
  }
  const auto reference = grads_of(*one);
  REQUIRE(outcome[0].grads.size() == reference.size());
  for (size_t i = 0; i < reference.size(); ++i) {
    const double scale = std::max(1.0, reference[i].abs().max().item<double>());
    for (int r = 0; r < ranks; ++r) {
      const double diff = (outcome[static_cast<size_t>(r)].grads[i] - reference[i]).abs().max().item<double>();
      INFO("parameter " << i << ", rank " << r);
      CHECK(diff <= 1e-5 * scale);
    }
  }
  // Every bucket all-reduced the whole gradient: 4 bytes per fp32 parameter value.
  int64_t values = 0;
  for (const auto& g : reference) values += g.numel();
  CHECK(outcome[0].figures.grad_bytes_per_step == 4 * values);
  CHECK(outcome[0].figures.param_bytes == 4 * values);
  CHECK(outcome[0].figures.backend == "gloo");
  CHECK(outcome[0].figures.allreduce_s > 0);
  CHECK(outcome[0].figures.exposed_comm_s >= 0);
  CHECK(outcome[0].figures.exposed_comm_s <= outcome[0].figures.allreduce_s + 1e-9);  // part of the time in flight
}

TEST_CASE("data-parallel: parameters stay bit-identical across ranks after 5 steps (BatchNorm model)") {
  at::set_num_threads(1);
  const int ranks = 2, steps = 5;
  torch::manual_seed(4);
  const auto x = torch::randn({steps, ranks * kBatch, 3, kSide, kSide});
  const auto y = torch::randint(0, kClasses, {steps, ranks * kBatch});
  const auto outcome = train_ranks_in_threads(model_with_bn(), x, y, ranks, steps);
  for (size_t i = 0; i < outcome[0].params.size(); ++i) {
    INFO("parameter " << i);
    CHECK(torch::equal(outcome[0].params[i], outcome[1].params[i]));
  }
}

TEST_CASE("data-parallel: rank 0 decides for every rank (GradientSync::agree)") {
  auto store = c10::make_intrusive<c10d::HashStore>();
  bool seen[2] = {};
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r)
    threads.emplace_back([&, r] {
      GradientSync sync(gloo_group(store, r, 2));
      seen[r] = sync.agree(r == 0);  // rank 0 says stop, rank 1 says go on
    });
  for (auto& t : threads) t.join();
  CHECK(seen[0]);
  CHECK(seen[1]);
}
#endif

TEST_CASE("data-parallel: the configuration and result cross the wire unchanged") {
  TrainConfig c;
  c.model = model_with_bn();
  c.batch = 7;
  c.ranks = 3;
  c.target_ci = 0.02;
  c.stability.max_cv = 0.3;
  c.label = "a label";
  const TrainConfig back = config_from_wire(nlohmann::json::parse(config_to_wire(c).dump()));
  CHECK(back.model == c.model);
  CHECK(back.batch == 7);
  CHECK(back.ranks == 3);
  CHECK(back.target_ci == 0.02);
  CHECK(back.stability.max_cv == 0.3);
  CHECK(back.label == "a label");

  TrainResult r;
  r.ok = true;
  r.samples = {0.5, 0.25};
  r.iter_s.mean = 0.375;
  r.ci_rel = std::nan("");
  r.comm.allreduce_s = 0.125;
  r.comm.host = "node-7";
  const TrainResult rb = result_from_wire(nlohmann::json::parse(result_to_wire(r).dump()));
  CHECK(rb.ok);
  CHECK(rb.samples == r.samples);
  CHECK(rb.iter_s.mean == 0.375);
  CHECK(std::isnan(rb.ci_rel));
  CHECK(rb.comm.allreduce_s == 0.125);
  CHECK(rb.comm.host == "node-7");
}

TEST_CASE("data-parallel: the run's summary, worked out by hand") {
  TrainResult a, b;
  a.iter_s.mean = 0.5;
  a.threads = 1;
  a.device = b.device = "cpu";
  a.images_per_s = 16;
  b.images_per_s = 15;
  a.max_rss_bytes = 1000;
  b.max_rss_bytes = 600;
  a.device_max_bytes = b.device_max_bytes = -1;
  a.comm = {"gloo", 0, "host-a", 10, "0,1", 0.2, 0.05, 0.01, 4000, 2, 26214400, 4000};
  b.comm = {"gloo", 1, "host-a", 11, "2,3", 0.19, 0.04, 0.01, 4000, 2, 26214400, 4000};
  const auto s = data_parallel_summary({a, b}, "local");
  CHECK(s["ranks"] == 2);
  CHECK(s["comm_share"].get<double>() == Approx(0.4));      // 0.2 / 0.5
  CHECK(s["exposed_share"].get<double>() == Approx(0.1));   // 0.05 / 0.5
  CHECK(s["total_max_rss_bytes"] == 1600);
  CHECK(s["total_device_max_bytes"] == -1);  // CPU: no device memory
  CHECK(s["grad_bytes_per_step"] == 4000);
  CHECK(s["per_rank"][1]["pid"] == 11);
  CHECK(s["per_rank"][1]["images_per_s"] == 15);
}

TEST_CASE("data-parallel: a rank's context from its environment") {
  ::unsetenv(kRankStoreEnv);
  CHECK_FALSE(rank_context_from_env().has_value());
  ::setenv(kRankStoreEnv, "127.0.0.1:29500", 1);
  ::setenv(kRanksEnv, "2", 1);
  ::setenv(kRankEnv, "1", 1);
  ::unsetenv(kRankLauncherEnv);
  auto ctx = rank_context_from_env();
  REQUIRE(ctx.has_value());
  CHECK(ctx->rank == 1);
  CHECK(ctx->ranks == 2);
  CHECK(ctx->store_port == 29500);
  CHECK(ctx->launcher == "local");
  ::setenv(kRankEnv, "2", 1);
  CHECK_THROWS_WITH(rank_context_from_env(), Catch::Contains("rank < ranks"));
  ::setenv(kRankStoreEnv, "nohost", 1);
  CHECK_THROWS_WITH(rank_context_from_env(), Catch::Contains("host:port"));
  for (const char* v : {kRankStoreEnv, kRanksEnv, kRankEnv}) ::unsetenv(v);
}

TEST_CASE("a run failure's fix crosses as data: from a rank's result to the launcher's, and to JSON", "[train]") {
  const RunFailure plain("rank 1 ended without a result");
  CHECK(std::string(plain.what()) == "rank 1 ended without a result");
  CHECK(plain.fix_option.empty());
  // The message is the Lua API's words; the cause and the fix are fields.
  const RunFailure f("device 'cuda' is not available: no CUDA GPU is visible", "device", "cpu");
  CHECK(std::string(f.what()) == "device 'cuda' is not available: no CUDA GPU is visible; use device=\"cpu\"");
  TrainResult rank;
  f.fill(rank);
  CHECK_FALSE(rank.ok);
  CHECK(rank.error == f.what());
  // Through the wire a rank's result takes back to the launcher, then said of that rank.
  const TrainResult back = result_from_wire(nlohmann::json::parse(result_to_wire(rank).dump()));
  const RunFailure launcher = RunFailure::of_rank("rank 1 of 2 failed: ", back);
  CHECK(std::string(launcher.what()) ==
        "rank 1 of 2 failed: device 'cuda' is not available: no CUDA GPU is visible; use device=\"cpu\"");
  CHECK(launcher.cause == "rank 1 of 2 failed: device 'cuda' is not available: no CUDA GPU is visible");
  CHECK(launcher.fix_option == "device");
  CHECK(launcher.fix_value == "cpu");
  // A rank's failure without a fix keeps its text and gains none.
  TrainResult oom;
  oom.error = "out of memory (host): lower batch, input or workers";
  CHECK(RunFailure::of_rank("rank 0 of 2 failed: ", oom).fix_option.empty());
  // The stored form (rlx.train's result) says the fix beside the error.
  TrainResult r;
  launcher.fill(r);
  const nlohmann::json j = to_json(TrainConfig{}, r);
  CHECK(j["error_fix"] == nlohmann::json{{"option", "device"}, {"value", "cpu"}});
  CHECK(j["error_cause"] == launcher.cause);
}
