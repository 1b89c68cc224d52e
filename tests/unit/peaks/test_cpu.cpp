// Unit tests of the CPU peak kernels and their bookkeeping (engine/peaks/cpu.h, measure.h): exact
// work counts, kernel results against closed forms, /sys parsing, statistics. No timing thresholds.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>

#include "peaks/cpu.h"
#include "peaks/measure.h"
#include "peaks/measure_parts.h"
#include "platform/platform.h"

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
  for (Isa i : {Isa::scalar, Isa::avx2_fma, Isa::avx512, Isa::neon, Isa::sve})
    CHECK(parse_isa(isa_name(i)) == i);
  CHECK_THROWS_WITH(parse_isa("sse"), "unknown ISA 'sse' (valid: avx512, avx2+fma, sve, neon, scalar)");
  CHECK(fp64_lanes(Isa::avx512) == 8);
  CHECK(fp64_lanes(Isa::avx2_fma) == 4);
  CHECK(fp64_lanes(Isa::neon) == 2);
  CHECK(fp64_lanes(Isa::scalar) == 1);
  // SVE's lanes are the vector length this process runs with: 0 without SVE.
  const auto& f = rlx::platform::cpu_features();
  CHECK(fp64_lanes(Isa::sve) == f.sve_vector_bits / 64);
  CHECK(has_streaming_stores(Isa::avx512));
  CHECK(has_streaming_stores(Isa::sve));
  CHECK_FALSE(has_streaming_stores(Isa::neon));
  CHECK_FALSE(has_streaming_stores(Isa::scalar));
}

TEST_CASE("the detected ISA is this build's architecture's, and runs") {
  const Isa isa = detect_isa();
  CHECK(isa_available(isa));
  CHECK(isa_available(Isa::scalar));
  const std::string arch = rlx::platform::arch_name();
  if (arch == "x86-64") {
    CHECK((isa == Isa::avx512 || isa == Isa::avx2_fma || isa == Isa::scalar));
    CHECK_FALSE(isa_available(Isa::neon));
    CHECK_FALSE(isa_available(Isa::sve));
  } else if (arch == "arm64") {
    CHECK((isa == Isa::sve || isa == Isa::neon));
    CHECK(isa_available(Isa::neon));  // NEON is part of every arm64 Linux machine
    CHECK_FALSE(isa_available(Isa::avx2_fma));
    CHECK_FALSE(isa_available(Isa::avx512));
  }
  // Another architecture's ISA is refused with the fix, not run.
  const Isa foreign = arch == "arm64" ? Isa::avx2_fma : Isa::neon;
  CHECK_THROWS_WITH(
      fma_kernel(foreign, true, 1, 1, 1, 0),
      "ISA '" + isa_name(foreign) + "' does not run on this CPU (detected: " + isa_name(isa) + ")");
}

TEST_CASE("FMA work is 2 FLOP x lanes x chains x steps") {
  // avx512 fp64: 2 * 8 lanes * 12 chains * 10 steps = 1920; fp32 has 16 lanes.
  CHECK(fma_flops(Isa::avx512, true, 10) == 1920);
  CHECK(fma_flops(Isa::avx512, false, 10) == 3840);
  CHECK(fma_flops(Isa::avx2_fma, true, 10) == 960);
  CHECK(fma_flops(Isa::scalar, false, 10) == 240);
  // neon fp64: 2 * 2 lanes * 12 chains * 10 steps = 480; fp32 has 4 lanes.
  CHECK(fma_flops(Isa::neon, true, 10) == 480);
  CHECK(fma_flops(Isa::neon, false, 10) == 960);
}

// x_{n} = m^n x_0 + a (1 - m^n) / (1 - m), summed over chains started at 0..11 and over lanes.
static double fma_closed_form(int lanes, std::int64_t n, double m, double a) {
  const double mn = std::pow(m, double(n));
  double s = 0;
  for (int k = 0; k < kFmaChains; ++k) s += mn * k + a * (1 - mn) / (1 - m);
  return s * lanes;
}

