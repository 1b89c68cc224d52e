// trainer.cpp: the training loop (the LibTorch translation unit of engine/train). See trainer.h
// for what is measured. A run is: resolve the device, open the data, build the model (Stepper),
// then three sections over the same Stepper: warm-up, timed (extended with min_stable), counted.
// CUDA-only code (events, allocator peaks, NVTX, the captured step of cuda_graphs) is compiled
// only with a CUDA LibTorch (RLX_HAVE_TORCH_CUDA).
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <deque>
#include <optional>
#include <thread>

#ifdef RLX_HAVE_TORCH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define RLX_HAVE_NVTX 1
#endif
#endif

#include <fmt/format.h>

#include "models/torch_model.h"
#include "train/cuda_graph.h"
#include "train/data_parallel.h"
#include "train/dataset.h"
#include "train/gradient_sync.h"
#include "train/memory_format.h"
#include "train/precisions.h"
#include "train/process_usage.h"
#include "train/progress.h"
#include "train/run_failure.h"
#include "train/sgd.h"
#include "train/torch_errors.h"
#include "train/torch_scopes.h"
#include "train/trainer.h"
#include "util/cpu_stat.h"
#include "util/interrupt.h"
#include "util/process_tuning.h"

namespace rlx::train {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// The NVTX range of the counted iterations. Seed 002's `ncu --nvtx --nvtx-include "train_step/"`
// profiles exactly them; timed iterations (nvtx = true) are named apart so that filter skips them.
constexpr const char* kCountedRange = "train_step";

struct ResolvedDevice {
  torch::Device device{torch::kCPU};
  std::string id = "cpu";
  bool cuda = false;
};

bool cuda_available() {
#ifdef RLX_HAVE_TORCH_CUDA
  return torch::cuda::is_available();
#else
  return false;
#endif
}

[[noreturn]] void no_cuda(const std::string& requested) {
#ifdef RLX_HAVE_TORCH_CUDA
  throw RunFailure(fmt::format("device '{}' is not available: no CUDA GPU is visible (nvidia-smi lists the GPUs; "
                               "CUDA_VISIBLE_DEVICES may hide them)",
                               requested),
                   "device", "cpu");
#else
  throw RunFailure(
      fmt::format("device '{}' is not available: this rlx was built with a CPU-only LibTorch ({})", requested,
                  TORCH_VERSION),
      "device", "cpu");
#endif
}

// A rank of a data-parallel run takes the GPU of its local rank (device "cuda" or "auto").
ResolvedDevice resolve_device(const std::string& requested, int local_rank) {
  ResolvedDevice r;
  const bool have_cuda = cuda_available();
  if (requested == "cpu" || (requested == "auto" && !have_cuda)) return r;
  if (requested.rfind("cuda", 0) == 0 && !have_cuda) no_cuda(requested);
  int index = local_rank;
  if (requested.size() > 5) index = std::stoi(requested.substr(5));
  const auto count = static_cast<int>(torch::cuda::device_count());
  if (index >= count)
    throw RunFailure(fmt::format("device '{}' does not exist: {} CUDA device(s) visible (cuda:0..cuda:{})",
                                 requested, count, count - 1));
  r.device = torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index));
  r.id = fmt::format("cuda:{}", index);
  r.cuda = true;
  return r;
}

void synchronize(const ResolvedDevice& d) {
#ifdef RLX_HAVE_TORCH_CUDA
  if (d.cuda) torch::cuda::synchronize(d.device.index());
#else
  (void)d;
#endif
}

// The precision's refusal on this device (train/precisions.h, their one owner), before anything is built.
void check_precision(const TrainConfig& c, const ResolvedDevice& dev) {
  std::string why = precision_refusal(c.precision, dev.id);
  if (!why.empty()) throw RunFailure(std::move(why));
}

