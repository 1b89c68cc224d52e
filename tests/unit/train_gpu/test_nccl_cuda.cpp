// test_nccl_cuda.cpp: c10d's NCCL process group under rlx's GradientSync on a GPU (issue 52): a
// group of one rank (one GPU is what a GPU session has) must leave the gradient exactly as one
// process computes it (the all-reduce of one rank, divided by 1), with the bucket figures filled
// in. Without a CUDA device, or in a build without c10d's NCCL group, each case says so and passes:
// the CPU half (2 Gloo ranks) is tests/unit/train/test_data_parallel.cpp.
// LibTorch first: its glog CHECK would otherwise replace Catch2's (test_sgd_cuda.cpp).
#include <torch/torch.h>

#include "train/gradient_sync.h"

#if defined(RLX_HAVE_C10D_NCCL)
#include <torch/csrc/distributed/c10d/HashStore.hpp>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include "train/c10d_group.h"
#endif

#include <catch2/catch.hpp>

TEST_CASE("nccl: one rank's GradientSync leaves the gradient as one process computes it") {
#if !defined(RLX_HAVE_C10D_NCCL)
  WARN("this build has no c10d NCCL group: not run");
#else
  if (!torch::cuda::is_available()) {
    WARN("no CUDA device: not run");
    return;
  }
  using rlx::train::GradientSync;
  const torch::Device gpu(torch::kCUDA, 0);
  torch::manual_seed(5);
  torch::nn::Linear reference(16, 4), synced(16, 4);
  reference->to(gpu);
  synced->to(gpu);
  {
    torch::NoGradGuard no_grad;
    synced->weight.copy_(reference->weight);
    synced->bias.copy_(reference->bias);
  }
  const auto x = torch::randn({8, 16}, gpu);
  const auto y = torch::randint(0, 4, {8}, torch::dtype(torch::kLong).device(gpu));
  torch::nn::functional::cross_entropy(reference->forward(x), y).backward();

  auto store = c10::make_intrusive<c10d::HashStore>();
  auto group = std::make_unique<GradientSync::Group>();
  group->pg = c10::make_intrusive<c10d::ProcessGroup>(store, 0, 1);
  auto nccl = c10::make_intrusive<c10d::ProcessGroupNCCL>(c10::make_intrusive<c10d::PrefixStore>("nccl", store), 0, 1,
                                                          c10d::ProcessGroupNCCL::Options::create());
  group->pg->setBackend(c10::DeviceType::CUDA, c10d::ProcessGroup::BackendType::NCCL, nccl);
  group->pg->setDefaultBackend(c10d::ProcessGroup::BackendType::NCCL);
  group->backend = "nccl";
  group->device = gpu;
  GradientSync sync(std::move(group));
  sync.attach(synced->parameters(), synced->buffers());
  sync.count_from_here();
  sync.before_forward();
  auto loss = torch::nn::functional::cross_entropy(synced->forward(x), y);
  sync.before_backward(loss);
  loss.backward();
  sync.after_backward();
  torch::cuda::synchronize();
  CHECK(torch::allclose(synced->weight.grad(), reference->weight.grad(), 1e-6, 1e-7));
  CHECK(torch::allclose(synced->bias.grad(), reference->bias.grad(), 1e-6, 1e-7));
  const auto f = sync.figures();
  CHECK(f.backend == "nccl");
  CHECK(f.grad_bytes_per_step == 4 * (16 * 4 + 4));
  CHECK(sync.agree(true));
#endif
}
