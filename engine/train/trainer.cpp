// trainer.cpp: the training loop (the one LibTorch translation unit of engine/train). See
// trainer.h for what is measured. CUDA-only code (events, fp16 autocast with gradient scaling,
// allocator peaks, NVTX) is compiled only with a CUDA LibTorch (RLX_HAVE_TORCH_CUDA), and the
// autocast calls follow the API of the LibTorch they are compiled against (renamed in 2.4).
#include <ATen/autocast_mode.h>
#include <sys/resource.h>
#include <torch/torch.h>
#include <torch/version.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

#ifdef RLX_HAVE_TORCH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#if __has_include(<nvtx3/nvToolsExt.h>)
#include <nvtx3/nvToolsExt.h>
#define RLX_HAVE_NVTX 1
#endif
#endif

#include <fmt/format.h>

#include "models/torch_model.h"
#include "train/dataset.h"
#include "train/memory_format.h"
#include "train/progress.h"
#include "train/trainer.h"
#include "util/interrupt.h"
#include "util/process_tuning.h"

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
#define RLX_AUTOCAST_DEVICE_API 1
#endif

namespace rlx::train {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// A failure that is reported as ok = false (not an invalid option).
struct RunFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Autocast for one forward pass, as Python's `with torch.autocast(...)`: enable, set the dtype,
// count the nesting, and on the way out clear the cast-weight cache when the outermost scope
// ends (stale low-precision weight copies would otherwise outlive the optimizer step).
class AutocastScope {
 public:
  AutocastScope(bool enabled, bool cuda, at::ScalarType dtype) : enabled_(enabled), cuda_(cuda) {
    if (!enabled_) return;
#ifdef RLX_AUTOCAST_DEVICE_API
    const auto dev = cuda_ ? at::kCUDA : at::kCPU;
    prev_enabled_ = at::autocast::is_autocast_enabled(dev);
    prev_dtype_ = at::autocast::get_autocast_dtype(dev);
    at::autocast::set_autocast_enabled(dev, true);
    at::autocast::set_autocast_dtype(dev, dtype);
#else
    if (cuda_) {
      prev_enabled_ = at::autocast::is_enabled();
      prev_dtype_ = at::autocast::get_autocast_gpu_dtype();
      at::autocast::set_enabled(true);
      at::autocast::set_autocast_gpu_dtype(dtype);
    } else {
      prev_enabled_ = at::autocast::is_cpu_enabled();
      prev_dtype_ = at::autocast::get_autocast_cpu_dtype();
      at::autocast::set_cpu_enabled(true);
      at::autocast::set_autocast_cpu_dtype(dtype);
    }
#endif
    at::autocast::increment_nesting();
  }
  ~AutocastScope() {
    if (!enabled_) return;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
#ifdef RLX_AUTOCAST_DEVICE_API
    const auto dev = cuda_ ? at::kCUDA : at::kCPU;
    at::autocast::set_autocast_enabled(dev, prev_enabled_);
    at::autocast::set_autocast_dtype(dev, prev_dtype_);
#else
    if (cuda_) {
      at::autocast::set_enabled(prev_enabled_);
      at::autocast::set_autocast_gpu_dtype(prev_dtype_);
    } else {
      at::autocast::set_cpu_enabled(prev_enabled_);
      at::autocast::set_autocast_cpu_dtype(prev_dtype_);
    }
#endif
  }
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  bool enabled_, cuda_;
  bool prev_enabled_ = false;
  at::ScalarType prev_dtype_ = at::kFloat;
};

#ifdef RLX_HAVE_TORCH_CUDA
// Python's GradScaler, written with the two ATen ops it uses: scale the loss, unscale the grads
// while looking for inf/NaN, skip the step when any was found, then grow or back off the scale.
class GradScaler {
 public:
  explicit GradScaler(const torch::Device& device)
      : scale_(torch::full({1}, 65536.0, torch::dtype(torch::kFloat).device(device))),
        growth_tracker_(torch::zeros({1}, torch::dtype(torch::kInt).device(device))) {}
  torch::Tensor scale(const torch::Tensor& loss) const { return loss * scale_; }
  void step(torch::optim::Optimizer& opt, const std::vector<torch::Tensor>& params) {
    auto found_inf = torch::zeros({1}, scale_.options());
    auto inv_scale = scale_.to(torch::kDouble).reciprocal().to(torch::kFloat);
    std::vector<torch::Tensor> grads;
    for (const auto& p : params)
      if (p.grad().defined()) grads.push_back(p.grad());
    at::_amp_foreach_non_finite_check_and_unscale_(grads, found_inf, inv_scale);
    if (found_inf.item<float>() == 0.0f) opt.step();
    at::_amp_update_scale_(scale_, growth_tracker_, found_inf, 2.0, 0.5, 2000);
  }