// What cuda_graphs needs that only the resolved device and this build can say (what the options
// alone refuse is config.cpp's check_cuda_graphs, run by validate).
void check_graphs_on_device(const TrainConfig& c, const ResolvedDevice& dev) {
  if (!c.cuda_graphs) return;
  if (!dev.cuda) {
#ifdef RLX_HAVE_TORCH_CUDA
    const char* why = "no CUDA GPU is visible";
#else
    const char* why = "this rlx was built with a CPU-only LibTorch";
#endif
    throw RunFailure(fmt::format(
        "cuda_graphs captures the step's CUDA kernels, and device \"{}\" chose '{}' ({}); drop cuda_graphs",
        c.device, dev.id, why));
  }
  if (c.precision == "amp" && !have_fused_sgd())
    throw RunFailure(fmt::format(
        "cuda_graphs with precision 'amp' needs LibTorch's _fused_sgd_ (LibTorch 2.3 or newer) to skip a "
        "step with an inf gradient on the device; this LibTorch is {}: use precision=\"bf16\" or drop "
        "cuda_graphs",
        TORCH_VERSION));
}

// Notes for options that do nothing on this device or build.
std::string option_notes(const TrainConfig& c, const ResolvedDevice& dev) {
  std::string note;
  if (c.nvtx) {
#ifdef RLX_HAVE_NVTX
    if (!dev.cuda) note = "nvtx ranges are emitted only on CUDA devices";
#else
    note = "nvtx was requested but this rlx was built without CUDA/NVTX: no ranges emitted";
#endif
  }
  if (c.pin_memory && (!dev.cuda || c.data == "synthetic")) {
    if (!note.empty()) note += "; ";
    note += "pin_memory applies to CUDA runs reading a dataset: nothing to pin here";
  }
  return note;
}

void set_threads_and_seed(const TrainConfig& c, const ResolvedDevice& dev, TrainResult& r) {
  // By default one thread per CPU this process may run on (its affinity mask, as libgomp sizes its
  // own default team): a cpuset of 2 CPUs on a larger node gets 2 threads, not the node's count;
  // and no more than its cgroup's CPU quota (util/cpu_quota.h), which libgomp does not read.
  // OMP_NUM_THREADS, when the user set it, is their choice (util/cpu_stat.h default_threads).
  const auto quota = util::cpu_quota();
  const util::DefaultThreads fallback = util::default_threads(quota);
  const int64_t threads = c.threads > 0 ? c.threads : fallback.threads;
  r.threads_from = c.threads > 0 ? "threads" : fallback.from;
  if (quota) r.cpu_quota = quota->cpus;
  at::set_num_threads(static_cast<int>(threads));
  r.threads = at::get_num_threads();
  torch::manual_seed(static_cast<uint64_t>(c.seed));
#ifdef RLX_HAVE_TORCH_CUDA
  if (dev.cuda) torch::cuda::manual_seed_all(static_cast<uint64_t>(c.seed));
#else
  (void)dev;
#endif
}

// What the data source decides before the model is built: its classes and image side.
struct DataPlan {
  std::shared_ptr<const SampleSource> source;  // null: synthetic
  int64_t classes = 0, input = 0;
};

DataPlan open_data(const TrainConfig& c, TrainResult& r) {
  DataPlan d{nullptr, c.classes, c.input};
  if (c.data == "synthetic") {
    r.data_kind = "synthetic";
    if (d.classes == 0) d.classes = 1000;
    if (d.input == 0) d.input = 224;
    return d;
  }
  try {
    d.source = open_dataset(c.data);
  } catch (const std::runtime_error& e) {
    throw RunFailure(e.what());
  }
  r.data_kind = d.source->kind();
  r.dataset_size = static_cast<int64_t>(d.source->size());
  r.dataset_classes = d.source->classes();
  if (r.data_kind == "imagefolder") r.skipped_files = 0;
  if (d.classes == 0) d.classes = d.source->classes();
  if (d.input == 0) d.input = r.data_kind == "cifar10" ? 32 : 224;
  if (d.source->classes() > d.classes)
    throw RunFailure(
        fmt::format("the dataset has {} classes but classes={}: labels would be out of range "
                    "(leave classes unset to use the dataset's)",
                    d.source->classes(), d.classes));
  return d;
}

