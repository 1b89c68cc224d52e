// torch_peaks.cpp: the peaks measured through LibTorch, the only file of rlx_peaks that includes
// it (ATen only, which is enough and compiles faster than torch/torch.h). CPU: matrix products in
// fp32 and bf16, the framework's achievable ceiling (below the FMA peak by the cost of packing and
// blocking). CUDA, compiled only against a CUDA LibTorch (RLX_HAVE_TORCH_CUDA): device-to-device
// copy bandwidth, L2 read bandwidth (cuda_l2.h's kernel) and GEMM per precision, timed with CUDA
// events on the current stream.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "peaks/cuda_l2.h"
#include "peaks/measure.h"
#include "train/devices.h"
#include "util/interrupt.h"
#include "util/process_tuning.h"

#ifdef RLX_HAVE_TORCH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#endif

namespace rlx::peaks {
namespace {

// Restores LibTorch's intra-op thread count on scope exit: the measurement must not change the
// setting training runs use afterwards.
struct ThreadsGuard {
  int previous = at::get_num_threads();
  explicit ThreadsGuard(int n) { at::set_num_threads(n); }
  ~ThreadsGuard() { at::set_num_threads(previous); }
};

// The BLAS an fp32 product ran on, as the framework record names it (train::framework(): MKL in
// PyPI's x86-64 wheels, with the version and the branch MKL dispatches to), when OpenBLAS's own
// record (util::blas_info) does not know it.
std::string blas_text() {
  const nlohmann::json fw = train::framework();
  const nlohmann::json b = fw.value("blas", nlohmann::json::object());
  if (!b.is_object() || !b.contains("name")) return util::blas_info().name;
  const std::string version = b.value("version", std::string()), isa = b.value("isa", std::string());
  return fmt::format("{}{}{}{}{}", b.value("name", std::string()), version.empty() ? "" : " ", version,
                     isa.empty() ? "" : ", ", isa);
}

}  // namespace

GemmTiming torch_cpu_gemm(const std::string& dtype, int n, int threads, int repeats, double target_s) {
  if (dtype != "fp32" && dtype != "bf16")
    throw std::invalid_argument("the torch GEMM runs fp32 or bf16 only");
  ThreadsGuard guard(threads);
  const auto st = dtype == "bf16" ? at::kBFloat16 : at::kFloat;
  at::Tensor a = at::randn({n, n}).to(st), b = at::randn({n, n}).to(st), c = at::empty({n, n}, a.options());
  // One untimed call (oneDNN builds its kernel for the shape on first use), one to size the
  // repeats: a single small mm lasts tens of microseconds, too short to time alone, so each repeat
  // runs enough calls back to back to last about target_s.
  at::mm_out(c, a, b);
  auto t0 = std::chrono::steady_clock::now();
  at::mm_out(c, a, b);
  const double one = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const int calls = std::max(1, static_cast<int>(std::min(1e6, std::ceil(target_s / std::max(one, 1e-9)))));
  GemmTiming out;
  for (int r = 0; r < repeats; ++r) {
    util::check_interrupt();
    t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < calls; ++k) at::mm_out(c, a, b);
    out.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / calls);
  }
  // fp32 products go to the BLAS, which may run on fewer threads than LibTorch's (OpenBLAS's
  // pthreads build, set to one thread for training: startup/process_settings.cpp); after the calls,
  // OpenBLAS's count is the one they ran with.
  const util::BlasInfo blas = util::blas_info();
  if (dtype == "fp32" && blas.threads > 0) {
    out.threads_used = blas.threads;
    const std::string& core = blas.core;
    out.library = blas.name + " (" + blas.threading + " build" + (core.empty() ? "" : ", " + core + " kernels") + ")";
  } else {
    out.threads_used = at::get_num_threads();
    out.library = dtype == "fp32" ? "the BLAS (" + blas_text() + ")" : "LibTorch (oneDNN)";
  }
  return out;
}

#ifdef RLX_HAVE_TORCH_CUDA

bool torch_cuda_available() { return at::hasCUDA() && at::cuda::device_count() > 0; }

