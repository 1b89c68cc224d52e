// gradient_sync.h: one rank's side of data-parallel training, on c10d (LibTorch; data_parallel.h
// says how a run is launched).
//
// It does what PyTorch's DistributedDataParallel does for a module, with the C++ parts DDP itself
// uses: at the start, rank 0's parameters and buffers are broadcast to every rank; before each
// forward pass, rank 0's buffers (BatchNorm's running statistics) again (DDP's broadcast_buffers);
// the gradients are averaged by c10d::Reducer, DDP's own reducer: it groups the parameters into
// buckets (25 MiB, the first 1 MiB, DDP's defaults; rebuilt in gradient-ready order after the first
// step) and all-reduces each bucket from an autograd hook as soon as its last gradient is ready, so
// communication overlaps the rest of the backward pass, and waits for them all when backward ends.
//
// The all-reduce is a comm hook (PyTorch's own mechanism for that) that does what the reducer's
// built-in one does, SUM then divide by the ranks, and takes the time of each bucket: from its
// launch to its completion (the Future's callback). Per step that gives the time communication was
// in flight (the union of the buckets' intervals), the exposed part (from the last bucket's launch,
// which the backward pass's last gradient triggers, to the last bucket's completion: what the
// backward pass did not hide), and the bytes reduced.
#pragma once

#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "train/trainer.h"

namespace c10d {
class Reducer;
}

namespace rlx::train {

class BucketClock;

class GradientSync {
 public:
  // The c10d process group this rank belongs to (train/c10d_group.h: c10d's types stay out of
  // this header, which a build without c10d compiles too).
  struct Group;
  explicit GradientSync(std::unique_ptr<Group> group);
  ~GradientSync();
  GradientSync(const GradientSync&) = delete;
  GradientSync& operator=(const GradientSync&) = delete;

  int rank() const;
  int ranks() const;
  // Broadcasts rank 0's parameters and buffers, then builds the reducer over the parameters.
  void attach(const std::vector<torch::Tensor>& params, const std::vector<torch::Tensor>& buffers);
  void before_forward();                           // buckets' rebuild, buffers' broadcast
  void before_backward(const torch::Tensor& loss);  // the reducer's per-step state
  void after_backward();                           // this step's communication figures
  // Rank 0's decision, on every rank (when to stop measuring must be one decision, or the ranks
  // would run different numbers of collectives and wait for each other forever).
  bool agree(bool decision);
  // Only steps between these count in the figures (the timed section).
  void count_from_here();
  CommFigures figures() const;

 private:
  std::unique_ptr<Group> group_;
  std::shared_ptr<c10d::Reducer> reducer_;
  std::shared_ptr<BucketClock> clock_;
  std::vector<torch::Tensor> buffers_;
  int64_t param_bytes_ = 0;
  double buffer_s_ = 0, allreduce_s_ = 0, exposed_s_ = 0;
  int64_t steps_ = 0, grad_bytes_ = 0, buckets_ = 0;
  bool counting_ = false;
};

// What the launcher and the ranks both need to know of a data-parallel run: whether its ranks
// train on GPUs (device not "cpu" and a CUDA device visible to this LibTorch), and this machine's
// name (a rank's `host`; the store's address under Slurm).
bool ranks_on_cuda(const TrainConfig& config);
std::string this_host();

// A run as one rank of a data-parallel group (trainer.cpp): train() with the group's gradient
// averaging, the rank's slice of every batch and its device; ok = false with the error otherwise.
TrainResult train_in_group(const TrainConfig& config, GradientSync& sync, int local_rank);

}  // namespace rlx::train
