// ncu_import_test.cpp: the Nsight Compute raw-CSV import on fixtures in ncu's format
// (tests/fixtures/ncu), with sums worked by hand from the fixture's cells, and malformed files.
#include <catch2/catch.hpp>

#include "counters/ncu_import.h"

using rlx::counters::import_ncu_file;
using rlx::counters::NcuFormatError;
using rlx::counters::parse_ncu_csv;

namespace {
std::string fixture(const std::string& name) { return std::string(RLX_SOURCE_DIR) + "/tests/fixtures/ncu/" + name; }

std::string error_of(const std::string& path) {
  try {
    import_ncu_file(path);
  } catch (const NcuFormatError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("ncu import: two processes, three kernels, units and thousands separators") {
  auto s = import_ncu_file(fixture("two_processes.csv"));
  CHECK(s["kernels"].get<long long>() == 5);
  CHECK(s["processes"].get<long long>() == 2);
  // Kbyte column: 1,024.50 x2 + 2,048 x2 + 512 = 6,657 Kbyte.
  CHECK(s["dram_read_bytes"].get<double>() == Approx(6657000.0));
  // Mbyte column: 0.5 x2 + 1.25 x2 + 0.25 = 3.75 Mbyte.
  CHECK(s["dram_write_bytes"].get<double>() == Approx(3750000.0));
  CHECK(s["dram_bytes"].get<double>() == Approx(6657000.0 + 3750000.0));
  // usecond column: 12.25 + 100.50 + 12.75 + 8 + 99.50 = 233 us.
  CHECK(s["seconds"].get<double>() == Approx(233e-6));
  CHECK(s["l2_bytes"].get<double>() == Approx(25e6));    // Gbyte: 0.002 x2 + 0.01 x2 + 0.001
  CHECK(s["l1_bytes"].get<double>() == Approx(47.5e6));  // byte: 3e6 x2 + 20e6 x2 + 1.5e6
  // fadd 2,520; fmul 4,740; ffma 2,006,900: 2,520 + 4,740 + 2 x 2,006,900.
  CHECK(s["flops_fp32"].get<double>() == Approx(4021060.0));
  CHECK(s["flops_fp16"].get<double>() == Approx(8 + 12 + 2 * 16));
  CHECK(s["flops_fp64"].get<double>() == Approx(10 + 20 + 2 * 30));
  CHECK(s["flops_tensor"].get<double>() == Approx(2 * 2097152.0));  // the n/a cell is skipped
  CHECK(s["flops"].get<double>() == Approx(4021060.0 + 52 + 90 + 4194304.0));
  CHECK(s["units"]["gpu__time_duration.sum"] == "second");
  CHECK(s["units"]["dram__bytes_read.sum"] == "byte");
  CHECK(s["missing"].empty());
  auto skipped = s["skipped_metrics"].get<std::vector<std::string>>();
  CHECK(skipped == std::vector<std::string>{"dram__throughput.avg.pct_of_peak_sustained_elapsed", "dram__bytes.sum.per_second"});
  CHECK_FALSE(s["values"].contains("dram__bytes.sum.per_second"));

  const auto& k = s["per_kernel"];
  REQUIRE(k.size() == 3);
  CHECK(k[0]["name"] == "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                        "at::detail::Array<char *, 1>>(int, T2, T3)");
  CHECK(k[0]["count"].get<long long>() == 2);
  CHECK(k[0]["flops_fp32"].get<double>() == Approx(2000 + 4000 + 2 * 6000));
  CHECK(k[0]["dram_bytes"].get<double>() == Approx(2049000.0 + 1000000.0));
  CHECK(k[0]["seconds"].get<double>() == Approx(25e-6));
  CHECK(k[1]["count"].get<long long>() == 2);
  CHECK(k[1]["flops"].get<double>() == Approx(4000060.0 + 52 + 4194304.0));
  CHECK(k[1]["seconds"].get<double>() == Approx(200e-6));
  CHECK(k[2]["name"] == "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(float const*, float*)");
  CHECK(k[2]["count"].get<long long>() == 1);
  CHECK(k[2]["flops_fp64"].get<double>() == Approx(90));
  CHECK(k[2]["flops_tensor"].get<double>() == 0);
  CHECK(k[2]["dram_bytes"].get<double>() == Approx(762000.0));
}

TEST_CASE("ncu import: CRLF lines, Gbyte/Kbyte/msecond, FLOP metrics absent") {
  auto s = import_ncu_file(fixture("dram_only_crlf.csv"));
  CHECK(s["kernels"].get<long long>() == 1);
  CHECK(s["processes"].get<long long>() == 1);
  CHECK(s["dram_bytes"].get<double>() == Approx(1.5e9 + 250e3));
  CHECK(s["seconds"].get<double>() == Approx(0.002));
  CHECK(s["flops"].get<double>() == 0);
  CHECK_FALSE(s["derived"].contains("flops"));
}

TEST_CASE("ncu import: quoted quotes and commas in kernel names") {
  std::string csv =
      "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n"
      "\"\",\"\",\"nsecond\"\n"
      "\"0\",\"k<\"\"a, b\"\">\",\"1,500\"\n";
  auto s = parse_ncu_csv(csv, "inline.csv");
  CHECK(s["per_kernel"][0]["name"] == "k<\"a, b\">");
  CHECK(s["seconds"].get<double>() == Approx(1.5e-6));
  CHECK(s["processes"].get<long long>() == 1);
}

TEST_CASE("ncu import: malformed files name the file and line") {
  std::string dir = fixture("malformed/");
  CHECK(error_of(dir + "empty.csv") == dir + "empty.csv:1: no header row: the file is empty (expected the output of "
                                              "ncu --csv --page raw)");
  CHECK(error_of(dir + "no_header.csv") == dir + "no_header.csv:1: no header row with a \"Kernel Name\" column and "
                                                  "metric columns (expected the output of ncu --csv --page raw)");
  CHECK(error_of(dir + "ragged.csv") == dir + "ragged.csv:4: ragged row: 27 fields, the header has 28");
  CHECK(error_of(dir + "non_numeric.csv") ==
        dir + "non_numeric.csv:4: non-numeric value \"12.5us\" in metric column \"gpu__time_duration.sum\"");
  CHECK(error_of(dir + "no_units.csv") ==
        dir + "no_units.csv:2: missing units row: line 2 is a kernel row (ncu --csv --page raw writes the units on the "
              "line after the header)");
  CHECK_THAT(error_of(dir + "does_not_exist.csv"), Catch::StartsWith("cannot open " + dir + "does_not_exist.csv: "));
  CHECK(error_of(dir + "does_not_exist.csv").find("No such file") != std::string::npos);
}

TEST_CASE("ncu import: header only, no kernels") {
  auto s = parse_ncu_csv("\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\"\n\"\",\"\",\"byte\"\n", "h.csv");
  CHECK(s["kernels"].get<long long>() == 0);
  CHECK(s["processes"].get<long long>() == 0);
  CHECK(s["dram_bytes"].get<double>() == 0);
  CHECK(s["per_kernel"].empty());
}

TEST_CASE("ncu import: header without units row at end of file") {
  try {
    parse_ncu_csv("\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\"\n", "u.csv");
    FAIL("no error");
  } catch (const NcuFormatError& e) {
    CHECK(std::string(e.what()) == "u.csv:2: missing units row after the header (ncu --csv --page raw writes one)");
  }
}