 private:
  torch::Tensor scale_, growth_tracker_;
};
#endif

// Global LibTorch flags a run changes, put back when it ends so runs do not leak into each other.
class ContextFlags {
 public:
  ContextFlags(bool deterministic, bool cudnn_benchmark) {
    auto& ctx = at::globalContext();
    det_algorithms_ = ctx.deterministicAlgorithms();
    det_cudnn_ = ctx.deterministicCuDNN();
    bench_ = ctx.benchmarkCuDNN();
    // warn_only: an op without a deterministic kernel warns instead of failing the whole run.
    ctx.setDeterministicAlgorithms(deterministic, true);
    ctx.setDeterministicCuDNN(deterministic);
    ctx.setBenchmarkCuDNN(cudnn_benchmark);
  }
  ~ContextFlags() {
    auto& ctx = at::globalContext();
    ctx.setDeterministicAlgorithms(det_algorithms_, true);
    ctx.setDeterministicCuDNN(det_cudnn_);
    ctx.setBenchmarkCuDNN(bench_);
  }
  ContextFlags(const ContextFlags&) = delete;
  ContextFlags& operator=(const ContextFlags&) = delete;

 private:
  bool det_algorithms_, det_cudnn_, bench_;
};

struct CpuTimes {
  double user_s = 0, sys_s = 0;
  int64_t maxrss_bytes = 0;
  int64_t page_faults = 0;  // minor + major
};
CpuTimes cpu_times() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  CpuTimes t;
  t.user_s = static_cast<double>(ru.ru_utime.tv_sec) + ru.ru_utime.tv_usec / 1e6;
  t.sys_s = static_cast<double>(ru.ru_stime.tv_sec) + ru.ru_stime.tv_usec / 1e6;
  t.maxrss_bytes = static_cast<int64_t>(ru.ru_maxrss) * 1024;
  t.page_faults = static_cast<int64_t>(ru.ru_minflt + ru.ru_majflt);
  return t;
}

// Linux resets the peak-RSS mark (VmHWM) when "5" is written to /proc/self/clear_refs; then
// VmHWM at the end is the peak of the measured section alone.
bool reset_peak_rss() {
  std::ofstream f("/proc/self/clear_refs");
  if (!f) return false;
  f << "5";
  f.flush();
  return static_cast<bool>(f);
}
int64_t peak_rss_bytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;  // kB
  return -1;
}

struct ResolvedDevice {
  torch::Device device{torch::kCPU};
  std::string id = "cpu";
  bool cuda = false;
};

