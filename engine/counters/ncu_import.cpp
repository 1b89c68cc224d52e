// ncu_import.cpp: the Nsight Compute raw-CSV reader (see ncu_import.h). ncu's raw page has one
// column per metric and a few identification columns ("ID", "Process ID", "Kernel Name", ...);
// the second row holds each metric's unit ("Kbyte", "nsecond", ...), empty for the others.
#include "counters/ncu_import.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "counters/metrics.h"

namespace rlx::counters {

namespace {

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
  throw NcuFormatError(fmt::format("{}:{}: {}", path, line, what));
}

// Splits one CSV line (RFC 4180 quoting, "" inside quotes is a quote). Returns false on an
// unterminated quote.
bool split_csv(const std::string& line, std::vector<std::string>& out) {
  out.clear();
  std::string cur;
  bool quoted = false, was_quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < line.size() && line[i + 1] == '"') {
          cur += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = was_quoted = true;
    } else if (c == ',') {
      out.push_back(cur);
      cur.clear();
      was_quoted = false;
    } else {
      cur += c;
    }
  }
  (void)was_quoted;
  out.push_back(cur);
  return !quoted;
}

// ncu writes metric names as unit__counter.rollup; identification columns have no "__".
bool is_metric_column(const std::string& name) { return name.find("__") != std::string::npos; }

bool is_additive(const std::string& name) {
  return name.size() > 4 && name.compare(name.size() - 4, 4, ".sum") == 0;
}

// "1,234,567.5" -> 1234567.5; false for anything else that is not a plain number.
bool parse_number(std::string s, double& out) {
  std::string t;
  for (char c : s) {
    if (c != ',' && c != ' ') t += c;
  }
  if (t.empty()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtod(t.c_str(), &end);
  return end && *end == '\0' && errno == 0 && std::isfinite(out);
}

struct KernelSum {
  std::string name;
  long long count = 0;
  std::map<std::string, double> values;
};

// The summary fields every result (total and per kernel) carries, 0 when the inputs are absent.
void put_summary(nlohmann::json& j, const nlohmann::json& derived) {
  for (const char* k : {"flops_fp32", "flops_fp16", "flops_fp64", "flops_tensor", "flops", "dram_read_bytes",
                        "dram_write_bytes", "dram_bytes", "l2_bytes", "l1_bytes", "seconds"}) {
    j[k] = derived.contains(k) ? derived[k].get<double>() : 0.0;
  }
}

}  // namespace

