// measure_compute.cpp: the compute roofs of measure_cpu, one per precision and of one kind (the
// peak of the precision's own arithmetic on all cores): FP32 and FP64 FMA chains in the widest
// ISA; bf16 through the CPU's bf16 dot instruction (VDPBF16PS where an x86-64 CPU lists
// avx512_bf16, BFDOT where an arm64 one lists bf16; else labelled emulated: the FP32 FMA peak,
// which is what bf16 work converted to fp32 can reach at best); and its bf16 matrix instruction
// (AMX tiles where the CPU lists amx_tile and amx_bf16, BFMMLA on arm64 with bf16). LibTorch's
// GEMM (measure.cpp) is the second, practical ceiling.
#include <fmt/format.h>

#include "peaks/measure_parts.h"
#include "platform/platform.h"

namespace rlx::peaks::detail {
namespace {

Attempt fma_attempt(const ComputeContext& c, bool fp64) {
  // Chains converge to add / (1 - mul) = 1000: no overflow, no denormals, whatever iters is.
  const double mul = 0.999, add = 1.0;
  std::vector<double> sink(c.threads);
  const std::int64_t iters = calibrate(
      20000, c.target_s, [&](std::int64_t n) { sink[0] = fma_kernel(c.isa, fp64, n, mul, add, 0); });
  const auto timing = run_team(c.cpus, c.runs, nullptr,
                               [&](int t) { sink[t] += fma_kernel(c.isa, fp64, iters, mul, add, t); });
  Attempt a;
  a.rates = team_rates(a.details, timing, fma_flops(c.isa, fp64, iters) * c.threads, c.cpu_clock);
  a.wall_clock = !c.cpu_clock;
  a.method = fmt::format("{} FMA chains of {} lanes x {} steps per thread, {}, {} threads, {} clock",
                         kFmaChains, c.isa == Isa::scalar ? 1 : fp64_lanes(c.isa) * (fp64 ? 1 : 2), iters,
                         isa_name(c.isa), c.threads, c.opts.clock);
  return a;
}

Attempt bf16_dot_attempt(const ComputeContext& c) {
  std::vector<double> sink(c.threads);
  const std::int64_t iters =
      calibrate(20000, c.target_s, [&](std::int64_t n) { sink[0] = bf16_dot_kernel(n, 0); });
  const auto timing = run_team(c.cpus, c.runs, nullptr, [&](int t) { sink[t] += bf16_dot_kernel(iters, t); });
  Attempt a;
  a.rates = team_rates(a.details, timing, bf16_dot_flops(iters) * c.threads, c.cpu_clock);
  a.wall_clock = !c.cpu_clock;
  a.method = fmt::format(
      "{} {} chains of {} fp32 lanes (2 bf16 products each, 4 FLOP per lane) x {} steps "
      "per thread, {}, {} threads, {} clock",
      kBf16Chains, bf16_dot_instruction(), bf16_dot_lanes(), iters, isa_name(c.isa), c.threads, c.opts.clock);
  return a;
}

Attempt matrix_attempt(const ComputeContext& c) {
  std::vector<double> sink(c.threads);
  const std::int64_t iters =
      calibrate(2000, c.target_s, [&](std::int64_t n) { sink[0] = bf16_matrix_kernel(n); });
  const auto timing = run_team(c.cpus, c.runs, nullptr, [&](int t) { sink[t] += bf16_matrix_kernel(iters); });
  Attempt a;
  a.rates = team_rates(a.details, timing, bf16_matrix_flops(iters) * c.threads, c.cpu_clock);
  a.wall_clock = !c.cpu_clock;
  a.method = fmt::format("{} x {} steps per thread, {} threads, {} clock", bf16_matrix_method(), iters,
                         c.threads, c.opts.clock);
  return a;
}

// bf16's vector roof: the CPU's bf16 dot instruction when it has one and the ISA in use carries it
// (VDPBF16PS: AVX-512; BFDOT: NEON or SVE), else emulated.
void bf16_vector(nlohmann::json& out, const ComputeContext& c, const Bf16Support& sup) {
  if (bf16_dot_runs_in(sup, c.isa)) {
    measure_figure(out, c.opts, "bf16_gflops", [&] { return bf16_dot_attempt(c); });
    return;
  }
  // The FP32 FMA figure, measured here when it was not asked for (kept out of `out` then).
  nlohmann::json scratch;
  const nlohmann::json* src = &out;
  if (!out.contains("fp32_gflops")) {
    measure_figure(scratch, c.opts, "fp32_gflops", [&] { return fma_attempt(c, false); });
    src = &scratch;
  }
  const std::string why = sup.vector != "emulated"
                              ? "the ISA in use (" + isa_name(c.isa) + ") has no " + bf16_dot_instruction()
                              : "this CPU's flags list no avx512_bf16 (x86-64) or bf16 (arm64)";
  record_copy(
      out, *src, "fp32_gflops", "bf16_gflops",
      fmt::format("emulated: {}, so bf16 work is converted and runs on the FP32 FMA units; its roof is "
                  "the FP32 FMA peak ({})",
                  why, (*src)["method"]["fp32_gflops"].get<std::string>()));
}

void bf16_matrix(nlohmann::json& out, const ComputeContext& c, const Bf16Support& sup) {
  std::string why;
  if (sup.matrix.empty()) {
    out["missing"]["bf16_tensor_gflops"] = std::string(platform::arch_name()) == "arm64"
                                               ? "no BFMMLA: this CPU's hwcaps list no bf16"
                                               : "no AMX: this CPU's flags list no amx_tile and amx_bf16";
  } else if (!bf16_matrix_enable(&why)) {
    out["missing"]["bf16_tensor_gflops"] = why;
  } else {
    measure_figure(out, c.opts, "bf16_tensor_gflops", [&] { return matrix_attempt(c); });
  }
}

}  // namespace

void measure_compute(nlohmann::json& out, const ComputeContext& c,
                     const std::function<bool(const std::string&)>& wants) {
  for (bool fp64 : {false, true}) {
    const std::string fig = fp64 ? "fp64" : "fp32";
    if (wants(fig)) measure_figure(out, c.opts, fig + "_gflops", [&] { return fma_attempt(c, fp64); });
  }
  if (!wants("bf16") && !wants("bf16_amx")) return;
  const Bf16Support sup = detect_bf16_support();
  out["bf16_support"] = {{"vector", sup.vector}, {"matrix", sup.matrix}};
  if (wants("bf16")) bf16_vector(out, c, sup);
  if (wants("bf16_amx")) bf16_matrix(out, c, sup);
}

}  // namespace rlx::peaks::detail
