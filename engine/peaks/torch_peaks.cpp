// torch_peaks.cpp: the peaks measured through LibTorch, the only file of rlx_peaks that includes
// it (ATen only, which is enough and compiles faster than torch/torch.h). CPU: matrix products in
// fp32 and bf16, the framework's achievable ceiling (below the FMA peak by the cost of packing and
// blocking). CUDA, compiled only against a CUDA LibTorch (RLX_HAVE_TORCH_CUDA): device-to-device
// copy bandwidth and GEMM per precision, timed with CUDA events on the current stream.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "peaks/measure.h"
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
    out.library = dtype == "fp32" ? "the BLAS (" + blas.name + ")" : "LibTorch (oneDNN)";
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

  const bool tf32_before = at::globalContext().allowTF32CuBLAS();
  struct Prec { const char* fig; at::ScalarType type; bool tf32; };
  for (const Prec& p : {Prec{"gemm_fp32", at::kFloat, false}, Prec{"gemm_tf32", at::kFloat, true},
                        Prec{"gemm_fp16", at::kHalf, false}, Prec{"gemm_bf16", at::kBFloat16, false}}) {
    if (!wants(p.fig)) continue;
    at::globalContext().setAllowTF32CuBLAS(p.tf32);
    const std::int64_t n = o.quick ? 2048 : 8192;
    at::Tensor a = at::randn({n, n}, dev).to(p.type), b = at::randn({n, n}, dev).to(p.type), c = at::empty_like(a);
    const int inner = o.quick ? 3 : 10;
    auto s = repeat_timed(runs, inner, [&] { at::mm_out(c, a, b); });
    record(out, std::string(p.fig) + "_gflops", s, 2.0 * double(n) * n * n,
           fmt::format("LibTorch mm {}x{}x{}, 2*n^3 FLOP, {} calls per timing{}", n, n, n, inner,
                       p.tf32 ? ", TF32 allowed in cuBLAS" : ""));
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
