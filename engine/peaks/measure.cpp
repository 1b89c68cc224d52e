// measure.cpp: runs the CPU kernels of cpu.h on a pinned team and turns their timings into peaks
// (see measure.h). Sizes: each FMA and cache repeat is calibrated to last about target_seconds on
// this machine; the triad's three arrays together are at least 8x the last-level cache (4x in
// quick mode) so the caches cannot serve a meaningful part of them.
#include <fmt/format.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "peaks/cpu.h"
#include "peaks/measure.h"
#include "peaks/measure_parts.h"
#include "platform/platform.h"
#include "util/cpu_stat.h"
#include "util/interrupt.h"
#include "util/thread_cpu.h"

namespace rlx::peaks {

using Clock = std::chrono::steady_clock;

namespace detail {

std::vector<double> rates(std::vector<double> seconds, double work_units) {
  if (seconds.size() > 1) seconds.erase(seconds.begin());
  std::vector<double> out;
  for (double s : seconds) out.push_back(work_units / s / 1e9);
  return out;
}

std::vector<double> team_rates(nlohmann::json& details, const TeamTiming& t, double work, bool cpu_clock) {
  const auto by_cpu = rates(t.cpu_seconds, work), by_wall = rates(t.wall_seconds, work);
  const auto& used = cpu_clock ? by_cpu : by_wall;
  const std::size_t best = std::size_t(std::max_element(used.begin(), used.end()) - used.begin());
  details["wall_clock_best"] = *std::max_element(by_wall.begin(), by_wall.end());
  details["cpu_clock_best"] = *std::max_element(by_cpu.begin(), by_cpu.end());
  details["cpu_share"] = by_wall[best] / by_cpu[best];
  return used;
}

double gemm_cpu_share(double cpu_s, double wall_s, int threads_busy, int threads_set) {
  const int threads =
      threads_busy > 0 ? std::min(threads_busy, std::max(1, threads_set)) : std::max(1, threads_set);
  return cpu_s / (wall_s * threads);
}

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

namespace {

// The CPU share of an attempt whose rates time-sharing lowers, else -1 (unknown or not relevant).
double wall_share(const Attempt& a) {
  if (!a.wall_clock || !a.details.contains("cpu_share") || !a.details["cpu_share"].is_number()) return -1;
  return a.details["cpu_share"].get<double>();
}

std::string quality_warning(const Stat& s, double share, std::size_t attempts, const MeasureOptions& o) {
  std::string why;
  if (s.spread_pct > o.spread_limit_pct) {
    why = fmt::format("spread {:.1f} % over {} repeats is above {:.0f} % (the machine was busy or its clocks moved)",
                      s.spread_pct, s.repeats, o.spread_limit_pct);
  }
  if (share >= 0 && share < kContendedShare) {
    why += fmt::format("{}its threads got {:.0f} % of their cores' time (other processes ran), so it reads low by "
                       "about that much",
                       why.empty() ? "" : "; ", share * 100);
  }
  if (why.empty()) return why;
  return fmt::format("{} after {} attempt{}: re-measure on an idle machine{}", why, attempts, attempts == 1 ? "" : "s",
                     o.quick ? " without --quick" : "");
}

}  // namespace

Stat measure_figure(nlohmann::json& out, const MeasureOptions& o, const std::string& field,
                    const std::function<Attempt()>& attempt) {
  Attempt kept;
  Stat kept_stat;
  nlohmann::json spreads = nlohmann::json::array();
  for (int n = 0; n <= o.remeasure; ++n) {
    Attempt a = attempt();
    const Stat s = summarize(a.rates);
    const double share = wall_share(a);
    spreads.push_back(s.spread_pct);
    if (n == 0 || s.median > kept_stat.median) kept = std::move(a), kept_stat = s;
    if (s.spread_pct <= o.spread_limit_pct && !(share >= 0 && share < kContendedShare)) break;
  }
  out[field] = kept_stat.best;
  out["stats"][field] = to_json(kept_stat);
  out["stats"][field]["attempts"] = spreads.size();
  out["stats"][field]["attempt_spreads_pct"] = spreads;
  out["method"][field] = kept.method;
  if (!kept.details.empty()) out["details"][field] = kept.details;
  const std::string warning = quality_warning(kept_stat, wall_share(kept), spreads.size(), o);
  if (!warning.empty()) out["warnings"][field] = warning;
  return kept_stat;
}

void record_copy(nlohmann::json& out, const nlohmann::json& src, const std::string& from, const std::string& field,
                 const std::string& method) {
  out[field] = src[from];
  out["stats"][field] = src["stats"][from];
  out["method"][field] = method;
  out["copied_from"][field] = from;  // a roof not measured on its own (an emulated one), as data
  if (src.contains("details") && src["details"].contains(from)) out["details"][field] = src["details"][from];
  if (src.contains("warnings") && src["warnings"].contains(from)) out["warnings"][field] = src["warnings"][from];
}

}  // namespace detail

namespace {

using namespace detail;

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
  static const std::vector<std::string> v = {"dram",      "fp32",      "fp64", "bf16", "bf16_amx",
                                             "gemm_fp32", "gemm_bf16", "l1",   "l2",   "l3"};
  return v;
}

const std::vector<std::string>& cuda_figures() {
  static const std::vector<std::string> v = {"dram",      "l2",        "gemm_fp32",
                                             "gemm_tf32", "gemm_fp16", "gemm_bf16"};
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
    if (out.contains("warnings")) out["warnings"].erase(fig);
  }
}