TEST_CASE("FMA kernels compute the recurrence in every ISA this CPU has") {
  std::vector<Isa> isas;
  for (Isa i : {Isa::scalar, Isa::avx2_fma, Isa::avx512, Isa::neon, Isa::sve})
    if (isa_available(i)) isas.push_back(i);
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
  for (Isa isa : {Isa::scalar, Isa::avx2_fma, Isa::avx512, Isa::neon, Isa::sve}) {
    if (!isa_available(isa)) continue;
    CAPTURE(isa_name(isa));
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
                    "fp64, bf16, bf16_amx, gemm_fp32, gemm_bf16, l1, l2, l3)");
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

// ---- issue 22: one roof policy (bf16 roofs from the flags) and peaks with their quality ----

TEST_CASE("bf16 support on arm64: the bf16 hwcap brings BFDOT and BFMMLA") {
  // Neoverse V1 / Graviton3: "... sve ... bf16 ...".
  Bf16Support s = bf16_support({"fp", "asimd", "sve", "svebf16", "i8mm", "bf16"});
  CHECK(s.vector == "bfdot");
  CHECK(s.matrix == "bfmmla");
  // Neoverse N1 / Graviton2: no bf16.
  s = bf16_support({"fp", "asimd", "asimddp", "atomics"});
  CHECK(s.vector == "emulated");
  CHECK(s.matrix == "");
  CHECK(bf16_dot_runs_in(bf16_support({"asimd", "bf16"}), Isa::neon));
  CHECK(bf16_dot_runs_in(bf16_support({"asimd", "bf16"}), Isa::sve));
  CHECK_FALSE(bf16_dot_runs_in(bf16_support({"asimd", "bf16"}), Isa::scalar));
  CHECK(bf16_dot_runs_in(bf16_support({"avx512f", "avx512_bf16"}), Isa::avx512));
  CHECK_FALSE(bf16_dot_runs_in(bf16_support({"avx512f", "avx512_bf16"}), Isa::avx2_fma));
}

TEST_CASE("bf16 support follows the CPU flags, never the model") {
  // The VM: AVX-512 without avx512_bf16 or AMX exposed: emulated.
  Bf16Support s = bf16_support({"fma", "avx2", "avx512f", "avx512bw", "avx512vl", "avx512dq"});
  CHECK(s.vector == "emulated");
  CHECK(s.matrix == "");
  // avx512_bf16 needs avx512f beside it (VDPBF16PS on zmm registers).
  CHECK(bf16_support({"avx512f", "avx512_bf16"}).vector == "avx512_bf16");
  CHECK(bf16_support({"avx512_bf16"}).vector == "emulated");
  // AMX needs both the tile state and the bf16 product.
  s = bf16_support({"avx512f", "avx512_bf16", "amx_tile", "amx_bf16", "amx_int8"});
  CHECK(s.vector == "avx512_bf16");
  CHECK(s.matrix == "amx");
  CHECK(bf16_support({"avx512f", "avx512_bf16", "amx_bf16"}).matrix == "");
  CHECK(bf16_support({}).vector == "emulated");
}

TEST_CASE("bf16 kernels: exact work counts, results against their closed forms") {
  const Bf16Support sup = detect_bf16_support();
  if (std::string(rlx::platform::arch_name()) == "x86-64") {
    // VDPBF16PS: 16 fp32 lanes x (2 products + 2 adds) = 64 FLOP per instruction, 12 chains x 10
    // steps = 7680. TDPBF16PS: 2 x 16 x 16 x 32 = 16384 FLOP, four tiles per step = 65536.
    CHECK(bf16_dot_lanes() == 16);
    CHECK(bf16_dot_flops(10) == 7680);
    CHECK(bf16_matrix_flops(1) == 65536);
    CHECK(bf16_dot_instruction() == "VDPBF16PS");
  } else if (std::string(rlx::platform::arch_name()) == "arm64") {
    // BFDOT: 4 fp32 lanes x 4 FLOP = 16 per instruction, x 12 chains x 10 steps = 1920. BFMMLA:
    // 2 x 2 outputs x 4 pairs x 2 = 32 FLOP per instruction, 12 chains = 384 a step.
    CHECK(bf16_dot_lanes() == 4);
    CHECK(bf16_dot_flops(10) == 1920);
    CHECK(bf16_matrix_flops(1) == 384);
    CHECK(bf16_dot_instruction() == "BFDOT");
    if (sup.matrix == "bfmmla") {
      // Every step adds 4 x (1.0 x 2^-10) = 2^-8 to each of 4 elements of 12 chains started at
      // 0: after 1000 steps 12 x 4 x 1000 / 256 = 187.5.
      CHECK(bf16_matrix_kernel(1000) == 187.5);
    }
  }
  if (sup.vector == "avx512_bf16" || sup.vector == "bfdot") {
    // Every step adds 1.0 x 0.5 + 1.0 x 0.5 = 1 per lane: chains start at 0.5 + k, k = 0..11, so
    // after 100 steps the lanes sum to lanes x (12 x 0.5 + 66 + 12 x 100) = lanes x 1272
    // (20352 with 16 lanes, 5088 with 4).
    CHECK(bf16_dot_kernel(100, 0.5) == bf16_dot_lanes() * 1272.0);
  }
}

TEST_CASE("a noisy figure is measured again, boundedly, and keeps the attempt with the highest median") {
  MeasureOptions o;  // limit 10 %, at most 2 more attempts
  std::vector<std::vector<double>> attempts = {{100, 50, 60}, {90, 88, 89}, {200, 10, 20}};
  std::size_t calls = 0;
  auto next = [&] {
    detail::Attempt a;
    a.rates = attempts[calls++];
    a.method = "attempt " + std::to_string(calls);
    return a;
  };
  nlohmann::json out;
  // Attempt 1: spread (100 - 50) / 100 = 50 % > 10 %: again. Attempt 2: (90 - 88) / 90 = 2.22 %:
  // stop. Kept: attempt 2 (median 89 against 60).
  const Stat s = detail::measure_figure(out, o, "fp32_gflops", next);
  CHECK(calls == 2);
  CHECK(s.best == 90);
  CHECK(out["fp32_gflops"] == 90.0);
  CHECK(out["stats"]["fp32_gflops"]["median"] == 89.0);
  CHECK(out["stats"]["fp32_gflops"]["attempts"] == 2);
  CHECK(out["stats"]["fp32_gflops"]["attempt_spreads_pct"][0] == 50.0);
  CHECK(out["stats"]["fp32_gflops"]["attempt_spreads_pct"][1].get<double>() == Approx(200.0 / 90));
  CHECK(out["method"]["fp32_gflops"] == "attempt 2");
  CHECK_FALSE(out.contains("warnings"));

  // Never below the limit: three attempts (the bound; spreads 50, 95 and 30 %), the highest
  // median kept, and a warning.
  attempts = {{100, 50, 60}, {200, 10, 20}, {100, 70, 75}};
  calls = 0;
  nlohmann::json noisy;
  detail::measure_figure(noisy, o, "dram_gbps", next);
  CHECK(calls == 3);
  CHECK(noisy["dram_gbps"] == 100.0);
  CHECK(noisy["stats"]["dram_gbps"]["median"] == 75.0);  // attempt 3: median 75 beats 60 and 20
  CHECK(noisy["stats"]["dram_gbps"]["spread_pct"] == 30.0);
  CHECK(noisy["warnings"]["dram_gbps"] ==
        "spread 30.0 % over 3 repeats is above 10 % (the machine was busy or its clocks moved) after 3 attempts: "
        "re-measure on an idle machine");

  // remeasure = 0: one attempt, a warning when noisy.
  o.remeasure = 0;
  o.quick = true;
  attempts = {{100, 50, 60}};
  calls = 0;
  nlohmann::json once;
  detail::measure_figure(once, o, "l1_gbps", next);
  CHECK(calls == 1);
  CHECK(once["warnings"]["l1_gbps"].get<std::string>().find("after 1 attempt: ") != std::string::npos);
  CHECK(once["warnings"]["l1_gbps"].get<std::string>().find("without --quick") != std::string::npos);
}

TEST_CASE("a figure whose threads got too little of their cores is measured again and warned about") {
  MeasureOptions o;
  // Steady repeats (spread 1 %) but the threads ran 40 % of the wall time: low by that much. The
  // second attempt got 95 %: kept (median 99 against 49.5), no warning.
  std::vector<std::pair<std::vector<double>, double>> attempts = {{{50, 49.5, 49.5}, 0.40}, {{100, 99, 99}, 0.95}};
  std::size_t calls = 0;
  bool wall = true;
  auto next = [&] {
    detail::Attempt a;
    a.rates = attempts[calls].first;
    a.details["cpu_share"] = attempts[calls++].second;
    a.wall_clock = wall;
    return a;
  };
  nlohmann::json out;
  detail::measure_figure(out, o, "fp32_gflops", next);
  CHECK(calls == 2);
  CHECK(out["fp32_gflops"] == 100.0);
  CHECK_FALSE(out.contains("warnings"));
  // Contended in every attempt: the bound, then a warning naming the share (40 %, 50 %, 45 %: the
  // highest median, 60, is attempt 2's, whose share is 50 %).
  attempts = {{{50, 49.5, 49.5}, 0.40}, {{61, 60, 60}, 0.50}, {{55, 54, 54}, 0.45}};
  calls = 0;
  nlohmann::json busy;
  detail::measure_figure(busy, o, "fp32_gflops", next);
  CHECK(calls == 3);
  CHECK(busy["fp32_gflops"] == 61.0);
  CHECK(busy["warnings"]["fp32_gflops"] ==
        "its threads got 50 % of their cores' time (other processes ran), so it reads low by about that much "
        "after 3 attempts: re-measure on an idle machine");
  // By the CPU clock time-sharing does not lower a figure: one attempt, no warning.
  wall = false;
  calls = 0;
  nlohmann::json cpu;
  detail::measure_figure(cpu, o, "fp32_gflops", next);
  CHECK(calls == 1);
  CHECK_FALSE(cpu.contains("warnings"));
}

TEST_CASE("measure_cpu's bf16 roof: VDPBF16PS where the flags have it, else the FP32 FMA peak labelled emulated") {
  MeasureOptions o;
  o.quick = true;
  o.repeats = 1;
  o.remeasure = 0;
  o.only = {"bf16", "bf16_amx"};
  const auto j = measure_cpu(o);
  const Bf16Support sup = detect_bf16_support();
  CHECK(j["bf16_gflops"].get<double>() > 0);
  CHECK_FALSE(j.contains("fp32_gflops"));  // measured for the emulated roof only, not reported
  CHECK(j["bf16_support"]["vector"] == sup.vector);
  CHECK(j["bf16_emulated"] == (sup.vector == "emulated" && sup.matrix.empty() ? 1 : 0));
  const std::string method = j["method"]["bf16_gflops"];
  if (bf16_dot_runs_in(sup, detect_isa())) {
    CHECK(method.find(bf16_dot_instruction() + " chains") != std::string::npos);
  } else {
    CHECK(method.rfind("emulated: ", 0) == 0);
  }
  if (sup.matrix.empty()) {
    CHECK(j["missing"]["bf16_tensor_gflops"] ==
          (std::string(rlx::platform::arch_name()) == "arm64"
               ? "no BFMMLA: this CPU's hwcaps list no bf16"
               : "no AMX: this CPU's flags list no amx_tile and amx_bf16"));
  } else if (sup.matrix == "bfmmla") {
    CHECK(j["bf16_tensor_gflops"].get<double>() > 0);
    CHECK(j["method"]["bf16_tensor_gflops"].get<std::string>().rfind("BFMMLA chains", 0) == 0);
  }
  // The ISA asked for decides too: in AVX2 there is no VDPBF16PS, in scalar code no BFDOT.
  if (detect_isa() == Isa::avx512 || sup.vector == "bfdot") {
    o.isa = detect_isa() == Isa::avx512 ? "avx2+fma" : "scalar";
    o.only = {"bf16"};
    const auto k = measure_cpu(o);
    CHECK(k["method"]["bf16_gflops"].get<std::string>().rfind("emulated: ", 0) == 0);
  }
  o.remeasure = -1;
  CHECK_THROWS_WITH(measure_cpu(o), "remeasure must be >= 0");
}

TEST_CASE("a GEMM's CPU share counts the threads that worked, not the threads it was given") {
  // Issue 35 item 12: LibTorch's emulated bf16 product runs on one thread of the two it is given;
  // its CPU time over two threads' wall time read 51 % on an idle machine, and the study warned
  // "other processes ran" after three attempts. Judged against the one thread that worked: 100 %.
  CHECK(detail::gemm_cpu_share(1.02, 1.0, 1, 2) == Approx(1.02));
  // That one thread really sharing its core is still caught.
  CHECK(detail::gemm_cpu_share(0.5, 1.0, 1, 2) == Approx(0.5));
  // Two threads working, one core's worth of CPU: contended.
  CHECK(detail::gemm_cpu_share(1.0, 1.0, 2, 2) == Approx(0.5));
  // More busy threads than it was given (the caller's too) count as the threads given; no busy
  // thread at all (every one starved) falls back to them.
  CHECK(detail::gemm_cpu_share(2.0, 1.0, 3, 2) == Approx(1.0));
  CHECK(detail::gemm_cpu_share(0.2, 1.0, 0, 2) == Approx(0.1));
}