ResolvedDevice resolve_device(const std::string& requested) {
  ResolvedDevice r;
  const bool want_cuda = requested.rfind("cuda", 0) == 0;
  bool have_cuda = false;
#ifdef RLX_HAVE_TORCH_CUDA
  have_cuda = torch::cuda::is_available();
#endif
  if (requested == "cpu" || (requested == "auto" && !have_cuda)) return r;
  if (want_cuda && !have_cuda) {
#ifdef RLX_HAVE_TORCH_CUDA
    throw RunFailure(fmt::format("device '{}' is not available: no CUDA GPU is visible", requested));
#else
    throw RunFailure(fmt::format("device '{}' is not available: this rlx was built with a CPU-only LibTorch "
                                 "({}); use device=\"cpu\"",
                                 requested, TORCH_VERSION));
#endif
  }
  int index = 0;
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

std::string first_line(const std::string& s) {
  const auto nl = s.find('\n');
  return nl == std::string::npos ? s : s.substr(0, nl);
}

class NvtxRange {
 public:
  NvtxRange(bool on, int64_t index) : on_(on) {
#ifdef RLX_HAVE_NVTX
    if (on_) nvtxRangePushA(fmt::format("rlx.train iteration {}", index).c_str());
#else
    (void)index;
#endif
  }
  ~NvtxRange() {
#ifdef RLX_HAVE_NVTX
    if (on_) nvtxRangePop();
#endif
  }
  NvtxRange(const NvtxRange&) = delete;
  NvtxRange& operator=(const NvtxRange&) = delete;

 private:
  bool on_;
};

void run(const TrainConfig& c, IterationObserver* observer, TrainResult& r) {
  const ResolvedDevice dev = resolve_device(c.device);
  r.device = dev.id;
  r.precision = c.precision;
  if (c.precision == "amp" && !dev.cuda)
    throw RunFailure(fmt::format("precision 'amp' (fp16 autocast with gradient scaling) needs a CUDA device, "
                                 "and the run is on '{}'; use precision=\"bf16\" on the CPU",
                                 dev.id));
#ifdef RLX_HAVE_TORCH_CUDA
  if (dev.cuda && c.precision == "bf16" && at::cuda::getDeviceProperties(dev.device.index())->major < 8)
    throw RunFailure(fmt::format("precision 'bf16' needs a GPU of compute capability 8.0 or newer; '{}' is {}.{}",
                                 dev.id, at::cuda::getDeviceProperties(dev.device.index())->major,
                                 at::cuda::getDeviceProperties(dev.device.index())->minor));
  std::optional<c10::cuda::CUDAGuard> device_guard;
  if (dev.cuda) device_guard.emplace(dev.device.index());
#endif
  if (c.nvtx) {
#ifdef RLX_HAVE_NVTX
    if (!dev.cuda) r.note = "nvtx ranges are emitted only on CUDA devices";
#else
    r.note = "nvtx was requested but this rlx was built without CUDA/NVTX: no ranges emitted";
#endif
  }

  const int64_t threads = c.threads > 0 ? c.threads : std::max(1u, std::thread::hardware_concurrency());
  at::set_num_threads(static_cast<int>(threads));
  r.threads = at::get_num_threads();
  torch::manual_seed(static_cast<uint64_t>(c.seed));
#ifdef RLX_HAVE_TORCH_CUDA
  if (dev.cuda) torch::cuda::manual_seed_all(static_cast<uint64_t>(c.seed));
#endif
  ContextFlags flags(c.deterministic, c.cudnn_benchmark);

  // Data source first: its classes and native size decide the model's defaults.
  std::shared_ptr<const SampleSource> source;
  std::unique_ptr<Loader> loader;
  int64_t classes = c.classes, input = c.input;
  if (c.data == "synthetic") {
    r.data_kind = "synthetic";
    if (classes == 0) classes = 1000;
    if (input == 0) input = 224;
  } else {
    try {
      source = open_dataset(c.data);
    } catch (const std::runtime_error& e) {
      throw RunFailure(e.what());
    }
    r.data_kind = source->kind();
    r.dataset_size = static_cast<int64_t>(source->size());
    if (r.data_kind == "imagefolder") r.skipped_files = 0;
    if (classes == 0) classes = source->classes();
    if (input == 0) input = r.data_kind == "cifar10" ? 32 : 224;
    if (source->classes() > classes)
      throw RunFailure(fmt::format("the dataset has {} classes but classes={}: labels would be out of range "
                                   "(leave classes unset to use the dataset's)",
                                   source->classes(), classes));
  }
  const models::ModelSpec spec = models::from_option(c.model, classes, input);
  r.model_name = spec.name;
  r.classes = classes;
  r.input = input;
  if (source && spec.channels != 3)
    throw RunFailure(fmt::format("the model takes {} input channels but the dataset gives RGB images (3)",
                                 spec.channels));
  if (source) {
    LoaderOptions lo;
    lo.batch = c.batch;
    lo.side = static_cast<int>(input);
    lo.augment = c.augment;
    lo.workers = c.workers;
    lo.prefetch = c.prefetch;
    lo.seed = static_cast<uint64_t>(c.seed);
    loader = std::make_unique<Loader>(source, lo);
  }

  auto net = models::build_module(spec);
  net->to(dev.device);
  r.memory_format = resolve_memory_format(c.memory_format, *net);
  const auto memory_format = apply_memory_format(r.memory_format, *net);
  net->train();
  std::vector<torch::Tensor> params;
  for (auto& p : net->parameters())
    if (p.requires_grad()) params.push_back(p);
  torch::optim::SGD optimizer(
      params, torch::optim::SGDOptions(c.lr).momentum(c.momentum).weight_decay(c.weight_decay));
#ifdef RLX_HAVE_TORCH_CUDA
  std::optional<GradScaler> scaler;
  if (c.precision == "amp") scaler.emplace(dev.device);
#endif
  const bool autocast = c.precision != "fp32";
  const at::ScalarType autocast_dtype = c.precision == "amp" ? at::kHalf : at::kBFloat16;

  // Synthetic data (FakeData's equivalent) is made once, on the device: a step pays nothing for it.
  torch::Tensor syn_x, syn_y;
  if (!loader) {
    syn_x = torch::randn({c.batch, spec.channels, input, input}, torch::dtype(torch::kFloat).device(dev.device))
                .contiguous(memory_format);
    syn_y = torch::randint(0, classes, {c.batch}, torch::dtype(torch::kLong).device(dev.device));
  }
  HostBatch host;  // keeps the current real batch alive while its tensor is in use on the CPU

  ProgressBar bar(c.progress, c.batch);
  if (c.warmup > 0) bar.phase("warmup", c.warmup);
  const int64_t total = c.warmup + c.iters;
  CpuTimes cpu0;
  Clock::time_point wall0;
  bool rss_reset = false;
  optimizer.zero_grad();
  for (int64_t i = 0; i < total; ++i) {
    util::check_interrupt();
    const bool measured = i >= c.warmup;
    const int64_t m = i - c.warmup;
    if (i == c.warmup) {
      synchronize(dev);
      bar.phase("measure", c.iters);
#ifdef RLX_HAVE_TORCH_CUDA
      if (dev.cuda) c10::cuda::CUDACachingAllocator::resetPeakStats(dev.device.index());
#endif
      rss_reset = reset_peak_rss();
      if (observer) observer->on_measured_begin(static_cast<int>(c.iters));
      cpu0 = cpu_times();
      wall0 = Clock::now();
    }
    const auto t0 = Clock::now();
    torch::Tensor x, y;
    if (loader) {
      host = loader->next();
      x = torch::from_blob(host.images.data(), {c.batch, 3, input, input}, torch::kFloat);
      y = torch::from_blob(host.labels.data(), {c.batch}, torch::kLong);
      if (dev.cuda) {
        x = x.pin_memory().to(dev.device, /*non_blocking=*/true);
        y = y.pin_memory().to(dev.device, /*non_blocking=*/true);
        synchronize(dev);  // the copy belongs to the data wait, not to the step
      }
      x = x.contiguous(memory_format);
    } else {
      x = syn_x;
      y = syn_y;
    }
    const auto t_data = Clock::now();
    if (measured && observer) observer->on_iteration_begin(static_cast<int>(m));
    double step_s = 0;
    torch::Tensor loss;
    {
      NvtxRange range(c.nvtx && measured && dev.cuda, m);
#ifdef RLX_HAVE_TORCH_CUDA
      std::optional<at::cuda::CUDAEvent> ev_start, ev_end;
      if (dev.cuda) {
        ev_start.emplace(cudaEventDefault);
        ev_end.emplace(cudaEventDefault);
        ev_start->record();
      }
#endif
      {
        AutocastScope scope(autocast, dev.cuda, autocast_dtype);
        loss = torch::nn::functional::cross_entropy(net->forward(x), y);
      }
      torch::Tensor to_backward = c.grad_accum > 1 ? loss / static_cast<double>(c.grad_accum) : loss;
#ifdef RLX_HAVE_TORCH_CUDA
      if (scaler) to_backward = scaler->scale(to_backward);
#endif
      to_backward.backward();
      if ((i + 1) % c.grad_accum == 0) {
#ifdef RLX_HAVE_TORCH_CUDA
        if (scaler) scaler->step(optimizer, params);
        else optimizer.step();
#else
        optimizer.step();
#endif
        optimizer.zero_grad();
      }
#ifdef RLX_HAVE_TORCH_CUDA
      if (dev.cuda) {
        ev_end->record();
        ev_end->synchronize();
        step_s = ev_start->elapsed_time(*ev_end) / 1e3;
      }
#endif
      synchronize(dev);
    }
    const auto t1 = Clock::now();
    if (!dev.cuda) step_s = seconds_between(t_data, t1);
    if (measured) {
      if (observer) observer->on_iteration_end(static_cast<int>(m));
      const double wait_s = seconds_between(t0, t_data);
      r.samples.push_back(wait_s + step_s);
      r.data_wait_s += wait_s;
    }
    const double loss_value = loss.item<double>();  // after the clock: the read is not timed
    if (i == 0) r.loss_first = loss_value;
    r.loss_last = loss_value;
    bar.update(measured ? m + 1 : i + 1);
  }
  const auto wall1 = Clock::now();
  const CpuTimes cpu1 = cpu_times();
  if (observer) observer->on_measured_end();
  bar.finish();

  r.wall_s = seconds_between(wall0, wall1);
  r.user_s = cpu1.user_s - cpu0.user_s;
  r.sys_s = cpu1.sys_s - cpu0.sys_s;
  r.page_faults = cpu1.page_faults - cpu0.page_faults;
  const int64_t hwm = rss_reset ? peak_rss_bytes() : -1;
  r.max_rss_bytes = hwm > 0 ? hwm : cpu1.maxrss_bytes;
  r.max_rss_scope = hwm > 0 ? "measured" : "process";
#ifdef RLX_HAVE_TORCH_CUDA
  if (dev.cuda) {
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(dev.device.index());
    // Index 0 is StatType::AGGREGATE (all pools) in every version; the enum moved namespace in 2.5.
    r.device_max_bytes = stats.allocated_bytes[0].peak;
  }
#endif
  for (double s : r.samples) r.seconds += s;
  r.iter_s = summarize(r.samples);
  r.images_per_s = r.seconds > 0 ? static_cast<double>(c.batch * c.iters) / r.seconds : 0;
  if (loader) r.skipped_files = r.data_kind == "imagefolder" ? loader->skipped() : -1;
  if (!std::isfinite(r.loss_last))
    throw RunFailure(fmt::format("the loss became {} (training diverged); lower lr (now {})", r.loss_last, c.lr));
  r.ok = true;
}

}  // namespace

