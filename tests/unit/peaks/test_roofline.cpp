// Unit tests of the roofline arithmetic (engine/peaks/roofline.h) on cases worked by hand.
#include <catch2/catch.hpp>

#include "peaks/roofline.h"

using namespace rlx::peaks;

TEST_CASE("memory-bound point: 8.297e9 FLOP, 4.843e8 B, 5.030 ms on 15.7 TFLOP/s, 900 GB/s") {
  // ai = 8.297e9 / 4.843e8 = 17.1319; attained = 8.297e9 / 5.030e-3 = 1649.50 GFLOP/s;
  // ridge = 15.7e12 / 900e9 = 17.4444; ai < ridge: memory-bound; roof = 17.1319 * 900 = 15418.7.
  const auto p = roofline_point({8.297e9, 4.843e8, 5.030e-3, 15.7e12, 900e9});
  CHECK(p.ai_flops_per_byte == Approx(17.1319).epsilon(1e-5));
  CHECK(p.gflops == Approx(1649.50).epsilon(1e-5));
  CHECK(p.ridge_ai == Approx(17.4444).epsilon(1e-5));
  CHECK(p.attainable_gflops == Approx(15418.74).epsilon(1e-5));
  CHECK(p.efficiency == Approx(1649.50 / 15418.74).epsilon(1e-4));
  CHECK(p.bound == "memory");
  CHECK_FALSE(p.above_roof);
}

TEST_CASE("compute-bound point: 1e12 FLOP, 1e10 B, 0.1 s on the same device") {
  // ai = 100 > ridge 17.44: compute-bound; attained 10000 GFLOP/s of a 15700 roof: 63.69 %.
  const auto p = roofline_point({1e12, 1e10, 0.1, 15.7e12, 900e9});
  CHECK(p.ai_flops_per_byte == Approx(100.0));
  CHECK(p.gflops == Approx(10000.0));
  CHECK(p.attainable_gflops == Approx(15700.0));
  CHECK(p.efficiency == Approx(0.636943).epsilon(1e-5));
  CHECK(p.bound == "compute");
  CHECK_FALSE(p.above_roof);
}

TEST_CASE("a point above its roof is flagged, not clipped") {
  // ai = 2, roof = min(2 * 100 GB/s, 1000) = 200 GFLOP/s; attained = 4e11 / 1 s = 400 GFLOP/s.
  const auto p = roofline_point({4e11, 2e11, 1.0, 1e12, 100e9});
  CHECK(p.gflops == Approx(400.0));
  CHECK(p.attainable_gflops == Approx(200.0));
  CHECK(p.efficiency == Approx(2.0));
  CHECK(p.above_roof);
  CHECK(p.bound == "memory");
}

TEST_CASE("exactly at the ridge counts as compute-bound; exactly on the roof is not above it") {
  // ai = 10 = ridge (1e12 / 1e11); attained = roof = 1000 GFLOP/s.
  const auto p = roofline_point({1e12, 1e11, 1.0, 1e12, 1e11});
  CHECK(p.bound == "compute");
  CHECK(p.efficiency == Approx(1.0));
  CHECK_FALSE(p.above_roof);
  CHECK(attainable_flops(5, 1e12, 1e11) == Approx(5e11));
  CHECK(attainable_flops(50, 1e12, 1e11) == Approx(1e12));
}

TEST_CASE("roofline_place: a point known by AI and rate gets roofline_point's fields by the same rules") {
  // The memory-bound case above from its AI and attained rate: ai 17.1319, 1649.50 GFLOP/s.
  const auto a = roofline_point({8.297e9, 4.843e8, 5.030e-3, 15.7e12, 900e9});
  const auto b = roofline_place(8.297e9 / 4.843e8, 8.297e9 / 5.030e-3, 15.7e12, 900e9);
  CHECK(b.attainable_gflops == a.attainable_gflops);
  CHECK(b.ridge_ai == a.ridge_ai);
  CHECK(b.bound == a.bound);
  CHECK(b.efficiency == a.efficiency);
  CHECK(ridge_ai(15.7e12, 900e9) == a.ridge_ai);
  CHECK(bound_of(17.0, 17.4444) == "memory");
  CHECK(bound_of(17.4444, 17.4444) == "compute");
  CHECK_THROWS_WITH(roofline_place(-1, 1, 1, 1), "ai (FLOP/byte) must be >= 0, got -1.000000");
}

TEST_CASE("above which roof: both flags and the one tolerance") {
  // ai = 2 on 1000 GFLOP/s and 100 GB/s: the memory roof is 200, the compute roof 1000.
  const auto mem = roofline_place(2, 400e9, 1e12, 100e9);
  CHECK(mem.above_roof);
  CHECK(mem.above_memory_roof);
  CHECK_FALSE(mem.above_compute_roof);
  const auto both = roofline_place(2, 1500e9, 1e12, 100e9);
  CHECK(both.above_compute_roof);
  CHECK(both.above_memory_roof);
  // On the roof, or above it by rounding only: not above.
  CHECK_FALSE(above_roof_by(200e9 * (1 + 1e-12), 200e9));
  CHECK(above_roof_by(200e9 * (1 + 1e-6), 200e9));
}

TEST_CASE("invalid inputs name the field and its unit") {
  CHECK_THROWS_WITH(roofline_point({1, 0, 1, 1, 1}), "bytes (byte) must be > 0, got 0.000000");
  CHECK_THROWS_WITH(roofline_point({-1, 1, 1, 1, 1}), "flops (FLOP) must be >= 0, got -1.000000");
  CHECK_THROWS_WITH(roofline_point({1, 1, 0, 1, 1}), "seconds (s) must be > 0, got 0.000000");
  CHECK_THROWS_WITH(roofline_point({1, 1, 1, 1, 0}), "peak_bw (byte/s) must be > 0, got 0.000000");
  CHECK_THROWS_WITH(roofline_point({1, 1, 1, 1.0 / 0.0, 1}), "peak_flops (FLOP/s) must be a finite number");
}

TEST_CASE("ceilings: known fields in base units, compute first then memory, highest first") {
  const auto c = ceilings_from_fields({{"dram_gbps", 900},
                                       {"fp32_gflops", 15700},
                                       {"l2_gbps", 2500},
                                       {"fp16_tensor_gflops", 125000},
                                       {"threads", 2},
                                       {"bf16_tensor_gflops", 0}});
  REQUIRE(c.size() == 4);
  CHECK(c[0].name == "fp16_tensor_gflops");
  CHECK(c[0].value == Approx(125e12));
  CHECK(c[1].name == "fp32_gflops");
  CHECK(c[1].label == "FP32");
  CHECK(c[2].name == "l2_gbps");
  CHECK(c[2].kind == "memory");
  CHECK(c[3].name == "dram_gbps");
  CHECK(c[3].value == Approx(900e9));
}

TEST_CASE("compute and memory field names per precision and level") {
  CHECK(compute_field_candidates("fp32") == std::vector<std::string>{"fp32_gflops", "gemm_fp32_gflops"});
  CHECK(compute_field_candidates("fp16") ==
        std::vector<std::string>{"fp16_tensor_gflops", "fp16_gflops", "gemm_fp16_gflops"});
  CHECK_THROWS_WITH(compute_field_candidates("fp8"),
                    "unknown precision 'fp8' (valid precisions: fp32, fp64, tf32, fp16, bf16)");
  CHECK(memory_field("l2") == "l2_gbps");
  CHECK_THROWS_WITH(memory_field("hbm"), "unknown memory level 'hbm' (valid levels: dram, l1, l2, l3)");
}