// A data-parallel rank reads its slice of each global batch (LoaderOptions shard/shards).
std::unique_ptr<Loader> make_loader(const TrainConfig& c, const DataPlan& d, const GradientSync* sync) {
  if (!d.source) return nullptr;
  LoaderOptions lo;
  lo.batch = c.batch;
  lo.side = static_cast<int>(d.input);
  lo.augment = c.augment;
  lo.workers = c.workers;
  lo.prefetch = c.prefetch;
  lo.seed = static_cast<uint64_t>(c.seed);
  if (sync) {
    lo.shard = sync->rank();
    lo.shards = sync->ranks();
  }
  return std::make_unique<Loader>(d.source, lo);
}

// An NVTX range around one training step, emitted twice: as a push/pop range (nested, per thread:
// what Nsight Systems draws and seed 002's `--nvtx-include "train_step/"` filters on) and as a
// start/end range of the same name (process-wide). The second is the one that covers the whole
// step: LibTorch runs a CUDA backward pass on its autograd engine's device thread, so the
// backward kernels are launched outside the calling thread's push/pop range, and an ncu filter
// on it profiles the forward pass and the optimizer only (about a third of the FLOPs; seen with
// ncu 2025.3 on an H100, docs/gpu.md). `ncu --nvtx --nvtx-include "train_step"` (no slash)
// matches the start/end range and profiles every kernel of the step.
class NvtxRange {
 public:
  NvtxRange(bool on, const std::string& name) : on_(on) {
#ifdef RLX_HAVE_NVTX
    if (on_) {
      nvtxRangePushA(name.c_str());
      id_ = nvtxRangeStartA(name.c_str());
    }
#else
    (void)name;
#endif
  }
  ~NvtxRange() {
#ifdef RLX_HAVE_NVTX
    if (on_) {
      nvtxRangeEnd(id_);
      nvtxRangePop();
    }
#endif
  }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;

 private:
  bool on_;
#ifdef RLX_HAVE_NVTX
  nvtxRangeId_t id_ = 0;
#endif
};

// A 1x1 convolution's weight is contiguous in both layouts, so channels_last leaves its strides
// as they were, while its gradient comes back with channels_last's strides (equal where it
// matters: every size-1 dimension). c10d::Reducer compares all strides and warns for each such
// weight; giving the weight channels_last's own strides (same values, same memory order) before
// the reducer lays out its buckets makes them agree.
void canonical_channels_last(std::vector<torch::Tensor>& params) {
  torch::NoGradGuard no_grad;
  for (auto& p : params) {
    if (p.dim() != 4 || !p.is_contiguous(torch::MemoryFormat::ChannelsLast)) continue;
    auto canonical = torch::empty(p.sizes(), p.options().memory_format(torch::MemoryFormat::ChannelsLast));
    if (canonical.strides() != p.strides()) p.set_data(canonical.copy_(p));
  }
}

// One iteration's input on the device, and how long getting it took.
struct Batch {
  torch::Tensor x, y;
  double wait_s = 0;
};

// The model, optimizer and input of a run; one training step over them. Every section of a run
// (warm-up, timed, counted) drives the same Stepper, so they train the same model in sequence.
class Stepper {
 public:
  Stepper(const TrainConfig& c, const ResolvedDevice& dev, const models::ModelSpec& spec,
          const DataPlan& data, GradientSync* sync)
      : c_(c), dev_(dev), input_(data.input), loader_(make_loader(c, data, sync)), sync_(sync) {
    net_ = models::build_module(spec);
    net_->to(dev.device);
    memory_format_name_ = resolve_memory_format(c.memory_format, *net_);
    memory_format_ = apply_memory_format(memory_format_name_, *net_);
    net_->train();
    for (auto& p : net_->parameters())
      if (p.requires_grad()) params_.push_back(p);
    if (sync_) {
      if (memory_format_ == torch::MemoryFormat::ChannelsLast) canonical_channels_last(params_);
      sync_->attach(params_, net_->buffers());
    }
    // CPU: the one-pass update (train/sgd.h) where the parameters suit it; CUDA: the multi-tensor
    // update (_fused_sgd_ where this LibTorch has it, else _foreach_), which reads the gradient
    // scaler's found_inf on the device.
    const SgdSettings sgd{c.lr, c.momentum, c.weight_decay};
    if (!dev.cuda && OnePassSgd::supports(params_))
      one_pass_sgd_.emplace(params_, sgd);
    else
      multi_sgd_.emplace(params_, sgd, dev.cuda ? cuda_sgd_kernel() : SgdKernel::foreach);
    if (c.precision == "amp") scaler_.emplace(dev.device);
    // Synthetic data (FakeData's equivalent) is made once, on the device: a step pays nothing for it.
    // A data-parallel rank draws the whole global batch and keeps its slice: the ranks together
    // train on exactly the batch one process with the global batch would draw.
    if (!loader_) {
      const int64_t ranks = sync_ ? sync_->ranks() : 1, first = sync_ ? sync_->rank() * c.batch : 0;
      syn_x_ = torch::randn({ranks * c.batch, spec.channels, input_, input_},
                            torch::dtype(torch::kFloat).device(dev.device))
                   .narrow(0, first, c.batch)
                   .contiguous(memory_format_);
      syn_y_ = torch::randint(0, data.classes, {ranks * c.batch}, torch::dtype(torch::kLong).device(dev.device))
                   .narrow(0, first, c.batch)
                   .contiguous();
    }
    zero_grad();
  }

