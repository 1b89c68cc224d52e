// measure.cpp: runs the CPU kernels of cpu.h on a pinned team and turns their timings into peaks
// (see measure.h). Sizes: each FMA and cache repeat is calibrated to last about target_seconds on
// this machine; the triad's three arrays together are at least 8x the last-level cache (4x in
// quick mode) so the caches cannot serve a meaningful part of them.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "peaks/cpu.h"
#include "peaks/measure.h"

namespace rlx::peaks {
namespace {

using Clock = std::chrono::steady_clock;

bool wants(const MeasureOptions& o, const std::string& figure) {
  return o.only.empty() || std::find(o.only.begin(), o.only.end(), figure) != o.only.end();
}

void validate_only(const std::vector<std::string>& only, const std::vector<std::string>& valid, const char* device) {
  for (const auto& f : only) {
    if (std::find(valid.begin(), valid.end(), f) == valid.end()) {
      std::string list;
      for (const auto& v : valid) list += (list.empty() ? "" : ", ") + v;
      throw std::invalid_argument(
          fmt::format("unknown figure '{}' for device {} (valid: {})", f, device, list));
    }
  }
}

// Drops the warm-up run and converts seconds per repeat into rates of work_units / s / 1e9.
std::vector<double> rates(std::vector<double> seconds, double work_units) {
  if (seconds.size() > 1) seconds.erase(seconds.begin());
  std::vector<double> out;
  for (double s : seconds) out.push_back(work_units / s / 1e9);
  return out;
}

void record(nlohmann::json& out, const std::string& field, const std::vector<double>& r, const std::string& method) {
  const Stat s = summarize(r);
  out[field] = s.best;
  out["stats"][field] = to_json(s);
  out["method"][field] = method;
}

// A team's figure: rates by the clock asked for, and the other clock's best and the CPU share
// (cpu / wall of the best repeat) in details, so contention from other processes is visible.
std::vector<double> team_rates(nlohmann::json& out, const std::string& field, const TeamTiming& t, double work,
                               bool cpu_clock) {
  const auto by_cpu = rates(t.cpu_seconds, work), by_wall = rates(t.wall_seconds, work);
  std::size_t best = 0;
  for (std::size_t i = 0; i < by_cpu.size(); ++i) {
    if ((cpu_clock ? by_cpu : by_wall)[i] > (cpu_clock ? by_cpu : by_wall)[best]) best = i;
  }
  out["details"][field]["wall_clock_best"] = *std::max_element(by_wall.begin(), by_wall.end());
  out["details"][field]["cpu_clock_best"] = *std::max_element(by_cpu.begin(), by_cpu.end());
  out["details"][field]["cpu_share"] = by_wall[best] / by_cpu[best];
  return cpu_clock ? by_cpu : by_wall;
}

// Scales a unit count so one run of `run(units)` lasts about target seconds.
std::int64_t calibrate(std::int64_t units, double target, const std::function<void(std::int64_t)>& run) {
  for (int i = 0; i < 20; ++i) {
    const auto t0 = Clock::now();
    run(units);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (s > target / 20) return std::max<std::int64_t>(1, std::int64_t(double(units) * target / s));
    units *= 4;
  }
  return units;
}

}  // namespace

Stat summarize(const std::vector<double>& r) {
  if (r.empty()) throw std::invalid_argument("no values to summarize");
  std::vector<double> v = r;
  std::sort(v.begin(), v.end());
  Stat s;
  s.repeats = int(v.size());
  s.best = v.back();
  s.worst = v.front();
  const std::size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.spread_pct = s.best > 0 ? (s.best - s.worst) / s.best * 100 : 0;
  return s;
}

nlohmann::json to_json(const Stat& s) {
  return {{"best", s.best}, {"median", s.median}, {"worst", s.worst}, {"spread_pct", s.spread_pct},
          {"repeats", s.repeats}};
}

const std::vector<std::string>& cpu_figures() {
  static const std::vector<std::string> v = {"dram", "fp32", "fp64", "gemm_fp32", "gemm_bf16", "l1", "l2", "l3"};
  return v;
}

const std::vector<std::string>& cuda_figures() {
  static const std::vector<std::string> v = {"dram", "gemm_fp32", "gemm_tf32", "gemm_fp16", "gemm_bf16"};
  return v;
}

void drop_cache_levels_not_above_dram(nlohmann::json& out) {
  if (!out.contains("dram_gbps")) return;
  const double dram = out["dram_gbps"].get<double>();
  for (const char* fig : {"l1_gbps", "l2_gbps", "l3_gbps"}) {
    if (!out.contains(fig) || out[fig].get<double>() > dram) continue;
    out["missing"][fig] = fmt::format("measured {:.1f} GB/s is not above DRAM's {:.1f} GB/s, so the working set "
                                      "did not stay in this cache (is the reported cache size right?)",
                                      out[fig].get<double>(), dram);
    out.erase(fig);
  }
}

nlohmann::json measure_cpu(const MeasureOptions& o) {
  if (o.repeats < 1) throw std::invalid_argument("repeats must be >= 1");
  validate_only(o.only, cpu_figures(), "cpu");
  const auto start = Clock::now();
  const Isa isa = o.isa.empty() ? detect_isa() : parse_isa(o.isa);
  if (isa != Isa::scalar && detect_isa() != Isa::avx512 && isa != detect_isa()) {
    throw std::invalid_argument("this CPU does not support ISA '" + o.isa +
                                "' (detected: " + isa_name(detect_isa()) + ")");
  }
  std::vector<int> cpus = one_cpu_per_core();
  if (o.threads > 0) {
    if (o.threads > int(cpus.size())) {
      throw std::invalid_argument(
          fmt::format("threads={} but this process may use {} cores", o.threads, cpus.size()));
    }
    cpus.resize(o.threads);
  }
  const int nt = std::max<int>(1, int(cpus.size()));
  const int runs = o.repeats + 1;  // the first is a warm-up and is dropped
  const double target_s = o.quick ? 0.02 : 0.2;
  const auto caches = cpu_caches();
  if (o.clock != "cpu" && o.clock != "wall") {
    throw std::invalid_argument("clock must be \"cpu\" or \"wall\", got \"" + o.clock + "\"");
  }
  const bool cpu_clock = o.clock == "cpu";

  nlohmann::json out;
  out["device"] = "cpu";
  out["name"] = cpu_model_name();
  out["isa"] = isa_name(isa);
  out["threads"] = nt;
  out["cpus"] = cpus;
  out["quick"] = o.quick;
  out["repeats"] = o.repeats;
  out["clock"] = o.clock;
  out["stats"] = nlohmann::json::object();
  out["method"] = nlohmann::json::object();
  out["caches"] = nlohmann::json::array();
  for (const auto& c : caches) {
    out["caches"].push_back({{"level", c.level}, {"bytes", c.bytes}, {"shared_by_cpus", c.shared_by_cpus}});
  }

  for (bool fp64 : {false, true}) {
    const char* fig = fp64 ? "fp64" : "fp32";
    if (!wants(o, fig)) continue;
    // Chains converge to add / (1 - mul) = 1000: no overflow, no denormals, whatever iters is.
    const double mul = 0.999, add = 1.0;
    std::vector<double> sink(nt);
    const std::int64_t iters =
        calibrate(20000, target_s, [&](std::int64_t n) { sink[0] = fma_kernel(isa, fp64, n, mul, add, 0); });
    const auto timing =
        run_team(cpus, runs, nullptr, [&](int t) { sink[t] += fma_kernel(isa, fp64, iters, mul, add, t); });
    const std::string field = std::string(fig) + "_gflops";
    record(out, field, team_rates(out, field, timing, fma_flops(isa, fp64, iters) * nt, cpu_clock),
           fmt::format("{} FMA chains of {} lanes x {} steps per thread, {}, {} threads, {} clock", kFmaChains,
                       isa == Isa::scalar ? 1 : fp64_lanes(isa) * (fp64 ? 1 : 2), iters, isa_name(isa), nt, o.clock));
  }

  if (wants(o, "dram")) {
    std::size_t llc = 0;
    for (const auto& c : caches) llc = std::max(llc, c.bytes * std::size_t(std::max(1, nt / c.shared_by_cpus)));
    if (llc == 0) llc = 32u << 20;
    // Three arrays together >= 8x the LLC (quick: 4x), at least 384 MiB (quick: 96 MiB).
    const std::size_t total_bytes = std::max(llc * (o.quick ? 4 : 8), std::size_t(o.quick ? 96 : 384) << 20);
    const std::size_t per_thread = (total_bytes / 3 / sizeof(double) / nt) / 8 * 8;  // whole cache lines
    const std::size_t n = per_thread * nt;
    AlignedDoubles a(n), b(n), c(n);
    auto setup = [&](int t) {
      const std::size_t lo = std::size_t(t) * per_thread;
      for (std::size_t i = lo; i < lo + per_thread; ++i) a.data()[i] = 0, b.data()[i] = 1, c.data()[i] = 2;
    };
    double best_rate = 0;
    std::vector<double> best_rates;
    std::string best_store, best_variant;
    const bool vector = isa != Isa::scalar;
    for (bool nt_store : {false, true}) {
      if (nt_store && !vector) continue;
      auto body = [&](int t) {
        const std::size_t lo = std::size_t(t) * per_thread;
        triad_kernel(isa, a.data() + lo, b.data() + lo, c.data() + lo, per_thread, 3.0, nt_store);
      };
      const std::string variant = nt_store ? "triad_streaming_stores" : "triad_regular_stores";
      auto r = team_rates(out, variant, run_team(cpus, runs, setup, body), kTriadBytesPerElement * double(n), cpu_clock);
      const double best = *std::max_element(r.begin(), r.end());
      if (best > best_rate) best_rate = best, best_rates = r, best_store = nt_store ? "streaming" : "regular", best_variant = variant;
    }
    out["details"]["dram_gbps"] = out["details"][best_variant];
    record(out, "dram_gbps", best_rates,
           fmt::format("STREAM triad a = b + s*c, 24 bytes per element, 3 arrays of {:.0f} MiB, {} stores "
                       "(best of regular and streaming), {}, {} threads, {} clock",
                       double(n) * 8 / (1 << 20), best_store, isa_name(isa), nt, o.clock));
  }

  for (int level = 1; level <= 3; ++level) {
    const std::string fig = fmt::format("l{}", level);
    if (!wants(o, fig)) continue;
    const CacheLevel* c = nullptr;
    for (const auto& x : caches) {
      if (x.level == level) c = &x;
    }
    if (!c) {
      out["missing"][fig + "_gbps"] = fmt::format("no level {} data cache in /sys or sysconf", level);
      continue;
    }
    // Half of this thread's share of the level: fits with room for the stack and page tables, and
    // is larger than the level below, which would otherwise serve the reads.
    const int sharers = std::max(1, std::min(nt, c->shared_by_cpus));
    const std::size_t per_thread = (c->bytes / std::size_t(sharers) / 2 / sizeof(double)) / 64 * 64;
    std::vector<std::unique_ptr<AlignedDoubles>> bufs(nt);
    std::vector<double> sink(nt);
    auto setup = [&](int t) {
      bufs[t] = std::make_unique<AlignedDoubles>(per_thread);
      for (std::size_t i = 0; i < per_thread; ++i) bufs[t]->data()[i] = 1e-3 * double(i % 7);
    };
    AlignedDoubles probe(per_thread);
    for (std::size_t i = 0; i < per_thread; ++i) probe.data()[i] = 0;
    const std::int64_t passes = calibrate(
        4, target_s, [&](std::int64_t p) { sink[0] = read_kernel(isa, probe.data(), per_thread, p); });
    const auto timing = run_team(cpus, runs, setup,
                                 [&](int t) { sink[t] += read_kernel(isa, bufs[t]->data(), per_thread, passes); });
    record(out, fig + "_gbps", team_rates(out, fig + "_gbps", timing, double(per_thread) * 8 * double(passes) * nt, cpu_clock),
           fmt::format("read kernel over {} KiB per thread ({} passes), {}, {} threads, {} clock",
                       per_thread * 8 / 1024, passes, isa_name(isa), nt, o.clock));
  }

  drop_cache_levels_not_above_dram(out);

  for (const char* dtype : {"fp32", "bf16"}) {
    const std::string fig = std::string("gemm_") + dtype;
    if (!wants(o, fig)) continue;
    const bool bf16 = std::string(dtype) == "bf16";
    // Quick mode keeps the full sizes and only shortens the timing: below ~1024 LibTorch 1.13's
    // bf16 mm leaves oneDNN's AMX/AVX512-BF16 kernels (n=256 measured 5 GFLOP/s against 268 at
    // n=1024 on a Sapphire Rapids VM), and fp32 at n=512 read 37 against 102 GFLOP/s at n=2048,
    // so a quick roof sat far below the points drawn under it.
    const int n = bf16 ? 1024 : 2048;
    const GemmTiming g = torch_cpu_gemm(dtype, n, nt, runs, target_s);
    record(out, fig + "_gflops", rates(g.seconds, 2.0 * double(n) * n * n),
           fmt::format("LibTorch mm {}x{}x{} in {} on {}, 2*n^3 FLOP, back to back for ~{} s per repeat, {} threads "
                       "(LibTorch set to {}), wall clock", n, n, n, dtype, g.library, target_s, g.threads_used, nt));
    out["gemm_threads"][fig + "_gflops"] = g.threads_used;
  }

  out["seconds"] = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

}  // namespace rlx::peaks