namespace {

// DRAM: STREAM triad over three arrays together >= 8x the last-level cache (quick: 4x), at least
// 384 MiB (quick: 96 MiB), with regular and with streaming stores; the better of the two counts.
Stat measure_dram(nlohmann::json& out, const ComputeContext& c, const std::vector<CacheLevel>& caches) {
  const MeasureOptions& o = c.opts;
  const int nt = c.threads;
  std::size_t llc = 0;
  for (const auto& x : caches) llc = std::max(llc, x.bytes * std::size_t(std::max(1, nt / x.shared_by_cpus)));
  if (llc == 0) llc = 32u << 20;
  const std::size_t total_bytes = std::max(llc * (o.quick ? 4 : 8), std::size_t(o.quick ? 96 : 384) << 20);
  const std::size_t per_thread = (total_bytes / 3 / sizeof(double) / nt) / 8 * 8;  // whole cache lines
  const std::size_t n = per_thread * nt;
  AlignedDoubles a(n), b(n), cc(n);
  auto setup = [&](int t) {
    const std::size_t lo = std::size_t(t) * per_thread;
    for (std::size_t i = lo; i < lo + per_thread; ++i) a.data()[i] = 0, b.data()[i] = 1, cc.data()[i] = 2;
  };
  return measure_figure(out, o, "dram_gbps", [&] {
    Attempt best;
    double best_rate = 0;
    std::string best_store;
    for (bool nt_store : {false, true}) {
      if (nt_store && !has_streaming_stores(c.isa)) continue;
      auto body = [&](int t) {
        const std::size_t lo = std::size_t(t) * per_thread;
        triad_kernel(c.isa, a.data() + lo, b.data() + lo, cc.data() + lo, per_thread, 3.0, nt_store);
      };
      nlohmann::json details;
      auto r = team_rates(details, run_team(c.cpus, c.runs, setup, body), kTriadBytesPerElement * double(n),
                          c.cpu_clock);
      best.wall_clock = !c.cpu_clock;
      const double top = *std::max_element(r.begin(), r.end());
      if (top > best_rate) best_rate = top, best.rates = r, best.details = details, best_store = nt_store ? "streaming" : "regular";
    }
    best.method = fmt::format(
        "STREAM triad a = b + s*c, 24 bytes per element, 3 arrays of {:.0f} MiB, {} stores "
        "({}), {}, {} threads, {} clock",
        double(n) * 8 / (1 << 20), best_store,
        has_streaming_stores(c.isa) ? "best of regular and streaming" : "this ISA has no streaming store",
        isa_name(c.isa), nt, o.clock);
    return best;
  });
}

// Cache level `level`: a read kernel over half of each thread's share of it.
void measure_cache(nlohmann::json& out, const ComputeContext& c, const std::vector<CacheLevel>& caches, int level) {
  const std::string field = fmt::format("l{}_gbps", level);
  const CacheLevel* lv = nullptr;
  for (const auto& x : caches) {
    if (x.level == level) lv = &x;
  }
  if (!lv) {
    out["missing"][field] = fmt::format("no level {} data cache in /sys or sysconf", level);
    return;
  }
  // Half of this thread's share of the level: fits with room for the stack and page tables, and
  // is larger than the level below, which would otherwise serve the reads.
  const int nt = c.threads;
  const int sharers = std::max(1, std::min(nt, lv->shared_by_cpus));
  const std::size_t per_thread = (lv->bytes / std::size_t(sharers) / 2 / sizeof(double)) / 64 * 64;
  std::vector<std::unique_ptr<AlignedDoubles>> bufs(nt);
  std::vector<double> sink(nt);
  auto setup = [&](int t) {
    bufs[t] = std::make_unique<AlignedDoubles>(per_thread);
    for (std::size_t i = 0; i < per_thread; ++i) bufs[t]->data()[i] = 1e-3 * double(i % 7);
  };
  AlignedDoubles probe(per_thread);
  for (std::size_t i = 0; i < per_thread; ++i) probe.data()[i] = 0;
  const std::int64_t passes = calibrate(
      4, c.target_s, [&](std::int64_t p) { sink[0] = read_kernel(c.isa, probe.data(), per_thread, p); });
  measure_figure(out, c.opts, field, [&] {
    Attempt a;
    const auto timing = run_team(c.cpus, c.runs, setup,
                                 [&](int t) { sink[t] += read_kernel(c.isa, bufs[t]->data(), per_thread, passes); });
    a.rates = team_rates(a.details, timing, double(per_thread) * 8 * double(passes) * nt, c.cpu_clock);
    a.wall_clock = !c.cpu_clock;
    a.method = fmt::format("read kernel over {} KiB per thread ({} passes), {}, {} threads, {} clock",
                           per_thread * 8 / 1024, passes, isa_name(c.isa), nt, c.opts.clock);
    return a;
  });
}

double process_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// LibTorch GEMM, the practical ceiling. Quick mode keeps the full sizes and only shortens the
// timing: below ~1024 LibTorch 1.13's bf16 mm leaves oneDNN's AMX/AVX512-BF16 kernels (n=256
// measured 5 GFLOP/s against 268 at n=1024 on a Sapphire Rapids VM), and fp32 at n=512 read 37
// against 102 GFLOP/s at n=2048, so a quick roof sat far below the points drawn under it.
void measure_gemm_figure(nlohmann::json& out, const ComputeContext& c, const std::string& dtype,
                         const std::string& field) {
  const int n = dtype == "bf16" ? 1024 : 2048;
  int threads_used = 0;
  measure_figure(out, c.opts, field, [&] {
    const double cpu0 = process_cpu_s();
    const auto threads0 = util::thread_cpu_seconds();
    const auto t0 = Clock::now();
    const GemmTiming g = c.opts.cpu_gemm(dtype, n, c.threads, c.runs, c.target_s);
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    const int busy = util::busy_threads(threads0, util::thread_cpu_seconds(), wall);
    threads_used = busy > 0 ? std::min(busy, std::max(1, g.threads_used)) : g.threads_used;
    Attempt a;
    a.rates = rates(g.seconds, 2.0 * double(n) * n * n);
    // The process's CPU time over the wall time of the threads that worked (setup included, a few
    // percent).
    a.details["cpu_share"] = gemm_cpu_share(process_cpu_s() - cpu0, wall, busy, g.threads_used);
    a.details["threads_busy"] = busy;
    a.method = fmt::format(
        "LibTorch mm {}x{}x{} in {} on {}, 2*n^3 FLOP, back to back for ~{} s per repeat, {} "
        "threads (LibTorch set to {}), wall clock",
        n, n, n, dtype, g.library, c.target_s, threads_used, c.threads);
    return a;
  });
  out["gemm_threads"][field] = threads_used;
}

// LibTorch refusing the GEMM (its first error line) leaves the figure missing with the reason, the
// other figures kept: LibTorch 1.13 on an arm64 CPU with bf16 hands a bf16 mm to oneDNN, which
// has no kernel for it ("could not create a primitive descriptor iterator", under qemu's max CPU).
void measure_gemm(nlohmann::json& out, const ComputeContext& c, const std::string& dtype) {
  const std::string field = "gemm_" + dtype + "_gflops";
  if (!c.opts.cpu_gemm) {
    out["missing"][field] = "no LibTorch GEMM was given to this measurement (MeasureOptions::cpu_gemm)";
    return;
  }
  try {
    measure_gemm_figure(out, c, dtype, field);
  } catch (const util::Interrupted&) {
    throw;
  } catch (const std::exception& e) {
    const std::string what = e.what();
    out["missing"][field] =
        fmt::format("LibTorch's {} GEMM failed on this CPU: {}", dtype, what.substr(0, what.find('\n')));
  }
}

}  // namespace