  // The next batch on the device; its wait includes the host-to-device copy.
  Batch fetch() {
    const auto t0 = Clock::now();
    Batch b;
    if (!loader_) {
      b.x = syn_x_;
      b.y = syn_y_;
    } else {
      host_ = loader_->next();
      b.x = torch::from_blob(host_.images.data(), {c_.batch, 3, input_, input_}, torch::kFloat);
      b.y = torch::from_blob(host_.labels.data(), {c_.batch}, torch::kLong);
      if (dev_.cuda) copy_to_device(b);
      b.x = b.x.contiguous(memory_format_);
    }
    b.wait_s = seconds_between(t0, Clock::now());
    return b;
  }

  // Forward, backward and (every grad_accum iterations) the optimizer step, inside an NVTX range
  // when nvtx_name is not empty; returns the step's device time in seconds.
  double step(const Batch& b, const std::string& nvtx_name) {
    NvtxRange range(dev_.cuda && !nvtx_name.empty(), nvtx_name);
#ifdef RLX_HAVE_TORCH_CUDA
    std::optional<at::cuda::CUDAEvent> ev_start, ev_end;
    if (dev_.cuda) {
      ev_start.emplace(cudaEventDefault);
      ev_end.emplace(cudaEventDefault);
      ev_start->record();
    }
#endif
    const auto t0 = Clock::now();
    if (!replay_captured()) {
      forward_backward(b);
      if (++iteration_ % c_.grad_accum == 0) optimizer_step();
    }
    double step_s = 0;
#ifdef RLX_HAVE_TORCH_CUDA
    if (dev_.cuda) {
      ev_end->record();
      ev_end->synchronize();
      step_s = ev_start->elapsed_time(*ev_end) / 1e3;
    }
#endif
    synchronize(dev_);
    if (!dev_.cuda) step_s = seconds_between(t0, Clock::now());
    return step_s;
  }

  // cuda_graphs: records one whole step (forward, loss, backward, unscale, optimizer update, scale
  // update) on the fixed input tensors; every step() after it replays the recording. Called once,
  // after the warm-up's eager steps. The gradients are dropped first, so the captured backward
  // allocates them in the graph's own memory, where they stay for every replay.
  void capture() {
#ifdef RLX_HAVE_TORCH_CUDA
    zero_grad();
    const Batch b = fetch();
    captured_.emplace();
    captured_->capture(dev_.device.index(), [&] {
      forward_backward(b);
      update_parameters();
    });
#endif
  }

  // The last step's loss (a device read: call it after the clock has stopped).
  double loss() const {
    return loss_.item<double>();
  }
  const std::string& memory_format() const {
    return memory_format_name_;
  }
  int64_t skipped() const {
    return loader_ ? loader_->skipped() : -1;
  }
  std::string first_skipped() const {
    return loader_ ? loader_->first_skipped() : "";
  }

 private:
  void copy_to_device(Batch& b) {
    if (c_.pin_memory) {
      b.x = b.x.pin_memory().to(dev_.device, /*non_blocking=*/true);
      b.y = b.y.pin_memory().to(dev_.device, /*non_blocking=*/true);
    } else {
      b.x = b.x.to(dev_.device);
      b.y = b.y.to(dev_.device);
    }
    synchronize(dev_);  // the copy belongs to the data wait, not to the step
  }