namespace {

// Seconds per call of fn, over `inner` back-to-back calls between two CUDA events (events need
// cudaEventDefault: the default flags of CUDAEvent disable timing).
double time_on_stream(int inner, const std::function<void()>& fn) {
  at::cuda::CUDAEvent start(cudaEventDefault), stop(cudaEventDefault);
  auto stream = at::cuda::getCurrentCUDAStream();
  start.record(stream);
  for (int i = 0; i < inner; ++i) fn();
  stop.record(stream);
  stop.synchronize();
  return double(start.elapsed_time(stop)) / 1e3 / inner;
}

std::vector<double> repeat_timed(int runs, int inner, const std::function<void()>& fn) {
  std::vector<double> out;
  for (int r = 0; r < runs; ++r) {
    util::check_interrupt();
    out.push_back(time_on_stream(inner, fn));
  }
  if (out.size() > 1) out.erase(out.begin());  // warm-up (cuBLAS handle, heuristics, clocks)
  return out;
}

void record(nlohmann::json& out, const std::string& field, const std::vector<double>& seconds, double work,
            const std::string& method) {
  std::vector<double> rates;
  for (double s : seconds) rates.push_back(work / s / 1e9);
  const Stat s = summarize(rates);
  out[field] = s.best;
  out["stats"][field] = to_json(s);
  out["method"][field] = method;
}

// Calls of fn that last about target_s together (at least 1, at most 1000), from one timed call.
int calls_for(double target_s, const std::function<void()>& fn) {
  const double one = time_on_stream(1, fn);
  return int(std::clamp(std::ceil(target_s / std::max(one, 1e-7)), 1.0, 1000.0));
}

// One GEMM precision: n^3 products for each size, each repeat `calls` products back to back for
// about target_s between two events (so the GPU runs at the clocks a long product loop holds, not
// the first milliseconds'); the size with the best repeat is the figure, as torch.mm's best over
// sizes would be read. Tensor-core precisions try three sizes in a full measurement, since the
// fastest cuBLAS kernel on a given GPU need not be at 8192; fp32 on the CUDA cores, whose 8192^3
// product already lasts tens of milliseconds, one.
void gemm_figure(nlohmann::json& out, const std::string& field, at::ScalarType type, bool tf32,
                 const std::vector<std::int64_t>& sizes, int runs, double target_s,
                 const at::TensorOptions& dev) {
  std::vector<double> best_seconds;
  std::int64_t best_n = 0;
  int best_calls = 0;
  double best_rate = 0;
  for (const std::int64_t n : sizes) {
    at::Tensor a = at::randn({n, n}, dev).to(type), b = at::randn({n, n}, dev).to(type),
               c = at::empty_like(a);
    const auto product = [&] { at::mm_out(c, a, b); };
    product();  // cuBLAS handle, heuristics, workspace
    const int calls = calls_for(target_s, product);
    const std::vector<double> s = repeat_timed(runs, calls, product);
    const double rate = 2.0 * double(n) * n * n / *std::min_element(s.begin(), s.end()) / 1e9;
    if (rate > best_rate) {
      best_rate = rate;
      best_seconds = s;
      best_n = n;
      best_calls = calls;
    }
  }
  std::string tried;
  for (const std::int64_t n : sizes) tried += (tried.empty() ? "" : ", ") + std::to_string(n);
  record(out, field, best_seconds, 2.0 * double(best_n) * best_n * best_n,
         fmt::format("LibTorch mm {0}x{0}x{0} (the best of n = {1}), 2*n^3 FLOP, {2} calls per timing (about "
                     "{3:g} s){4}",
                     best_n, tried, best_calls, target_s, tf32 ? ", TF32 allowed in cuBLAS" : ""));
  out["details"][field] = {{"n", best_n}, {"sizes", sizes}, {"calls", best_calls}};
}

// The L2 read roof (cuda_l2.h): a quarter of the L2 read over and over by a kernel of its own. A
// failure (no driver symbol, a PTX the driver refuses) leaves the figure out, with the reason.
void l2_figure(nlohmann::json& out, int index, const cudaDeviceProp& props, int runs, double target_s) {
  try {
    const L2Timing t = time_l2_read(index, props.l2CacheSize, props.multiProcessorCount, runs, target_s);
    std::vector<double> s = t.seconds;
    if (s.size() > 1) s.erase(s.begin());  // warm-up, as repeat_timed
    record(out, "l2_gbps", s, t.bytes_per_launch,
           fmt::format(
               "PTX kernel reading {:.1f} MiB ({:.0f} % of the {:.0f} MiB L2) {} times per launch with "
               "ld.global.cg (16-byte loads cached in L2, not L1), {} blocks of {} threads, read bytes "
               "counted",
               t.plan.working_set_bytes / 1048576.0, 100.0 * t.plan.working_set_bytes / props.l2CacheSize,
               props.l2CacheSize / 1048576.0, t.passes, t.plan.blocks, t.plan.threads));
    out["details"]["l2_gbps"] = {{"l2_cache_bytes", props.l2CacheSize},
                                 {"working_set_bytes", t.plan.working_set_bytes},
                                 {"passes", t.passes},
                                 {"blocks", t.plan.blocks},
                                 {"threads", t.plan.threads}};
  } catch (const std::exception& e) {
    out["missing"]["l2_gbps"] = std::string("the L2 read kernel did not run: ") + e.what();
  }
}

}  // namespace

