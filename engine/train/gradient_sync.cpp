// gradient_sync.cpp: see gradient_sync.h.
#include "train/gradient_sync.h"

#include <unistd.h>

namespace rlx::train {

bool ranks_on_cuda(const TrainConfig& config) {
  if (config.device == "cpu") return false;
#ifdef RLX_HAVE_TORCH_CUDA
  return torch::cuda::is_available();
#else
  return false;
#endif
}

std::string this_host() {
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string("localhost");
}

}  // namespace rlx::train

#ifdef RLX_HAVE_C10D
#include <torch/csrc/distributed/c10d/comm.hpp>
#include <torch/csrc/distributed/c10d/reducer.hpp>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>

#include "train/c10d_group.h"

namespace rlx::train {

using Clock = std::chrono::steady_clock;

namespace {

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// DDP's defaults (torch/nn/parallel/distributed.py): buckets of 25 MiB, the first one 1 MiB so the
// first all-reduce starts early in the backward pass.
constexpr int64_t kBucketCapBytes = 25 * 1024 * 1024;
constexpr int64_t kFirstBucketCapBytes = 1024 * 1024;

// Rank 0's tensors to every rank, one collective per dtype over a flat copy (DDP's
// _broadcast_coalesced does the same in chunks).
void broadcast_from_rank0(c10d::ProcessGroup& group, const std::vector<torch::Tensor>& tensors) {
  std::map<c10::ScalarType, std::vector<torch::Tensor>> by_type;
  for (const auto& t : tensors) by_type[t.scalar_type()].push_back(t);
  torch::NoGradGuard no_grad;
  for (auto& [type, list] : by_type) {
    std::vector<torch::Tensor> flat_parts;
    for (const auto& t : list) flat_parts.push_back(t.detach().reshape({-1}));
    std::vector<torch::Tensor> flat = {torch::cat(flat_parts)};
    c10d::BroadcastOptions options;
    options.rootRank = 0;
    group.broadcast(flat, options)->wait();
    int64_t offset = 0;
    for (auto& t : list) {
      t.detach().copy_(flat[0].narrow(0, offset, t.numel()).view(t.sizes()));
      offset += t.numel();
    }
  }
}

}  // namespace

// The launch and completion times of the current step's bucket all-reduces; completions come
// from the process group's threads, hence the lock.
class BucketClock {
 public:
  struct Interval {
    Clock::time_point launched, done;
    bool finished = false;
    int64_t bytes = 0;
  };
  size_t launched(int64_t bytes) {
    std::lock_guard<std::mutex> lock(m_);
    intervals_.push_back({Clock::now(), {}, false, bytes});
    return generation_ * kSlots + intervals_.size() - 1;
  }
  void done(size_t id) {
    const auto t = Clock::now();
    std::lock_guard<std::mutex> lock(m_);
    if (id / kSlots != generation_ || id % kSlots >= intervals_.size()) return;  // a step already taken
    intervals_[id % kSlots].done = t;
    intervals_[id % kSlots].finished = true;
  }
  std::vector<Interval> take() {
    std::lock_guard<std::mutex> lock(m_);
    ++generation_;
    return std::exchange(intervals_, {});
  }

 private:
  static constexpr size_t kSlots = 1 << 20;
  std::mutex m_;
  std::vector<Interval> intervals_;
  size_t generation_ = 0;
};

namespace {

// The reducer's built-in all-reduce (divide by the ranks, then SUM), with each bucket's interval kept.
class TimedAllReduce : public c10d::CommHookInterface {
 public:
  TimedAllReduce(c10::intrusive_ptr<c10d::ProcessGroup> group, std::shared_ptr<BucketClock> clock)
      : group_(std::move(group)), clock_(std::move(clock)) {}

  c10::intrusive_ptr<c10::ivalue::Future> runHook(c10d::GradBucket& bucket) override {
    std::vector<at::Tensor> tensors = {bucket.getBufferRef()};
    tensors[0].div_(group_->getSize());
    const size_t id = clock_->launched(static_cast<int64_t>(tensors[0].nbytes()));
    auto future = group_->allreduce(tensors)->getFuture();
    std::weak_ptr<BucketClock> clock = clock_;
    future->addCallback([clock, id](c10::ivalue::Future&) {
      if (auto c = clock.lock()) c->done(id);
    });
    return future;
  }

  at::Tensor parseHookResult(const c10::IValue& result) override {
    return c10d::detail::parseCppCommHookResult(result);
  }