  void forward_backward(const Batch& b) {
    const bool autocast = c_.precision != "fp32";
    const at::ScalarType dtype = c_.precision == "amp" ? at::kHalf : at::kBFloat16;
    if (sync_) sync_->before_forward();
    {
      AutocastScope scope(autocast, dev_.cuda, dtype);
      loss_ = torch::nn::functional::cross_entropy(net_->forward(b.x), b.y);
    }
    torch::Tensor to_backward = c_.grad_accum > 1 ? loss_ / static_cast<double>(c_.grad_accum) : loss_;
    if (scaler_) to_backward = scaler_->scale(to_backward);
    if (sync_) sync_->before_backward(to_backward);
    to_backward.backward();
    if (sync_) sync_->after_backward();
  }

  // Whether the step ran as a replay of the captured one (cuda_graphs after the warm-up).
  bool replay_captured() {
#ifdef RLX_HAVE_TORCH_CUDA
    if (captured_) {
      captured_->replay();
      return true;
    }
#endif
    return false;
  }

  void optimizer_step() {
    update_parameters();
    zero_grad();
  }

  // amp: unscale the gradients into found_inf, a step the optimizer skips when it is set (on the
  // device with _fused_sgd_), then the scale's update; none of it reads a value on the host.
  void update_parameters() {
    if (scaler_) {
      scaler_->unscale(params_);
      multi_sgd_->step(scaler_->found_inf());
      scaler_->update();
    } else if (one_pass_sgd_) {
      one_pass_sgd_->step();
    } else {
      multi_sgd_->step();
    }
  }

  void zero_grad() {
    if (one_pass_sgd_)
      one_pass_sgd_->zero_grad();
    else
      multi_sgd_->zero_grad();
  }

  const TrainConfig& c_;
  const ResolvedDevice& dev_;
  int64_t input_;
  std::unique_ptr<Loader> loader_;
  torch::MemoryFormat memory_format_ = torch::MemoryFormat::Contiguous;
  std::string memory_format_name_;  // "channels_last" or "contiguous"
  std::shared_ptr<models::Net> net_;
  std::vector<torch::Tensor> params_;
  std::optional<OnePassSgd> one_pass_sgd_;   // CPU with dense fp32 parameters
  std::optional<MultiTensorSgd> multi_sgd_;  // CUDA (and any other CPU parameters)
  std::optional<GradScaler> scaler_;         // amp
#ifdef RLX_HAVE_TORCH_CUDA
  std::optional<CapturedStep> captured_;  // cuda_graphs, after the warm-up
#endif
  torch::Tensor syn_x_, syn_y_, loss_;
  HostBatch host_;  // keeps the current real batch alive while its tensor is in use on the CPU
  int64_t iteration_ = 0;
  GradientSync* sync_ = nullptr;  // data-parallel: the group's gradient averaging; null for one process
};

// Process usage at the start of the timed section (CPU time, wall clock, peak-RSS reset).
struct SectionStart {
  CpuTimes cpu;
  Clock::time_point wall;
  bool rss_reset = false;
};

SectionStart begin_timed(const ResolvedDevice& dev) {
  synchronize(dev);
#ifdef RLX_HAVE_TORCH_CUDA
  if (dev.cuda) c10::cuda::CUDACachingAllocator::resetPeakStats(dev.device.index());
#endif
  SectionStart s;
  s.rss_reset = reset_peak_rss();
  s.cpu = cpu_times();
  s.wall = Clock::now();
  return s;
}