nlohmann::json measure_cpu(const MeasureOptions& o) {
  if (o.repeats < 1) throw std::invalid_argument("repeats must be >= 1");
  if (o.remeasure < 0) throw std::invalid_argument("remeasure must be >= 0");
  if (!(o.spread_limit_pct > 0)) throw std::invalid_argument("spread_limit_pct must be > 0");
  validate_only(o.only, cpu_figures(), "cpu");
  const auto start = Clock::now();
  const Isa isa = o.isa.empty() ? detect_isa() : parse_isa(o.isa);
  if (!isa_available(isa)) {
    throw std::invalid_argument("this CPU does not support ISA '" + o.isa +
                                "' (detected: " + isa_name(detect_isa()) + ")");
  }
  std::vector<int> cpus = one_cpu_per_core();
  // A cgroup's CPU quota throttles threads beyond it (util/cpu_quota.h): the default measures on
  // as many cores as the quota allows, the peak training's default threads can reach.
  const auto quota = util::cpu_quota();
  if (o.threads == 0 && static_cast<int>(cpus.size()) > util::quota_cpus_rounded_up(quota))
    cpus.resize(static_cast<size_t>(util::quota_cpus_rounded_up(quota)));
  if (o.threads > 0) {
    if (o.threads > int(cpus.size())) {
      throw std::invalid_argument(
          fmt::format("threads={} but this process may use {} cores", o.threads, cpus.size()));
    }
    cpus.resize(o.threads);
  }
  if (o.clock != "cpu" && o.clock != "wall") {
    throw std::invalid_argument("clock must be \"cpu\" or \"wall\", got \"" + o.clock + "\"");
  }
  const int nt = std::max<int>(1, int(cpus.size()));
  // The first run of each attempt is a warm-up and is dropped.
  const ComputeContext ctx{o, isa, cpus, nt, o.repeats + 1, o.quick ? 0.02 : 0.2, o.clock == "cpu"};
  const auto caches = cpu_caches();

  nlohmann::json out;
  out["device"] = "cpu";
  out["name"] = cpu_model_name();
  out["isa"] = isa_name(isa);
  // A number, so the store keeps it with the figures: an arm64 build's bf16 roofs are BFDOT and
  // BFMMLA, not VDPBF16PS and AMX (rlx.roofline._labels names them by it).
  if (std::string(platform::arch_name()) == "arm64") out["isa_arm64"] = 1;
  // Under an emulator the figures are the emulator's on its host (not kept by the store: the
  // environment records it).
  if (!platform::emulation().kind.empty()) out["emulation"] = platform::emulation().kind;
  out["threads"] = nt;
  out["cpus"] = cpus;
  if (quota) out["cpu_quota"] = quota->cpus;
  out["quick"] = o.quick;
  out["repeats"] = o.repeats;
  out["clock"] = o.clock;
  out["spread_limit_pct"] = o.spread_limit_pct;
  out["remeasure"] = o.remeasure;
  out["stats"] = nlohmann::json::object();
  out["method"] = nlohmann::json::object();
  out["caches"] = nlohmann::json::array();
  for (const auto& c : caches) {
    out["caches"].push_back({{"level", c.level}, {"bytes", c.bytes}, {"shared_by_cpus", c.shared_by_cpus}});
  }
  auto want = [&](const std::string& f) { return wants(o, f); };
  measure_compute(out, ctx, want);
  if (want("dram")) measure_dram(out, ctx, caches);
  for (int level = 1; level <= 3; ++level) {
    if (want(fmt::format("l{}", level))) measure_cache(out, ctx, caches, level);
  }
  drop_cache_levels_not_above_dram(out);
  for (const char* dtype : {"fp32", "bf16"}) {
    if (want(std::string("gemm_") + dtype)) measure_gemm(out, ctx, dtype);
  }
  if (want("bf16") || want("bf16_amx") || want("gemm_bf16")) {
    // The CPU emulates bf16 when it has no bf16 arithmetic at all: LibTorch's bf16 GEMM then
    // converts to fp32 too, and both bf16 figures are labelled so.
    const Bf16Support sup = detect_bf16_support();
    const bool emulated = sup.vector == "emulated" && sup.matrix.empty();
    out["bf16_emulated"] = emulated ? 1 : 0;
    if (emulated && out.contains("gemm_bf16_gflops")) {
      out["method"]["gemm_bf16_gflops"] = out["method"]["gemm_bf16_gflops"].get<std::string>() +
                                          "; emulated: no bf16 instructions on this CPU";
    }
  }
  out["seconds"] = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

}  // namespace rlx::peaks
