// ncu_import.h: reads the CSV that `ncu --csv --page raw` writes (one row per profiled kernel,
// a header row of column names, a units row, numbers quoted with thousands separators) and sums
// it per kernel name and in total, in base units, with the same derived quantities as the CUPTI
// backend (metrics.h). Malformed input throws NcuFormatError naming the file and line.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace rlx::counters {

struct NcuFormatError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Parses the text of an ncu raw CSV; `path` only names the source in messages. Returns
//   {path, kernels (profiled kernel launches), processes, values = {metric -> total},
//    units = {metric -> base unit}, derived = {flops_fp32, ..., dram_bytes, seconds, ...},
//    flops_fp32, flops_fp16, flops_fp64, flops_tensor, flops, dram_read_bytes,
//    dram_write_bytes, dram_bytes, l2_bytes, l1_bytes, seconds (0 when the file lacks the inputs),
//    missing = [metric names the formulas wanted but the file lacks],
//    skipped_metrics = [non-additive metrics: .avg, .max, .pct, ratios, rates],
//    per_kernel = [{name, count, values, flops..., seconds}] in order of first appearance}.
// Only additive metrics (names ending in ".sum") are summed over kernels.
nlohmann::json parse_ncu_csv(const std::string& text, const std::string& path);

// Reads the file and parses it; a missing file is NcuFormatError("cannot open ...").
nlohmann::json import_ncu_file(const std::string& path);

}  // namespace rlx::counters