void end_timed(const ResolvedDevice& dev, const SectionStart& s, TrainResult& r) {
  const auto wall1 = Clock::now();
  const CpuTimes cpu1 = cpu_times();
  r.wall_s = seconds_between(s.wall, wall1);
  r.user_s = cpu1.user_s - s.cpu.user_s;
  r.sys_s = cpu1.sys_s - s.cpu.sys_s;
  r.page_faults = cpu1.page_faults - s.cpu.page_faults;
  const int64_t hwm = s.rss_reset ? peak_rss_bytes() : -1;
  r.max_rss_bytes = hwm > 0 ? hwm : cpu1.maxrss_bytes;
  r.max_rss_scope = hwm > 0 ? "measured" : "process";
#ifdef RLX_HAVE_TORCH_CUDA
  if (dev.cuda) {
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(dev.device.index());
    // Index 0 is StatType::AGGREGATE (all pools) in every version; the enum moved namespace in 2.5.
    r.device_max_bytes = stats.allocated_bytes[0].peak;
  }
#else
  (void)dev;
#endif
}

// Iterations nobody measures: a fixed count, or with warmup_auto until the time stops falling
// (stats.h WarmupRule, bounded by max_warmup; a warm-up cut at the bound leaves the run unsteady).
// Each one's time is kept (warmup_samples) so the result shows how the run settled; the first
// loss is read here.
void warmup_section(Stepper& s, const TrainConfig& c, GradientSync* sync, ProgressBar& bar, TrainResult& r) {
  const WarmupRule rule{0.05, 2, c.max_warmup};
  const int64_t planned = c.warmup_auto ? c.max_warmup : c.warmup;
  if (planned == 0) return;
  bar.phase("warmup", planned);
  for (int64_t i = 0; i < planned; ++i) {
    util::check_interrupt();
    const Batch b = s.fetch();
    r.warmup_samples.push_back(b.wait_s + s.step(b, ""));
    if (i == 0) r.loss_first = s.loss();
    bar.update(i + 1);
    bool done = c.warmup_auto && warmup_done(r.warmup_samples, rule);
    if (c.warmup_auto && sync) done = sync->agree(done);
    if (done) break;
  }
  if (c.warmup_auto) r.warmup_settled = warmup_settled(r.warmup_samples, rule);
}

// One timed iteration, as a closure over the run: fetch, step, the wait kept apart.
class TimedStep {
 public:
  TimedStep(Stepper& s, const TrainConfig& c, IterationObserver* observer, TrainResult& r)
      : s_(s), c_(c), observer_(observer), r_(r) {}
  double operator()() {
    util::check_interrupt();
    const Batch b = s_.fetch();
    const double step_s = s_.step(b, c_.nvtx ? fmt::format("rlx.train iteration {}", index_) : std::string());
    waits.push_back(b.wait_s);
    if (observer_) observer_->on_timed_iteration(static_cast<int>(index_));
    if (index_ == 0 && r_.warmup_samples.empty()) r_.loss_first = s_.loss();
    ++index_;
    return b.wait_s + step_s;
  }
  std::deque<double> waits;  // data wait of each sample taken

 private:
  Stepper& s_;
  const TrainConfig& c_;
  IterationObserver* observer_;
  TrainResult& r_;
  int64_t index_ = 0;
};

// Fixed count: `iters` samples, then with min_stable more until the last `iters` are steady or the
// cap is reached (the oldest samples then count as extra warm-up and join warmup_samples).
std::vector<double> fixed_samples(TimedStep& next, const TrainConfig& c, ProgressBar& bar, TrainResult& r) {
  std::deque<double> window;
  std::vector<double> all;
  bar.phase("measure", c.iters);
  for (int64_t i = 0; i < c.iters; ++i) {
    all.push_back(next());
    window.push_back(all.back());
    bar.update(i + 1);
  }
  const int64_t cap = c.max_extra_iters > 0 ? c.max_extra_iters : 2 * c.iters;
  r.stability = steady_state(all, c.stability);
  if (c.min_stable && !r.stability.stable) {
    bar.phase("extend", cap);
    r.stability = extend_until_stable(
        window,
        [&] {
          bar.update(static_cast<int64_t>(all.size()) - c.iters + 1);
          all.push_back(next());
          return all.back();
        },
        c.stability, cap);
    r.warmup_samples.insert(r.warmup_samples.end(), all.begin(),
                            all.end() - static_cast<std::ptrdiff_t>(window.size()));
  }
  r.stop_reason = "fixed";
  return {window.begin(), window.end()};
}

