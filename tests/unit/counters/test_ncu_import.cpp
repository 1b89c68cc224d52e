// test_ncu_import.cpp: the Nsight Compute CSV import on fixtures in ncu's formats (raw page and
// details page, tests/fixtures/ncu), with sums worked by hand from the fixture's cells, malformed
// files, and the values ncu never writes (issue 17 item 9: units, locales, duplicates, negatives).
#include <catch2/catch.hpp>

#include <sstream>

#include "counters/ncu_import.h"

using rlx::counters::import_ncu_file;
using rlx::counters::NcuFormatError;
using rlx::counters::parse_ncu_csv;

namespace {
std::string fixture(const std::string& name) { return std::string(RLX_SOURCE_DIR) + "/tests/fixtures/ncu/" + name; }

std::string error_of(const std::string& path) {
  try {
    import_ncu_file(path);
  } catch (const std::runtime_error& e) {  // NcuFormatError, or the file rule's UserFileError
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
                                              "ncu --csv, or ncu --csv --page raw)");
  CHECK(error_of(dir + "no_header.csv") == dir + "no_header.csv:1: no header row with a \"Kernel Name\" column and "
                                                  "metric columns (expected the output of ncu --csv, or ncu --csv --page "
                                                  "raw)");
  CHECK(error_of(dir + "ragged.csv") == dir + "ragged.csv:4: ragged row: 27 fields, the header has 28");
  CHECK(error_of(dir + "non_numeric.csv") ==
        dir + "non_numeric.csv:4: column \"gpu__time_duration.sum\": value \"12.5us\" is not a number as ncu writes it "
              "(digits, '.' for decimals, ',' only between groups of three: export with LC_ALL=C)");
  CHECK(error_of(dir + "no_units.csv") ==
        dir + "no_units.csv:2: missing units row: line 2 is a kernel row (ncu --csv --page raw writes the units on the "
              "line after the header)");
  CHECK(error_of(dir + "does_not_exist.csv") ==
        "the ncu CSV '" + dir + "does_not_exist.csv' does not exist (check the path)");
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

namespace {
// A raw-page CSV with one metric column: header, units row, one kernel row.
std::string raw1(const std::string& metric, const std::string& unit, const std::string& value) {
  return "\"ID\",\"Kernel Name\",\"" + metric + "\"\n\"\",\"\",\"" + unit + "\"\n\"0\",\"k\",\"" + value + "\"\n";
}
std::string parse_error(const std::string& csv) {
  try {
    parse_ncu_csv(csv, "x.csv");
  } catch (const NcuFormatError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("ncu import: the details page of ncu --csv / --import x.ncu-rep --csv, ==PROF== lines included") {
  auto s = import_ncu_file(fixture("details_seed002.csv"));
  CHECK(s["format"] == "details");
  CHECK(s["kernels"].get<long long>() == 3);
  CHECK(s["processes"].get<long long>() == 1);
  // Kbyte 1,024.50 + Mbyte 2.50 + Kbyte 1,000 = 1,024,500 + 2,500,000 + 1,000,000 bytes.
  CHECK(s["dram_read_bytes"].get<double>() == Approx(4524500.0));
  // byte 512 + Kbyte 800 + byte 488.
  CHECK(s["dram_write_bytes"].get<double>() == Approx(801000.0));
  // usecond 12.25 + msecond 1.50 + usecond 11.75 = 1.524 ms.
  CHECK(s["seconds"].get<double>() == Approx(1.524e-3));
  // fadd 65,536 x2 + 1,000; fmul 65,536 x2 + 2,000; ffma 268,435,456: 132,072 + 133,072 + 2 x 268,435,456.
  CHECK(s["flops_fp32"].get<double>() == Approx(537136056.0));
  CHECK(s["units"]["dram__bytes_read.sum"] == "byte");
  CHECK(s["units"]["gpu__time_duration.sum"] == "second");
  auto skipped = s["skipped_metrics"].get<std::vector<std::string>>();
  CHECK(skipped == std::vector<std::string>{"Registers Per Thread", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                                            "sm__throughput.avg.pct_of_peak_sustained_elapsed"});  // first seen first
  const auto& k = s["per_kernel"];
  REQUIRE(k.size() == 2);
  CHECK(k[0]["count"].get<long long>() == 2);
  CHECK(k[0]["seconds"].get<double>() == Approx(24e-6));
  CHECK(k[1]["count"].get<long long>() == 1);
  CHECK(k[1]["flops_fp32"].get<double>() == Approx(1000 + 2000 + 2 * 268435456.0));
  CHECK_FALSE(s.contains("ncu_messages"));
}

TEST_CASE("ncu import: unknown units and units of the wrong kind are refused, naming row, column and value") {
  CHECK(parse_error(raw1("dram__bytes_read.sum", "furlong", "1")) ==
        "x.csv:2: column \"dram__bytes_read.sum\": unit \"furlong\" is not a unit ncu writes (for bytes: byte, "
        "Kbyte, Mbyte, Gbyte, Tbyte)");
  CHECK(parse_error(raw1("dram__bytes_read.sum", "usecond", "1")) ==
        "x.csv:2: column \"dram__bytes_read.sum\": unit \"usecond\" is a time, but the metric counts bytes (byte, "
        "Kbyte, Mbyte, Gbyte, Tbyte)");
  CHECK(parse_error(raw1("gpu__time_duration.sum", "Kbyte", "1")) ==
        "x.csv:2: column \"gpu__time_duration.sum\": unit \"Kbyte\" is bytes, but the metric counts a time "
        "(nsecond, usecond, msecond, second, or ns, us, ms, s)");
  CHECK(parse_error(raw1("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "Gbyte/second", "1")) ==
        "x.csv:2: column \"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\": unit \"Gbyte/second\" is a rate, "
        "but the metric counts a count (inst, cycle, sector, warp, or none)");
  // The details page names the unit column and the metric.
  const std::string head =
      "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
  CHECK(parse_error(head + "\"0\",\"k\",\"dram__bytes_write.sum\",\"nsecond\",\"5\"\n") ==
        "x.csv:2: column \"Metric Unit\" of metric \"dram__bytes_write.sum\": unit \"nsecond\" is a time, but the "
        "metric counts bytes (byte, Kbyte, Mbyte, Gbyte, Tbyte)");
  // Units of metrics rlx does not sum (ratios, display names) are not its business.
  CHECK(parse_error(raw1("sm__throughput.avg.pct_of_peak_sustained_elapsed", "furlong", "1")) == "no error");
}

TEST_CASE("ncu import: locale-mangled numbers and negative sums are refused") {
  CHECK(parse_error(raw1("dram__bytes_read.sum", "byte", "1.000,5")) ==
        "x.csv:3: column \"dram__bytes_read.sum\": value \"1.000,5\" is not a number as ncu writes it (digits, '.' "
        "for decimals, ',' only between groups of three: export with LC_ALL=C)");
  CHECK_THAT(parse_error(raw1("dram__bytes_read.sum", "byte", "1,2,3")),
             Catch::StartsWith("x.csv:3: column \"dram__bytes_read.sum\": value \"1,2,3\" is not a number"));
  CHECK_THAT(parse_error(raw1("dram__bytes_read.sum", "byte", "9,00")), Catch::Contains("value \"9,00\" is not"));
  CHECK(parse_error(raw1("dram__bytes_read.sum", "Kbyte", "-5")) ==
        "x.csv:3: column \"dram__bytes_read.sum\": value \"-5\" is negative; a sum of bytes cannot be");
  // What ncu does write still parses.
  CHECK(parse_ncu_csv(raw1("dram__bytes_read.sum", "Kbyte", "1,234,567.5"), "x.csv")["dram_read_bytes"] ==
        Approx(1234567500.0));
  CHECK(parse_ncu_csv(raw1("dram__bytes_read.sum", "byte", "1.5e+06"), "x.csv")["dram_read_bytes"] == Approx(1.5e6));
}

TEST_CASE("ncu import: a metric given twice (in two units) is refused, not summed") {
  CHECK(parse_error("\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"dram__bytes_read.sum\"\n"
                    "\"\",\"\",\"Kbyte\",\"byte\"\n\"0\",\"k\",\"1\",\"1000\"\n") ==
        "x.csv:1: metric \"dram__bytes_read.sum\" appears twice (columns 3 and 4): ncu writes each metric once, and "
        "one metric in two units cannot be summed");
  CHECK(parse_error("\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                    "\"7\",\"k\",\"dram__bytes_read.sum\",\"Kbyte\",\"1\"\n"
                    "\"7\",\"k\",\"dram__bytes_read.sum\",\"byte\",\"1000\"\n") ==
        "x.csv:3: metric \"dram__bytes_read.sum\" appears twice for launch ID 7 (lines 2 and 3, units \"Kbyte\" and "
        "\"byte\"): ncu writes each metric once per launch");
  // The same metric in the next launch is that launch's value.
  auto s = parse_ncu_csv("\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
                         "\"7\",\"k\",\"dram__bytes_read.sum\",\"Kbyte\",\"1\"\n"
                         "\"8\",\"k\",\"dram__bytes_read.sum\",\"byte\",\"1000\"\n",
                         "x.csv");
  CHECK(s["kernels"] == 2);
  CHECK(s["dram_read_bytes"] == Approx(2000.0));
}

TEST_CASE("ncu import: memory stays bounded with 200k distinct kernel names") {
  // A stream of 200,000 launches with distinct names: the first 2000 are kept apart, the rest
  // summed into one entry; the totals still cover every launch.
  std::ostringstream csv;
  csv << "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\"\n\"\",\"\",\"byte\"\n";
  for (int i = 0; i < 200000; ++i) csv << '"' << i << "\",\"kernel_" << i << "\",\"2\"\n";
  auto s = parse_ncu_csv(csv.str(), "big.csv");
  CHECK(s["kernels"] == 200000);
  CHECK(s["dram_read_bytes"] == Approx(400000.0));
  REQUIRE(s["per_kernel"].size() == 2001);
  CHECK(s["per_kernel"][2000]["count"] == 198000);
  CHECK(s["per_kernel"][2000]["dram_read_bytes"] == Approx(396000.0));
  CHECK(s["per_kernel_other_launches"] == 198000);
}

TEST_CASE("ncu import: additive metrics no formula reads are named as unused, ratios as skipped") {
  const std::string csv =
      "\"ID\",\"Kernel "
      "Name\",\"dram__bytes_read.sum\",\"smsp__inst_executed.sum\",\"sm__ops_path_tensor_src_int8.sum\","
      "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\"\n"
      "\"\",\"\",\"byte\",\"inst\",\"\",\"%\"\n\"0\",\"k\",\"10\",\"7\",\"3\",\"50\"\n";
  auto s = parse_ncu_csv(csv, "u.csv");
  CHECK(s["unused_metrics"].get<std::vector<std::string>>() ==
        std::vector<std::string>{"sm__ops_path_tensor_src_int8.sum", "smsp__inst_executed.sum"});
  CHECK(s["skipped_metrics"].get<std::vector<std::string>>() ==
        std::vector<std::string>{"sm__throughput.avg.pct_of_peak_sustained_elapsed"});
  CHECK(s["values"]["smsp__inst_executed.sum"].get<double>() == 7);  // kept, just not used
  CHECK(s["dram_bytes"].get<double>() == 10);
}

// Issue 25 finding 11: a file of ncu's log lines alone was "empty", and a file whose every summed
// value was n/a imported zeros with exit 0.

TEST_CASE("ncu import: a file of ncu's log lines only says so, not 'empty'") {
  CHECK(parse_error("==PROF== Connected to process 4242 (/usr/bin/python3)\n==PROF== Disconnected from "
                    "process 4242\n") ==
        "x.csv:2: no header row: the file holds only ncu's log lines (2, the first \"==PROF== Connected to "
        "process 4242 "
        "(/usr/bin/python3)\") and no results table: ncu profiled no kernel, or failed (read its messages)");
}

TEST_CASE("ncu import: an ncu error line refuses the file, naming it") {
  // Issue 35 item 11: "==ERROR==" lines were skipped like ncu's other log lines, and the numbers
  // around them imported as if the profile had worked.
  const std::string raw =
      "==PROF== Connected to process 4242\n"
      "==ERROR== Failed to profile \"k2\" in process 4242\n"
      "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"gpu__time_duration.sum\"\n"
      "\"\",\"\",\"byte\",\"nsecond\"\n"
      "\"0\",\"k1\",\"100\",\"5\"\n";
  CHECK(
      parse_error(raw) ==
      "x.csv:2: ncu reported an error: \"==ERROR== Failed to profile \"k2\" in process 4242\": the results "
      "beside it may be missing or wrong; fix what ncu says and profile again (or delete that line to import "
      "the file as it is)");
  CHECK(parse_error("==ERR== out of memory\n")
            .rfind("x.csv:1: ncu reported an error: \"==ERR== out of memory\"", 0) == 0);
}

TEST_CASE("ncu import: every summed value n/a is an error, not zeros") {
  const std::string raw =
      "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\",\"gpu__time_duration.sum\"\n"
      "\"\",\"\",\"byte\",\"nsecond\"\n"
      "\"0\",\"k1\",\"n/a\",\"n/a\"\n"
      "\"1\",\"k2\",\"n/a\",\"n/a\"\n";
  CHECK(parse_error(raw) ==
        "x.csv:4: every value of the metrics rlx sums is n/a (4 cells): ncu could not collect them (on this "
        "GPU, or "
        "without access to its performance counters: ERR_NVGPUCTRPERM); nothing to import");
  const std::string details =
      "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"k1\",\"dram__bytes_read.sum\",\"byte\",\"n/a\"\n";
  CHECK(parse_error(details).find("every value of the metrics rlx sums is n/a (1 cell)") !=
        std::string::npos);
  // One real value among n/a ones imports (n/a is a kernel ncu could not measure, not an error).
  const std::string some = raw + "\"2\",\"k3\",\"100\",\"5\"\n";
  CHECK(parse_ncu_csv(some, "x.csv")["dram_read_bytes"].get<double>() == 100);
}