nlohmann::json measure_cuda(const MeasureOptions& o) {
  if (!torch_cuda_available()) {
    throw std::runtime_error(
        "no CUDA device is visible (check nvidia-smi and "
        "CUDA_VISIBLE_DEVICES), or use device='cpu'");
  }
  for (const auto& f : o.only) {
    bool ok = false;
    for (const auto& v : cuda_figures()) ok = ok || v == f;
    if (!ok) throw std::invalid_argument("unknown figure '" + f + "' for device cuda");
  }
  auto wants = [&](const std::string& f) {
    if (o.only.empty()) return true;
    for (const auto& x : o.only) if (x == f) return true;
    return false;
  };
  const auto start = std::chrono::steady_clock::now();
  const int index = at::cuda::current_device();
  const auto* props = at::cuda::getDeviceProperties(index);
  const int runs = o.repeats + 1;
  nlohmann::json out;
  out["device"] = "cuda";
  out["index"] = index;
  out["name"] = std::string(props->name);
  out["sm_count"] = props->multiProcessorCount;
  out["quick"] = o.quick;
  out["repeats"] = o.repeats;
  out["stats"] = nlohmann::json::object();
  out["method"] = nlohmann::json::object();
  out["details"] = nlohmann::json::object();
  const auto dev = at::TensorOptions().device(at::kCUDA, index);

  if (wants("dram")) {
    const std::int64_t bytes = std::int64_t(o.quick ? 64 : 1024) << 20;
    at::Tensor src = at::ones({bytes}, dev.dtype(at::kByte)), dst = at::empty_like(src);
    const int inner = o.quick ? 5 : 20;
    auto s = repeat_timed(runs, inner, [&] { dst.copy_(src); });
    record(out, "dram_gbps", s, 2.0 * double(bytes),
           fmt::format("device-to-device copy of {} MiB, read + write bytes counted, {} copies per timing",
                       bytes >> 20, inner));
  }

  if (wants("l2")) l2_figure(out, index, *props, runs, o.quick ? 0.005 : 0.02);

  const bool tf32_before = at::globalContext().allowTF32CuBLAS();
  struct Prec { const char* fig; at::ScalarType type; bool tf32; };
  for (const Prec& p : {Prec{"gemm_fp32", at::kFloat, false}, Prec{"gemm_tf32", at::kFloat, true},
                        Prec{"gemm_fp16", at::kHalf, false}, Prec{"gemm_bf16", at::kBFloat16, false}}) {
    if (!wants(p.fig)) continue;
    at::globalContext().setAllowTF32CuBLAS(p.tf32);
    const bool tensor_cores = p.type != at::kFloat || p.tf32;
    const std::vector<std::int64_t> sizes = o.quick        ? std::vector<std::int64_t>{2048}
                                            : tensor_cores ? std::vector<std::int64_t>{4096, 8192, 16384}
                                                           : std::vector<std::int64_t>{8192};
    gemm_figure(out, std::string(p.fig) + "_gflops", p.type, p.tf32, sizes, runs, o.quick ? 0.01 : 0.05, dev);
  }
  at::globalContext().setAllowTF32CuBLAS(tf32_before);
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

#else

bool torch_cuda_available() { return false; }

nlohmann::json measure_cuda(const MeasureOptions&) {
  throw std::runtime_error(
      "device 'cuda' needs rlx built against a CUDA LibTorch "
      "(this build's LibTorch is CPU-only); use device='cpu'");
}

#endif

}  // namespace rlx::peaks