// Precision-targeted: samples until stats.h's stop_reason says stop (CI within target_ci and
// steady, or a cap). Every sample taken is kept: nothing measured is dropped.
std::vector<double> targeted_samples(TimedStep& next, const TrainConfig& c, GradientSync* sync, ProgressBar& bar,
                                     TrainResult& r) {
  const TargetRule rule{c.target_ci, c.min_iters, c.max_iters, c.max_seconds, c.stability};
  std::vector<double> samples;
  const auto t0 = Clock::now();
  bar.phase("measure", c.max_iters);
  while (r.stop_reason.empty()) {
    samples.push_back(next());
    bar.update(static_cast<int64_t>(samples.size()));
    r.stop_reason = stop_reason(samples, seconds_between(t0, Clock::now()), rule);
    // Data-parallel: rank 0's rule decides for every rank (its samples are the run's).
    if (sync && sync->agree(!r.stop_reason.empty()) != !r.stop_reason.empty())
      r.stop_reason = r.stop_reason.empty() ? "rank 0" : "";
  }
  r.stability = steady_state(samples, c.stability);
  return samples;
}

void timed_section(Stepper& s, const TrainConfig& c, const ResolvedDevice& dev, IterationObserver* observer,
                   GradientSync* sync, ProgressBar& bar, TrainResult& r) {
  const SystemCpu system0 = system_cpu();
  const SectionStart start = begin_timed(dev);
  if (sync) sync->count_from_here();
  TimedStep next(s, c, observer, r);
  r.samples = c.target_ci > 0 ? targeted_samples(next, c, sync, bar, r) : fixed_samples(next, c, bar, r);
  end_timed(dev, start, r);
  if (sync) r.comm = sync->figures();
  const Contention load = contention_of(r.wall_s, r.user_s + r.sys_s, system0, system_cpu(), r.threads);
  if (load.known) {
    r.other_cpu = load.other_cpu;
    r.steal_cpu = load.steal_cpu;
    r.cpu_share = load.cpu_share;
    // A CUDA run's host thread waits for the GPU, so its CPU share says nothing about contention.
    r.contended = !dev.cuda && load.contended;
  }
  for (size_t i = next.waits.size() - r.samples.size(); i < next.waits.size(); ++i)
    r.data_wait_s += next.waits[i];
  for (double x : r.samples) r.seconds += x;
  r.iter_s = summarize(r.samples);
  r.ci_rel = ci_rel95(r.samples);
  r.warmup_used = static_cast<int64_t>(r.warmup_samples.size());
  // A warm-up cut at its cap may still be warming: the samples after it are not a steady state.
  if (!r.warmup_settled) r.stability.stable = false;
  r.images_per_s =
      r.seconds > 0 ? static_cast<double>(c.batch) * static_cast<double>(r.samples.size()) / r.seconds : 0;
}

// The counted section: after the last timed iteration, `n` iterations the observer counts
// (collectors, profiler start/stop), each in the NVTX range kCountedRange. Their times are kept
// apart (counted_samples) and never enter a speed.
void counted_section(Stepper& s, int64_t n, IterationObserver* observer, ProgressBar& bar, TrainResult& r) {
  if (n <= 0) return;
  bar.phase("count", n);
  if (observer) observer->on_measured_begin(static_cast<int>(n));
  for (int64_t i = 0; i < n; ++i) {
    util::check_interrupt();
    const Batch b = s.fetch();
    if (observer) observer->on_iteration_begin(static_cast<int>(i));
    const double step_s = s.step(b, kCountedRange);
    if (observer) observer->on_iteration_end(static_cast<int>(i));
    r.counted_samples.push_back(b.wait_s + step_s);
    bar.update(i + 1);
  }
  if (observer) observer->on_measured_end();
  r.counter_iters = n;
  r.counted_iter_s = summarize(r.counted_samples).mean;
}

int64_t counted_iterations(const TrainConfig& c, const IterationObserver* observer) {
  if (c.counter_iters >= 0) return c.counter_iters;
  return observer ? observer->iterations_wanted() : 0;
}

