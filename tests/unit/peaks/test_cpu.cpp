// Unit tests of the CPU peak kernels and their bookkeeping (engine/peaks/cpu.h, measure.h): exact
// work counts, kernel results against closed forms, /sys parsing, statistics. No timing thresholds.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>

#include "peaks/cpu.h"
#include "peaks/measure.h"

using namespace rlx::peaks;

TEST_CASE("/sys cache sizes and cpu lists parse") {
  CHECK(parse_cache_size("32K") == 32768);
  CHECK(parse_cache_size("1024K") == 1048576);
  CHECK(parse_cache_size("33M") == 33u * 1024 * 1024);
  CHECK(parse_cache_size("512") == 512);
  CHECK(parse_cache_size("") == 0);
  CHECK(count_cpu_list("0-3,8,10-11") == 7);
  CHECK(count_cpu_list("0") == 1);
  CHECK(count_cpu_list("0-1") == 2);
}

TEST_CASE("ISA names round-trip and lanes per register") {
  for (Isa i : {Isa::scalar, Isa::avx2_fma, Isa::avx512}) CHECK(parse_isa(isa_name(i)) == i);
  CHECK_THROWS_WITH(parse_isa("sse"), "unknown ISA 'sse' (valid: avx512, avx2+fma, scalar)");
  CHECK(fp64_lanes(Isa::avx512) == 8);
  CHECK(fp64_lanes(Isa::avx2_fma) == 4);
  CHECK(fp64_lanes(Isa::scalar) == 1);
}

TEST_CASE("FMA work is 2 FLOP x lanes x chains x steps") {
  // avx512 fp64: 2 * 8 lanes * 12 chains * 10 steps = 1920; fp32 has 16 lanes.
  CHECK(fma_flops(Isa::avx512, true, 10) == 1920);
  CHECK(fma_flops(Isa::avx512, false, 10) == 3840);
  CHECK(fma_flops(Isa::avx2_fma, true, 10) == 960);
  CHECK(fma_flops(Isa::scalar, false, 10) == 240);
}

// x_{n} = m^n x_0 + a (1 - m^n) / (1 - m), summed over chains started at 0..11 and over lanes.
static double fma_closed_form(int lanes, std::int64_t n, double m, double a) {
  const double mn = std::pow(m, double(n));
  double s = 0;
  for (int k = 0; k < kFmaChains; ++k) s += mn * k + a * (1 - mn) / (1 - m);
  return s * lanes;
}

TEST_CASE("FMA kernels compute the recurrence in every ISA this CPU has") {
  std::vector<Isa> isas = {Isa::scalar};
  if (detect_isa() != Isa::scalar) isas.push_back(Isa::avx2_fma);
  if (detect_isa() == Isa::avx512) isas.push_back(Isa::avx512);
  for (Isa isa : isas) {
    CAPTURE(isa_name(isa));
    CHECK(fma_kernel(isa, true, 1000, 0.999, 1.0, 0) == Approx(fma_closed_form(fp64_lanes(isa), 1000, 0.999, 1.0)));
    CHECK(fma_kernel(isa, false, 1000, 0.999, 1.0, 0) ==
          Approx(fma_closed_form(isa == Isa::scalar ? 1 : 2 * fp64_lanes(isa), 1000, 0.999, 1.0)).epsilon(1e-4));
  }
}

TEST_CASE("triad and read kernels: exact results, tails included") {
  const std::size_t n = 1003;  // not a multiple of any vector width: exercises the scalar tail
  AlignedDoubles a(n), b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) a.data()[i] = -1, b.data()[i] = double(i), c.data()[i] = 2;
  for (Isa isa : {Isa::scalar, detect_isa()}) {
    for (bool nt : {false, true}) {
      triad_kernel(isa, a.data(), b.data(), c.data(), n, 3.0, nt);
      bool all = true;
      for (std::size_t i = 0; i < n; ++i) all = all && a.data()[i] == double(i) + 6.0;
      CHECK(all);
    }
    // Sum of 0..1002 = 502503, read 3 times.
    CHECK(read_kernel(isa, b.data(), n, 3) == Approx(3 * 502503.0));
  }
  CHECK(kTriadBytesPerElement == 24);
}