TrainResult train(const TrainConfig& config, IterationObserver* observer) {
  validate(config);
  TrainResult r;
  util::release_free_memory();  // the previous run's freed memory must not count in this run's RSS
  try {
    run(config, observer, r);
  } catch (const util::Interrupted&) {
    throw;
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const c10::Error& e) {
    r.ok = false;
    const std::string msg = first_line(e.what_without_backtrace());
    r.error = msg.find("out of memory") != std::string::npos
                  ? "out of memory: " + msg + " (lower batch or input)"
                  : "LibTorch error: " + msg;
  } catch (const std::bad_alloc&) {
    r.ok = false;
    r.error = "out of memory (host): lower batch, input or workers";
  } catch (const std::exception& e) {
    r.ok = false;
    r.error = e.what();
  }
  if (!r.ok) {
    r.samples.clear();
  }
  return r;
}

nlohmann::json devices() {
  nlohmann::json out = nlohmann::json::array();
  nlohmann::json cpu = {{"kind", "cpu"}, {"id", "cpu"}};
  std::string name = "cpu";
  std::ifstream info("/proc/cpuinfo");
  std::string line;
  while (std::getline(info, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) name = line.substr(line.find_first_not_of(" \t", colon + 1));
      break;
    }
  cpu["name"] = name;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) cpu["memory_bytes"] = static_cast<int64_t>(pages) * page;
  cpu["threads"] = std::thread::hardware_concurrency();
  out.push_back(cpu);
#ifdef RLX_HAVE_TORCH_CUDA
  if (torch::cuda::is_available()) {
    for (int64_t i = 0; i < static_cast<int64_t>(torch::cuda::device_count()); ++i) {
      const auto* p = at::cuda::getDeviceProperties(static_cast<c10::DeviceIndex>(i));
      out.push_back({{"kind", "cuda"},
                     {"id", fmt::format("cuda:{}", i)},
                     {"name", p->name},
                     {"memory_bytes", static_cast<int64_t>(p->totalGlobalMem)},
                     {"multiprocessors", p->multiProcessorCount},
                     {"capability", fmt::format("{}.{}", p->major, p->minor)}});
    }
  }
#endif
  return out;
}

}  // namespace rlx::train