// Builds everything a run needs; throws RunFailure for what makes the run impossible.
void run(const TrainConfig& c, IterationObserver* observer, GradientSync* sync, int local_rank, TrainResult& r) {
  const ResolvedDevice dev = resolve_device(c.device, local_rank);
  if (sync) r.ranks = sync->ranks();
  r.device = dev.id;
  r.precision = c.precision;
  check_precision(c, dev);
  check_graphs_on_device(c, dev);
#ifdef RLX_HAVE_TORCH_CUDA
  std::optional<c10::cuda::CUDAGuard> device_guard;
  if (dev.cuda) device_guard.emplace(dev.device.index());
  // cuda_graphs: the whole run on a side stream (a capture cannot use the default stream), the
  // warm-up included, as PyTorch's recipe warms up on the stream it captures on.
  std::optional<c10::cuda::CUDAStreamGuard> stream_guard;
  if (dev.cuda && c.cuda_graphs)
    stream_guard.emplace(c10::cuda::getStreamFromPool(false, dev.device.index()));
#endif
  r.note = option_notes(c, dev);
  r.pin_memory = c.pin_memory && dev.cuda && c.data != "synthetic";
  set_threads_and_seed(c, dev, r);
  ContextFlags flags(c.deterministic, c.cudnn_benchmark, c.tf32);

  // Data source first: its classes and native size decide the model's defaults.
  const DataPlan data = open_data(c, r);
  const models::ModelSpec spec = models::from_option(c.model, data.classes, data.input);
  r.model_name = spec.name;
  r.classes = data.classes;
  r.input = data.input;
  if (data.source && spec.channels != 3)
    throw RunFailure(
        fmt::format("the model takes {} input channels but the dataset gives RGB images (3)", spec.channels));
  Stepper stepper(c, dev, spec, data, sync);
  r.memory_format = stepper.memory_format();
  ProgressBar bar(c.progress, c.batch);
  // The files a folder skipped are counted on failure too: a run that failed because every file
  // was unreadable says how many it met (issue 56).
  auto count_skipped = [&] {
    r.skipped_files = r.data_kind == "imagefolder" ? stepper.skipped() : -1;
    r.skipped_first = stepper.first_skipped();
  };
  try {
    warmup_section(stepper, c, sync, bar, r);
    if (c.cuda_graphs) stepper.capture();  // the timed samples are replays
    timed_section(stepper, c, dev, observer, sync, bar, r);
    r.loss_last = stepper.loss();
    counted_section(stepper, counted_iterations(c, observer), observer, bar, r);
  } catch (...) {
    count_skipped();
    throw;
  }
  bar.finish();
  count_skipped();
  if (!std::isfinite(r.loss_last))
    throw RunFailure(
        fmt::format("the loss became {} (training diverged); lower lr (now {})", r.loss_last, c.lr));
  r.ok = true;
}

// A LibTorch error as one line, with the advice docs/training.md promises for out of memory.
std::string torch_error(const c10::Error& e) {
  return describe_torch_error(e.what_without_backtrace());
}

}  // namespace

namespace {

TrainResult train_here(const TrainConfig& config, IterationObserver* observer, GradientSync* sync, int local_rank) {
  TrainResult r;
  util::release_free_memory();  // the previous run's freed memory must not count in this run's RSS
  try {
    run(config, observer, sync, local_rank, r);
  } catch (const util::Interrupted&) {
    throw;
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const RunFailure& e) {
    e.fill(r);
  } catch (const c10::Error& e) {
    r.ok = false;
    r.error = torch_error(e);
  } catch (const std::bad_alloc&) {
    r.ok = false;
    r.error = "out of memory (host): lower batch, input or workers";
  } catch (const std::exception& e) {
    r.ok = false;
    r.error = e.what();
  }
  if (!r.ok) {
    r.samples.clear();
    r.counted_samples.clear();
  }
  return r;
}

}  // namespace

TrainResult train(const TrainConfig& config, IterationObserver* observer) {
  validate(config);
  if (config.ranks > 1) {
    if (observer)
      throw std::invalid_argument(
          "counters are collected in one process, and ranks > 1 trains in several: count in a run with ranks=1");
    return train_ranks(config);
  }
  return train_here(config, observer, nullptr, 0);
}

TrainResult train_in_group(const TrainConfig& config, GradientSync& sync, int local_rank) {
  validate(config);
  return train_here(config, nullptr, &sync, local_rank);
}

}  // namespace rlx::train
