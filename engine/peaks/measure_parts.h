// measure_parts.h: the pieces measure.cpp and measure_compute.cpp share (internal to rlx_peaks):
// turning team timings into rates, calibrating a kernel's length, and recording a figure with its
// quality: every figure is measured as an attempt of `repeats` timed runs, measured again (a
// bounded number of times) while the spread of its repeats is above the limit, and stored with
// best, median, worst, spread, repeats, attempts and, when it stayed noisy, a warning.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "peaks/cpu.h"
#include "peaks/measure.h"

namespace rlx::peaks::detail {

// Drops the warm-up run and converts seconds per repeat into rates of work_units / s / 1e9.
std::vector<double> rates(std::vector<double> seconds, double work_units);

// A team's rates by the clock asked for; `details` gets the other clock's best and the CPU share
// (cpu / wall of the best repeat), so contention from other processes is visible.
std::vector<double> team_rates(nlohmann::json& details, const TeamTiming& t, double work, bool cpu_clock);

// The CPU share of a LibTorch matrix product: the process's CPU seconds over the wall seconds of
// the threads that really worked (threads_busy, util::busy_threads), at most threads_set. A kernel
// on fewer threads than it was given (LibTorch's emulated bf16 product runs on one) is not
// contended for that (issue 35 item 12: 51 % on an idle 2-core machine); when no thread counted
// as busy (all starved), the threads it was given.
double gemm_cpu_share(double cpu_s, double wall_s, int threads_busy, int threads_set);

// Scales a unit count so one run of `run(units)` lasts about target seconds.
std::int64_t calibrate(std::int64_t units, double target, const std::function<void(std::int64_t)>& run);

// One attempt at a figure: its rates (warm-up dropped), how it was measured, and details.
struct Attempt {
  std::vector<double> rates;
  std::string method;
  nlohmann::json details = nlohmann::json::object();  // cpu_share: its threads' CPU time / wall time
  bool wall_clock = true;  // rates by wall time, so time other processes took lowers them
};

// Measures a figure with `attempt` until the spread of its repeats is at most
// opts.spread_limit_pct and, for a wall-clock figure, its threads got at least kContendedShare of
// their cores (details.cpu_share), or opts.remeasure more attempts were made; then records into
// `out`: out[field] = best, out.stats[field] = {best, median, worst, spread_pct, repeats, attempts,
// attempt_spreads_pct}, out.method[field], out.details[field]; out.warnings[field] when the kept
// attempt is still noisy or contended. The attempt kept is the one with the highest median:
// disturbances on a shared machine only slow repeats down, and the median is the figure least
// moved by one disturbed repeat. Returns the kept attempt's summary.
Stat measure_figure(nlohmann::json& out, const MeasureOptions& opts, const std::string& field,
                    const std::function<Attempt()>& attempt);

// Records a figure that is not measured but copied from another (an emulated roof): value, stats,
// details and warning of src's `from` under out's `field`, with its own method; copied_from[field]
// names `from`.
void record_copy(nlohmann::json& out, const nlohmann::json& src, const std::string& from,
                 const std::string& field, const std::string& method);

// The compute figures (measure_compute.cpp): FP32/FP64 FMA chains, bf16 (VDPBF16PS or emulated)
// and AMX, as asked for by `wants`.
struct ComputeContext {
  const MeasureOptions& opts;
  Isa isa;
  const std::vector<int>& cpus;
  int threads;
  int runs;         // repeats + the warm-up
  double target_s;  // seconds per timed run
  bool cpu_clock;
};
void measure_compute(nlohmann::json& out, const ComputeContext& ctx,
                     const std::function<bool(const std::string&)>& wants);

}  // namespace rlx::peaks::detail
