// measure.h: measured machine peaks, the figures behind rlx.peaks.measure and `rlx peaks`.
//
// CPU: DRAM bandwidth (STREAM triad, all cores, working set far beyond the last-level cache), one
// compute roof per precision of one kind (the peak of that precision's arithmetic: FP32 and FP64
// FMA chains in the widest ISA, bf16 VDPBF16PS chains where the CPU has avx512_bf16 or BFDOT
// chains on arm64 with bf16, else the FP32 FMA peak labelled emulated, AMX tiles where it has AMX
// or BFMMLA on arm64), L1/L2/L3 read bandwidth with buffers
// sized from /sys, and GEMM through LibTorch (fp32, bf16) as the framework's achievable, second
// ceiling. CUDA: device-to-device copy bandwidth, L2 read bandwidth (cuda_l2.h) and GEMM per
// precision through LibTorch, timed with CUDA events (only in a build against a CUDA LibTorch).
// Every figure is the best of `repeats` timed runs after one warm-up, with the spread reported,
// and measured again (at most `remeasure` more times) while that spread is above
// `spread_limit_pct`; units are decimal GB/s and GFLOP/s.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "util/thread_cpu.h"

namespace rlx::peaks {

// Summary of one figure over its repeats (rates: higher is better).
struct Stat {
  double best = 0;
  double median = 0;
  double worst = 0;
  double spread_pct = 0;  // (best - worst) / best * 100
  int repeats = 0;
};
// Throws std::invalid_argument on an empty list.
Stat summarize(const std::vector<double>& rates);
nlohmann::json to_json(const Stat& s);

// Seconds per n x n x n matrix product in dtype "fp32" or "bf16" on the CPU, for each of `repeats`
// repeats; a repeat runs products back to back for about target_s and reports their mean.
// LibTorch's intra-op threads are set to `threads`, as a training run sets them; the products run
// on what LibTorch chooses for them (fp32: the BLAS, bf16: oneDNN).
struct GemmTiming {
  std::vector<double> seconds;
  int threads_used = 0;  // threads the library ran the products on (the BLAS's own count for fp32)
  std::string library;   // "OpenBLAS (openmp build)", "LibTorch/oneDNN", ...
};
// The LibTorch GEMM the gemm_* figures time (torch_cpu_gemm below, through the library loader:
// its caller hands it in, so this library never reaches up to the loader).
using CpuGemm = std::function<GemmTiming(const std::string& dtype, int n, int threads, int repeats, double target_s)>;

struct MeasureOptions {
  int repeats = 5;                // timed runs per figure (plus one warm-up)
  bool quick = false;             // smaller sizes and shorter runs (tests, smoke checks); noisier figures
  int threads = 0;                // 0: one per physical core the process may use
  std::vector<std::string> only;  // subset of the figures (names below); empty: all
  std::string isa;        // "" = detected; or "avx512", "avx2+fma", "sve", "neon", "scalar"
  // CPU kernels: "wall" divides the work by the wall time between the team's barriers, as STREAM
  // and likwid-bench do; "cpu" by the threads' CPU time (the slowest thread's), so time slices
  // other processes take on a shared machine do not lower the peak, at the price of overstating
  // DRAM bandwidth when the threads did not all run at once. Wall is the default because it is
  // the convention the figures are compared with; both are reported (details). LibTorch GEMM is
  // always wall-clock.
  std::string clock = "wall";
  // A figure whose repeats spread more than this (percent of the best) is measured again, at most
  // `remeasure` more times; the attempt with the highest median is kept, and a figure still above
  // the limit carries a warning.
  double spread_limit_pct = 10;
  int remeasure = 2;
  CpuGemm cpu_gemm;  // empty: the gemm_* figures are missing, with that reason
};

// A wall-clock figure whose threads got less than kContendedShare of their cores' time (CPU time
// over wall time: other processes or the hypervisor ran on them) is low by about that share: it is
// measured again like a noisy one, and warned about. The training runs' threshold too (one
// constant, engine/util/thread_cpu.h).
using util::kContendedShare;

// Figure names accepted by MeasureOptions::only, per device.
// cpu: dram fp32 fp64 bf16 bf16_amx gemm_fp32 gemm_bf16 l1 l2 l3
const std::vector<std::string>& cpu_figures();
const std::vector<std::string>& cuda_figures();  // dram l2 gemm_fp32 gemm_tf32 gemm_fp16 gemm_bf16

// json: {device = "cpu", name, isa, threads, cpus, quick, repeats, spread_limit_pct, remeasure,
// dram_gbps, fp32_gflops, fp64_gflops, bf16_gflops (figure bf16), bf16_tensor_gflops (figure
// bf16_amx), gemm_fp32_gflops, gemm_bf16_gflops, l1_gbps, l2_gbps, l3_gbps, bf16_emulated (1 when
// the CPU has no bf16 arithmetic, with any bf16 figure), bf16_support = {vector, matrix},
// stats = {<field> = {best, median, worst, spread_pct, repeats, attempts, attempt_spreads_pct}},
// method = {<field> = text}, details, warnings = {<field> = text} (spread still above the limit),
// missing = {<field> = why}, copied_from = {<field> = the field it copies} (an emulated roof),
// caches = [{level, bytes, shared_by_cpus}], seconds, isa_arm64 (1 in an arm64 build: its bf16
// figures are BFDOT and BFMMLA; a number, so the store keeps it), emulation (qemu-user, ... when an
// emulator runs rlx: platform::emulation)}. Only the figures asked for are present. Figure bf16_amx
// is the CPU's bf16 matrix instruction: AMX on x86-64, BFMMLA on arm64.
nlohmann::json measure_cpu(const MeasureOptions& opts);

// A cache level whose read bandwidth is not above the DRAM triad's was not measured in that cache:
// its working set (sized from the reported cache size, which some VMs overstate) spilled to
// memory, and as a roof it would show a cache slower than DRAM. Moves such l1/l2/l3_gbps figures
// of a measure_cpu result to "missing" with the reason; their stats and method stay for the
// record. Does nothing without dram_gbps.
void drop_cache_levels_not_above_dram(nlohmann::json& peaks);

// Implemented in torch_peaks.cpp (the one file of this library that includes LibTorch), which is
// built into librlx_torch.so: the rest of rlx calls them through startup::tensor_library()
// (engine/libtorch/tensor_library.h), which loads it on first use.
GemmTiming torch_cpu_gemm(const std::string& dtype, int n, int threads, int repeats, double target_s);
// True when LibTorch was built with CUDA and sees a device.
bool torch_cuda_available();
// json: {device = "cuda", name (as the driver reports it), index, sm_count, quick, repeats,
// dram_gbps (D2D copy, read + write bytes), l2_gbps (L2 read kernel: cuda_l2.h), gemm_fp32_gflops,
// gemm_tf32_gflops, gemm_fp16_gflops, gemm_bf16_gflops (the best size: n, sizes and calls in
// details), stats, method, details, missing = {<field> = why}, seconds}. Throws
// std::runtime_error naming the fix when CUDA is not built in or absent.
nlohmann::json measure_cuda(const MeasureOptions& opts);

}  // namespace rlx::peaks