nlohmann::json parse_ncu_csv(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  std::vector<std::string> header, fields;
  int header_line = 0;
  // ncu may print its own log lines ("==PROF== ...", "==WARNING== ...") before the table.
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.rfind("==", 0) == 0) continue;
    if (!split_csv(line, header)) fail(path, lineno, "unterminated quoted field");
    header_line = lineno;
    break;
  }
  if (header_line == 0) fail(path, lineno == 0 ? 1 : lineno, "no header row: the file is empty (expected the output of ncu --csv --page raw)");
  int kernel_col = -1, pid_col = -1;
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == "Kernel Name") kernel_col = static_cast<int>(i);
    if (header[i] == "Process ID") pid_col = static_cast<int>(i);
  }
  bool any_metric = false;
  for (const auto& h : header) any_metric = any_metric || is_metric_column(h);
  if (kernel_col < 0 || !any_metric) {
    fail(path, header_line, "no header row with a \"Kernel Name\" column and metric columns (expected the output of "
                            "ncu --csv --page raw)");
  }
  // Units row: every identification column empty. A first data row in its place is an error,
  // since without units "1,024" could be bytes or Kbytes.
  std::vector<UnitScale> scale(header.size());
  std::vector<std::string> unit_raw(header.size());
  int units_line = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.rfind("==", 0) == 0) continue;
    units_line = lineno;
    break;
  }
  if (units_line == 0) fail(path, lineno + 1, "missing units row after the header (ncu --csv --page raw writes one)");
  if (!split_csv(line, fields)) fail(path, units_line, "unterminated quoted field");
  if (fields.size() != header.size()) {
    fail(path, units_line, fmt::format("ragged row: {} fields, the header has {}", fields.size(), header.size()));
  }
  if (!fields[kernel_col].empty()) {
    fail(path, units_line, "missing units row: line " + std::to_string(units_line) +
                               " is a kernel row (ncu --csv --page raw writes the units on the line after the header)");
  }
  std::vector<size_t> metric_cols;
  std::vector<std::string> skipped;
  for (size_t i = 0; i < header.size(); ++i) {
    if (!is_metric_column(header[i])) continue;
    unit_raw[i] = fields[i];
    scale[i] = parse_unit(fields[i]);
    if (is_additive(header[i])) metric_cols.push_back(i);
    else skipped.push_back(header[i]);
  }

  std::vector<KernelSum> kernels;
  std::map<std::string, size_t> kernel_index;
  std::map<std::string, double> total;
  std::set<std::string> processes;
  long long launches = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.rfind("==", 0) == 0) continue;
    if (!split_csv(line, fields)) fail(path, lineno, "unterminated quoted field");
    if (fields.size() != header.size()) {
      fail(path, lineno, fmt::format("ragged row: {} fields, the header has {}", fields.size(), header.size()));
    }
    const std::string& kname = fields[kernel_col];
    if (kname.empty()) fail(path, lineno, "empty \"Kernel Name\"");
    auto [it, added] = kernel_index.emplace(kname, kernels.size());
    if (added) kernels.push_back({kname, 0, {}});
    KernelSum& k = kernels[it->second];
    ++k.count;
    ++launches;
    if (pid_col >= 0) processes.insert(fields[pid_col]);
    for (size_t c : metric_cols) {
      const std::string& raw = fields[c];
      // ncu writes n/a for a metric it could not collect on this kernel: not a value, not an error.
      if (raw == "n/a" || raw.empty()) continue;
      double v;
      if (!parse_number(raw, v)) {
        fail(path, lineno, fmt::format("non-numeric value \"{}\" in metric column \"{}\"", raw, header[c]));
      }
      v *= scale[c].factor;
      k.values[header[c]] += v;
      total[header[c]] += v;
    }
  }

  nlohmann::json units = nlohmann::json::object();
  for (size_t c : metric_cols) units[header[c]] = scale[c].base;
  nlohmann::json r;
  r["path"] = path;
  r["source"] = "ncu";
  r["kernels"] = launches;
  r["processes"] = pid_col >= 0 ? static_cast<long long>(processes.size()) : (launches > 0 ? 1 : 0);
  r["values"] = total.empty() ? nlohmann::json::object() : nlohmann::json(total);
  r["units"] = units;
  nlohmann::json derived = derive(total);
  nlohmann::json missing = derived.contains("missing") ? derived["missing"] : nlohmann::json::array();
  derived.erase("missing");
  derived["kernels"] = launches;
  r["derived"] = derived;
  put_summary(r, derived);
  r["missing"] = missing;
  r["skipped_metrics"] = skipped;
  nlohmann::json per = nlohmann::json::array();
  for (const auto& k : kernels) {
    nlohmann::json e;
    e["name"] = k.name;
    e["count"] = k.count;
    e["values"] = k.values.empty() ? nlohmann::json::object() : nlohmann::json(k.values);
    put_summary(e, derive(k.values));
    per.push_back(e);
  }
  r["per_kernel"] = per;
  return r;
}

nlohmann::json import_ncu_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw NcuFormatError(fmt::format("cannot read {}: it is a directory", path));
  std::ifstream f(path, std::ios::binary);
  if (!f) throw NcuFormatError(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  std::ostringstream ss;
  ss << f.rdbuf();
  return parse_ncu_csv(ss.str(), path);
}

}  // namespace rlx::counters