TEST_CASE("summarize: best, median, worst and spread of rates") {
  const Stat s = summarize({3, 1, 2, 4});
  CHECK(s.best == 4);
  CHECK(s.worst == 1);
  CHECK(s.median == 2.5);
  CHECK(s.spread_pct == Approx(75.0));
  CHECK(s.repeats == 4);
  CHECK(summarize({5}).spread_pct == 0);
  CHECK_THROWS_WITH(summarize({}), "no values to summarize");
}

TEST_CASE("run_team runs setup once and the body once per repeat on every core") {
  const auto cpus = one_cpu_per_core();
  std::atomic<int> setups{0}, bodies{0};
  const auto timing = run_team(cpus, 3, [&](int) { ++setups; }, [&](int) { ++bodies; });
  const int n = cpus.empty() ? 1 : int(cpus.size());
  CHECK(timing.wall_seconds.size() == 3);
  CHECK(timing.cpu_seconds.size() == 3);
  CHECK(setups == n);
  CHECK(bodies == 3 * n);
  CHECK_THROWS_WITH(run_team(cpus, 2, nullptr, [](int) { throw std::runtime_error("kernel failed"); }),
                    "kernel failed");
}

TEST_CASE("measure_cpu reports only the figures asked for, with their statistics") {
  MeasureOptions o;
  o.quick = true;
  o.repeats = 2;
  o.only = {"fp64"};
  const auto j = measure_cpu(o);
  CHECK(j["device"] == "cpu");
  CHECK(j["fp64_gflops"].get<double>() > 0);
  CHECK(j["stats"]["fp64_gflops"]["repeats"] == 2);
  CHECK(j["fp64_gflops"].get<double>() == j["stats"]["fp64_gflops"]["best"].get<double>());
  CHECK_FALSE(j.contains("dram_gbps"));
  CHECK(j["clock"] == "wall");
  CHECK(j["details"]["fp64_gflops"]["cpu_share"].get<double>() > 0);
  o.clock = "sundial";
  CHECK_THROWS_WITH(measure_cpu(o), "clock must be \"cpu\" or \"wall\", got \"sundial\"");
  o.clock = "cpu";
  CHECK(j["threads"].get<int>() == int(one_cpu_per_core().size()));
  o.only = {"fp128"};
  CHECK_THROWS_WITH(measure_cpu(o),
                    "unknown figure 'fp128' for device cpu (valid: dram, fp32, "
                    "fp64, gemm_fp32, gemm_bf16, l1, l2, l3)");
  o.only = {};
  o.repeats = 0;
  CHECK_THROWS_WITH(measure_cpu(o), "repeats must be >= 1");
}

#ifndef RLX_HAVE_TORCH_CUDA
TEST_CASE("measure_cuda without a CUDA LibTorch names the fix") {
  CHECK_FALSE(torch_cuda_available());
  CHECK_THROWS_WITH(measure_cuda({}),
                    "device 'cuda' needs rlx built against a CUDA LibTorch "
                    "(this build's LibTorch is CPU-only); use device='cpu'");
}
#endif

TEST_CASE("cache levels not faster than DRAM move to missing") {
  nlohmann::json p = {{"dram_gbps", 74.1}, {"l1_gbps", 781.0}, {"l2_gbps", 74.1}, {"l3_gbps", 64.0},
                      {"stats", {{"l3_gbps", {{"best", 64.0}}}}}};
  drop_cache_levels_not_above_dram(p);
  CHECK(p["l1_gbps"] == 781.0);
  CHECK_FALSE(p.contains("l2_gbps"));  // equal to DRAM is not above it
  CHECK_FALSE(p.contains("l3_gbps"));
  CHECK(p["missing"]["l3_gbps"] ==
        "measured 64.0 GB/s is not above DRAM's 74.1 GB/s, so the working set did not stay in this cache "
        "(is the reported cache size right?)");
  CHECK(p["missing"]["l2_gbps"].get<std::string>().rfind("measured 74.1 GB/s is not above", 0) == 0);
  CHECK(p["stats"]["l3_gbps"]["best"] == 64.0);  // kept for the record
  nlohmann::json no_dram = {{"l3_gbps", 10.0}};
  drop_cache_levels_not_above_dram(no_dram);
  CHECK(no_dram["l3_gbps"] == 10.0);
  CHECK_FALSE(no_dram.contains("missing"));
}