 private:
  c10::intrusive_ptr<c10d::ProcessGroup> group_;
  std::shared_ptr<BucketClock> clock_;
};

// Seconds covered by the union of the intervals (clipped at `end`).
double union_seconds(std::vector<BucketClock::Interval> intervals, Clock::time_point end) {
  for (auto& i : intervals)
    if (!i.finished || i.done > end) i.done = end;
  std::sort(intervals.begin(), intervals.end(), [](const auto& a, const auto& b) { return a.launched < b.launched; });
  double total = 0;
  Clock::time_point covered_to{};
  for (const auto& i : intervals) {
    const auto from = std::max(i.launched, covered_to);
    if (i.done > from) {
      total += seconds_between(from, i.done);
      covered_to = i.done;
    }
  }
  return total;
}

}  // namespace

GradientSync::GradientSync(std::unique_ptr<Group> group)
    : group_(std::move(group)), clock_(std::make_shared<BucketClock>()) {}

GradientSync::~GradientSync() = default;

int GradientSync::rank() const {
  return group_->pg->getRank();
}
int GradientSync::ranks() const {
  return group_->pg->getSize();
}

void GradientSync::attach(const std::vector<torch::Tensor>& params, const std::vector<torch::Tensor>& buffers) {
  buffers_ = buffers;
  std::vector<torch::Tensor> all = params;
  all.insert(all.end(), buffers.begin(), buffers.end());
  broadcast_from_rank0(*group_->pg, all);
  for (const auto& p : params) param_bytes_ += static_cast<int64_t>(p.nbytes());
  const std::vector<size_t> caps = {static_cast<size_t>(kFirstBucketCapBytes), static_cast<size_t>(kBucketCapBytes)};
  const std::vector<bool> sparse(params.size(), false);
  auto [indices, limits] = c10d::compute_bucket_assignment_by_size(params, caps, sparse);
  // Gradients are produced roughly from the last parameter to the first: the buckets in reverse.
  std::reverse(indices.begin(), indices.end());
  std::reverse(limits.begin(), limits.end());
  const std::vector<int64_t> cap_list(limits.begin(), limits.end());
  reducer_ = std::make_shared<c10d::Reducer>(params, indices, group_->pg, sparse, kBucketCapBytes,
                                             /*find_unused_parameters=*/false, /*gradient_as_bucket_view=*/false,
                                             std::unordered_map<size_t, std::string>{}, kFirstBucketCapBytes,
                                             /*skip_all_reduce_unused_params=*/false,
                                             /*use_python_reducer=*/false, cap_list);
  reducer_->register_comm_hook(std::make_unique<TimedAllReduce>(group_->pg, clock_));
}

void GradientSync::before_forward() {
  reducer_->prepare_for_forward();
  reducer_->rebuild_buckets();
  if (buffers_.empty()) return;
  const auto t0 = Clock::now();
  broadcast_from_rank0(*group_->pg, buffers_);
  if (counting_) buffer_s_ += seconds_between(t0, Clock::now());
}

void GradientSync::before_backward(const torch::Tensor&) {
  reducer_->prepare_for_backward({});
}

void GradientSync::after_backward() {
  const auto end = Clock::now();
  const auto intervals = clock_->take();
  if (!counting_) return;
  ++steps_;
  // Exposed: from the last bucket's launch (the backward pass's last gradient) to the last
  // all-reduce's completion (a bucket whose completion was not yet seen counts until backward's end).
  Clock::time_point last_launch{}, last_done{};
  int64_t bytes = 0;
  for (const auto& i : intervals) {
    last_launch = std::max(last_launch, i.launched);
    last_done = std::max(last_done, i.finished ? std::min(i.done, end) : end);
    bytes += i.bytes;
  }
  if (!intervals.empty()) exposed_s_ += std::max(0.0, seconds_between(last_launch, last_done));
  allreduce_s_ += union_seconds(intervals, end);
  grad_bytes_ = bytes;
  buckets_ = static_cast<int64_t>(intervals.size());
}

bool GradientSync::agree(bool decision) {
  // On the training's device: NCCL broadcasts CUDA tensors only.
  std::vector<torch::Tensor> flag = {torch::full({1}, decision ? 1 : 0, torch::dtype(torch::kInt).device(group_->device))};
  c10d::BroadcastOptions options;
  options.rootRank = 0;
  group_->pg->broadcast(flag, options)->wait();
  return flag[0].item<int>() != 0;
}

void GradientSync::count_from_here() {
  counting_ = true;
  steps_ = 0;
  buffer_s_ = allreduce_s_ = exposed_s_ = 0;
}

CommFigures GradientSync::figures() const {
  CommFigures f;
  f.backend = group_->backend;
  f.rank = rank();
  const double n = steps_ > 0 ? static_cast<double>(steps_) : 1.0;
  f.allreduce_s = allreduce_s_ / n;
  f.exposed_comm_s = exposed_s_ / n;
  f.buffer_broadcast_s = buffer_s_ / n;
  f.grad_bytes_per_step = grad_bytes_;
  f.buckets = buckets_;
  f.bucket_cap_bytes = kBucketCapBytes;
  f.param_bytes = param_bytes_;
  return f;
}

}  // namespace rlx::train

#else  // a LibTorch without c10d (or older than rlx's c10d code): data-parallel runs are refused
       // before any rank starts (rank_launch.cpp), so none of this is reached.

namespace rlx::train {

class BucketClock {};
struct GradientSync::Group {};
GradientSync::GradientSync(std::unique_ptr<Group> group) : group_(std::move(group)) {}
GradientSync::~GradientSync() = default;
int GradientSync::rank() const { return 0; }
int GradientSync::ranks() const { return 1; }
void GradientSync::attach(const std::vector<torch::Tensor>&, const std::vector<torch::Tensor>&) {}
void GradientSync::before_forward() {}
void GradientSync::before_backward(const torch::Tensor&) {}
void GradientSync::after_backward() {}
bool GradientSync::agree(bool decision) { return decision; }
void GradientSync::count_from_here() {}
CommFigures GradientSync::figures() const { return {}; }

}  // namespace rlx::train

#endif
