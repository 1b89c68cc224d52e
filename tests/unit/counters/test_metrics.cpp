// test_metrics.cpp: the unit conversion and the derived-quantity formulas of engine/counters on
// inputs worked by hand.
#include <catch2/catch.hpp>

#include "counters/metrics.h"

using rlx::counters::derive;
using rlx::counters::parse_unit;
using rlx::counters::UnitScale;

namespace {
const std::string S = "smsp__sass_thread_inst_executed_op_";
}

TEST_CASE("parse_unit: SI prefixes are decimal, time converts to seconds") {
  CHECK(parse_unit("Kbyte").factor == 1e3);
  CHECK(parse_unit("Kbyte").base == "byte");
  CHECK(parse_unit("Mbyte").factor == 1e6);
  CHECK(parse_unit("Gbyte").factor == 1e9);
  CHECK(parse_unit("byte").factor == 1.0);
  CHECK(parse_unit("usecond").factor == 1e-6);
  CHECK(parse_unit("usecond").base == "second");
  CHECK(parse_unit("msecond").factor == 1e-3);
  // ncu 2025.3's CSV abbreviates times (seen on an H100): us, ms, ns, s.
  CHECK(parse_unit("us").factor == 1e-6);
  CHECK(parse_unit("us").base == "second");
  CHECK(parse_unit("ms").factor == 1e-3);
  CHECK(parse_unit("ns").factor == 1e-9);
  CHECK(parse_unit("s").factor == 1.0);
  CHECK(parse_unit("s").base == "second");
  CHECK(parse_unit("Ms").base != "second");
  CHECK(parse_unit("nsecond").factor == 1e-9);
  CHECK(parse_unit("second").factor == 1.0);
  CHECK(parse_unit("nanosecond").factor == 1e-9);  // CUPTI's spelling
  CHECK(parse_unit("cycle").base == "cycle");
  CHECK(parse_unit("inst").factor == 1.0);
  UnitScale r = parse_unit("Gbyte/second");
  CHECK(r.factor == 1e9);
  CHECK(r.base == "byte/second");
  CHECK(parse_unit("Kbyte/usecond").factor == Approx(1e9));
  CHECK(parse_unit("%").factor == 1.0);
  CHECK(parse_unit("%").base == "%");
  CHECK(parse_unit("").base == "");
}

TEST_CASE("derive: FP32 = fadd + fmul + 2 ffma, FP64 and FP16 likewise, tensor summed") {
  std::map<std::string, double> v = {
      {S + "fadd_pred_on.sum", 10}, {S + "fmul_pred_on.sum", 20},  {S + "ffma_pred_on.sum", 30},
      {S + "dadd_pred_on.sum", 1},  {S + "dmul_pred_on.sum", 2},   {S + "dfma_pred_on.sum", 3},
      {S + "hadd_pred_on.sum", 5},  {S + "hmul_pred_on.sum", 7},   {S + "hfma_pred_on.sum", 11},
      {"sm__ops_path_tensor_src_fp16.sum", 1000}, {"sm__ops_path_tensor_src_tf32_dst_fp32.sum", 24},
  };
  auto d = derive(v);
  CHECK(d["flops_fp32"].get<double>() == 90);   // 10 + 20 + 60
  CHECK(d["flops_fp64"].get<double>() == 9);    // 1 + 2 + 6
  CHECK(d["flops_fp16"].get<double>() == 34);   // 5 + 7 + 22
  CHECK(d["flops_tensor"].get<double>() == 1024);
  CHECK(d["flops"].get<double>() == 90 + 9 + 34 + 1024);
  CHECK_FALSE(d.contains("missing"));
  CHECK_FALSE(d.contains("dram_bytes"));
}

TEST_CASE("derive: tensor paths: integer paths and splits of a present total are not added") {
  const std::string T = "sm__ops_path_tensor_src_";
  auto d = derive({{T + "fp16.sum", 1000},                 // GH100 total of the fp16 path
                   {T + "fp16_sparsity_on.sum", 100},      // part of the 1000
                   {T + "fp16_sparsity_off.sum", 900},     // part of the 1000
                   {T + "fp16_dst_fp32.sum", 700},         // GA100 split, counted by fp16.sum here
                   {T + "bf16_dst_fp32_sparsity_off.sum", 30},  // no bf16 total: counted
                   {T + "int8.sum", 5000}});               // integer: not FLOPs
  CHECK(d["flops_tensor"].get<double>() == 1030);
  auto a = derive({{T + "fp16_dst_fp16.sum", 10}, {T + "fp16_dst_fp32.sum", 20}, {T + "tf32_dst_fp32.sum", 4}});
  CHECK(a["flops_tensor"].get<double>() == 34);  // GA100: both accumulator splits add up
}

