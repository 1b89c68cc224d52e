// ncu_import.h: reads the CSV that Nsight Compute writes, in either layout: `ncu --csv --page raw`
// (one row per profiled kernel, a header row of column names, a units row) or the default details
// page of `ncu --csv` / `ncu --import report.ncu-rep --csv` (one row per metric per kernel, with
// "Metric Name", "Metric Unit", "Metric Value"), ncu's "==PROF==" lines included. Sums it per
// kernel name and in total, in base units, with the same derived quantities as the CUPTI backend
// (metrics.h), streaming (memory bounded by the distinct metrics and kMaxKernelNames names).
// Each metric's unit must be of the kind its name counts (bytes, time, count); numbers must be
// in ncu's format (no locale); negative sums and a metric given twice are refused. Malformed
// input throws NcuFormatError naming the file, line, column and value.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace rlx::counters {

struct NcuFormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses the text of an ncu CSV; `path` only names the source in messages. Returns
//   {path, format ("raw" | "details"), kernels (profiled kernel launches), processes,
//    values = {metric -> total},
//    units = {metric -> base unit}, derived = {flops_fp32, ..., dram_bytes, seconds, ...},
//    flops_fp32, flops_fp16, flops_fp64, flops_tensor, flops, dram_read_bytes,
//    dram_write_bytes, dram_bytes, l2_bytes, l1_bytes, seconds (0 when the file lacks the inputs),
//    missing = [metric names the formulas wanted but the file lacks],
//    skipped_metrics = [non-additive metrics: .avg, .max, .pct, ratios, rates],
//    unused_metrics = [additive metrics summed into values that no formula reads],
//    per_kernel = [{name, count, values, flops..., seconds}] in order of first appearance (the
//    first 2000 names; later names' launches in one last entry, per_kernel_other_launches),
//    ncu_messages = [ncu's ==WARNING==/==ERROR== lines, the first 10]}.
// Only additive metrics (names ending in ".sum") are summed over kernels.
nlohmann::json parse_ncu_csv(const std::string& text, const std::string& path);
// The same from a stream, read line by line.
nlohmann::json parse_ncu_stream(std::istream& in, const std::string& path);

// Reads the file and parses it; a missing file is NcuFormatError("cannot open ...").
nlohmann::json import_ncu_file(const std::string& path);

}  // namespace rlx::counters