TEST_CASE("derive: bytes per level, seconds, and missing inputs named") {
  std::map<std::string, double> v = {{"dram__bytes_read.sum", 1500}, {"lts__t_bytes.sum", 7},
                                     {"l1tex__t_bytes.sum", 9}, {"gpu__time_duration.sum", 0.25},
                                     {"pcie__read_bytes.sum", 3}, {"pcie__write_bytes.sum", 4},
                                     {S + "ffma_pred_on.sum", 100}};
  auto d = derive(v);
  CHECK(d["dram_read_bytes"].get<double>() == 1500);
  CHECK(d["dram_bytes"].get<double>() == 1500);  // write missing counts as 0 and is named
  CHECK_FALSE(d.contains("dram_write_bytes"));
  CHECK(d["l2_bytes"].get<double>() == 7);
  CHECK(d["l1_bytes"].get<double>() == 9);
  CHECK(d["pcie_bytes"].get<double>() == 7);
  CHECK(d["seconds"].get<double>() == 0.25);
  CHECK(d["flops_fp32"].get<double>() == 200);
  auto missing = d["missing"].get<std::vector<std::string>>();
  CHECK(missing == std::vector<std::string>{S + "fadd_pred_on.sum", S + "fmul_pred_on.sum", "dram__bytes_write.sum"});
}

TEST_CASE("derive: IPC and CPI from cycles and instructions") {
  auto d = derive({{"cycles", 400}, {"instructions", 1000}});
  CHECK(d["ipc"].get<double>() == 2.5);
  CHECK(d["cpi"].get<double>() == 0.4);
  CHECK_FALSE(derive({{"task_clock", 1.0}}).contains("ipc"));
}

TEST_CASE("cuda metric set: every issue metric is present, grouped") {
  auto groups = rlx::counters::cuda_groups();
  CHECK(groups == std::vector<std::string>{"time", "dram", "l2", "l1", "fp32", "fp16", "fp64", "tensor", "pcie"});
  size_t n = rlx::counters::cuda_metrics().size();
  CHECK(n == 5 + 9 + 7 + 2);
}

TEST_CASE("seed 000's metric list: every name maps to names the formulas read") {
  using rlx::counters::seed_metric_map;
  using rlx::counters::used_by_formulas;
  const auto& m = seed_metric_map();
  std::vector<std::string> seed;
  for (const auto& e : m) seed.push_back(e.seed);
  // code/metric_names_ncu.txt of seed 000, in its order.
  CHECK(seed == std::vector<std::string>{"flop_count_sp", "flop_count_hp", "dram__bytes_read.sum",
                                         "dram__bytes_write.sum", "pcie__read_bytes.sum",
                                         "pcie__write_bytes.sum"});
  CHECK(m[0].current ==
        std::vector<std::string>{S + "fadd_pred_on.sum", S + "fmul_pred_on.sum", S + "ffma_pred_on.sum"});
  CHECK(m[1].current ==
        std::vector<std::string>{S + "hadd_pred_on.sum", S + "hmul_pred_on.sum", S + "hfma_pred_on.sum"});
  for (const auto& e : m)
    for (const auto& name : e.current) {
      INFO(name);
      CHECK(used_by_formulas(name));
    }
  // The nvprof names themselves are read by nothing: current tools do not know them.
  CHECK_FALSE(used_by_formulas("flop_count_sp"));
  CHECK_FALSE(used_by_formulas("sm__ops_path_tensor_src_int8.sum"));
  CHECK(used_by_formulas("sm__ops_path_tensor_src_fp16_dst_fp32.sum"));
  // flop_count_sp's formula on numbers: fadd 3 + fmul 5 + 2 x ffma 7 = 22.
  CHECK(derive({{S + "fadd_pred_on.sum", 3},
                {S + "fmul_pred_on.sum", 5},
                {S + "ffma_pred_on.sum", 7}})["flops_fp32"]
            .get<double>() == 22);
}
