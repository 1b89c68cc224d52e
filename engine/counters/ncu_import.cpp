// ncu_import.cpp: the Nsight Compute CSV reader (see ncu_import.h). Two layouts:
// - raw (`ncu --csv --page raw`): one row per kernel launch, one column per metric, the row after
//   the header holds each metric's unit;
// - details (`ncu --csv`, `ncu --import report.ncu-rep --csv`): one row per metric per launch with
//   "Metric Name", "Metric Unit" and "Metric Value" columns; rows of a launch are consecutive.
// Both stream: lines are read one at a time and summed into fixed-size slots, so memory depends
// on the distinct metrics and on at most kMaxKernelNames kernel names, not on the file's size.
#include "counters/ncu_import.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "counters/metrics.h"
#include "counters/ncu_csv.h"
#include "util/text_file.h"

namespace rlx::counters {
namespace {

// Kernel names kept apart in per_kernel; launches of further names are summed into one entry.
constexpr size_t kMaxKernelNames = 2000;
// Distinct metrics and processes a file may have (far above what ncu writes).
constexpr size_t kMaxMetrics = 4096;
constexpr size_t kMaxProcesses = 65536;
constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
  throw NcuFormatError(fmt::format("{}:{}: {}", path, line, what));
}

// ncu writes metric names as unit__counter.rollup; identification columns have no "__".
bool is_metric_name(const std::string& name) { return name.find("__") != std::string::npos; }

bool is_additive(const std::string& name) {
  return name.size() > 4 && name.compare(name.size() - 4, 4, ".sum") == 0;
}

// Lines of the file with their numbers; skips blank lines and ncu's own log lines ("==PROF==",
// "==WARNING==", ...), keeping the first few warnings and errors for the summary.
class Lines {
 public:
  Lines(std::istream& in, std::string path) : in_(in), path_(std::move(path)) {}
  bool next(std::vector<std::string>& fields) {
    std::string line;
    while (std::getline(in_, line)) {
      ++number_;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) continue;
      if (line.rfind("==ERR", 0) == 0)  // ==ERROR== (or ==ERR==): what ncu measured is in doubt
        fail(path_, number_,
             fmt::format("ncu reported an error: \"{}\": the results beside it may be missing or wrong; fix "
                         "what ncu says and profile again (or delete that line to import the file as it is)",
                         line.substr(0, 200)));
      if (line.rfind("==", 0) == 0) {
        if (line.rfind("==PROF==", 0) != 0 && messages_.size() < 10) messages_.push_back(line);
        if (log_lines_++ == 0) first_log_ = line.substr(0, 200);
        continue;
      }
      if (!ncu::split_csv(line, fields)) fail(path_, number_, "unterminated quoted field");
      return true;
    }
    return false;
  }
  int number() const { return number_; }
  const std::string& path() const { return path_; }
  const std::vector<std::string>& messages() const { return messages_; }
  int log_lines() const { return log_lines_; }
  const std::string& first_log() const { return first_log_; }

 private:
  std::istream& in_;
  std::string path_;
  int number_ = 0;
  std::vector<std::string> messages_;
  int log_lines_ = 0;
  std::string first_log_;
};

// "column \"dram__bytes_read.sum\"" (raw page: the column is the metric), or
// "column \"Metric Value\" of metric \"dram__bytes_read.sum\"" (details page).
std::string cell(const std::string& column, const std::string& metric) {
  return column == metric ? fmt::format("column \"{}\"", column)
                          : fmt::format("column \"{}\" of metric \"{}\"", column, metric);
}

// A unit and a value checked against what the metric counts; the value in base units.
double checked_value(const Lines& lines, const std::string& column, const std::string& metric,
                     const std::string& unit, const std::string& raw) {
  double v = 0;
  if (!ncu::parse_number(raw, v))
    fail(lines.path(), lines.number(),
         fmt::format("{}: value \"{}\" is not a number as ncu writes it (digits, '.' for decimals, ',' only "
                     "between groups of three: export with LC_ALL=C)",
                     cell(column, metric), raw));
  if (v < 0)
    fail(lines.path(), lines.number(),
         fmt::format("{}: value \"{}\" is negative; a sum of {} cannot be", cell(column, metric), raw,
                     ncu::kind_name(ncu::expected_kind(metric))));
  const double scaled = v * parse_unit(unit).factor;
  if (!std::isfinite(scaled))
    fail(lines.path(), lines.number(),
         fmt::format("{}: value \"{}\" {} is beyond what a double holds; this is no count ncu measured",
                     cell(column, metric), raw, unit));
  return scaled;
}

// Refuses a unit that is unknown or of another kind than the metric counts.
void check_unit(const Lines& lines, int line, const std::string& column, const std::string& metric,
                const std::string& unit) {
  const ncu::UnitKind want = ncu::expected_kind(metric);
  const ncu::UnitKind got = ncu::unit_kind(unit);
  if (got == ncu::UnitKind::unknown)
    fail(lines.path(), line,
         fmt::format("{}: unit \"{}\" is not a unit ncu writes (for {}: {})", cell(column, metric), unit,
                     ncu::kind_name(want), ncu::kind_examples(want)));
  if (got != want)
    fail(lines.path(), line,
         fmt::format("{}: unit \"{}\" is {}, but the metric counts {} ({})", cell(column, metric), unit,
                     ncu::kind_name(got), ncu::kind_name(want), ncu::kind_examples(want)));
}

// Sums launches per kernel name and in total, one slot per metric.
class Aggregator {
 public:
  // The slot of a metric (checked unit `unit`), made on first sight.
  size_t slot(const std::string& metric, const std::string& unit, const Lines& lines) {
    auto [it, added] = slot_of_.emplace(metric, names_.size());
    if (added) {
      if (names_.size() >= kMaxMetrics)
        fail(lines.path(), lines.number(), fmt::format("more than {} distinct metrics", kMaxMetrics));
      names_.push_back(metric);
      bases_.push_back(parse_unit(unit).base);
      total_.push_back(kAbsent);
    }
    return it->second;
  }

  void begin_launch(const std::string& kernel, const std::string& pid) {
    ++launches_;
    if (!pid.empty() && processes_.size() < kMaxProcesses) processes_.insert(pid);
    auto it = index_.find(kernel);
    if (it == index_.end() && kernels_.size() < kMaxKernelNames) {
      it = index_.emplace(kernel, kernels_.size()).first;
      kernels_.push_back({kernel, 0, {}});
    }
    current_ = it == index_.end() ? &other_ : &kernels_[it->second];
    ++current_->count;
  }

  // A sum that overflows is refused at the row that made it (issue 56: it was stored as inf, a
  // "measured" DRAM point with AI 0).
  void add(size_t slot, double v, const Lines& lines) {
    ++values_;
    add_to(total_, slot, v);
    add_to(current_->values, slot, v);
    if (!std::isfinite(total_[slot]))
      fail(lines.path(), lines.number(),
           fmt::format("the sum of {} overflows here (beyond what a double holds); nothing was imported",
                       names_[slot]));
  }
  // A cell of a summed metric that ncu wrote as n/a (or left empty): it could not collect it.
  void not_available() { ++not_available_; }

  // A metric rlx does not sum, listed once in order of first sight.
  void skip(const std::string& metric) {
    if (skipped_.size() < kMaxMetrics && skipped_seen_.insert(metric).second) skipped_.push_back(metric);
  }

  nlohmann::json result(const Lines& lines, bool has_pid, const char* format) const;

 private:
  struct Kernel {
    std::string name;
    long long count;
    std::vector<double> values;  // per slot; NaN = never seen
  };
  static void add_to(std::vector<double>& v, size_t slot, double x) {
    if (v.size() <= slot) v.resize(slot + 1, kAbsent);
    v[slot] = std::isnan(v[slot]) ? x : v[slot] + x;
  }
  std::map<std::string, double> named(const std::vector<double>& v) const {
    std::map<std::string, double> m;
    for (size_t i = 0; i < v.size(); ++i)
      if (!std::isnan(v[i])) m[names_[i]] = v[i];
    return m;
  }
  nlohmann::json kernel_json(const Kernel& k) const;

  std::vector<std::string> names_;
  std::vector<std::string> bases_;  // base unit of each slot ("byte", "second", "inst", "")
  std::unordered_map<std::string, size_t> slot_of_;
  std::vector<double> total_;
  std::vector<Kernel> kernels_;
  std::unordered_map<std::string, size_t> index_;
  Kernel other_{"", 0, {}};
  Kernel* current_ = &other_;
  std::set<std::string> processes_;
  std::vector<std::string> skipped_;
  std::set<std::string> skipped_seen_;
  long long launches_ = 0;
  long long values_ = 0, not_available_ = 0;
};

// The summary fields every result (total and per kernel) carries, 0 when the inputs are absent.
void put_summary(nlohmann::json& j, const nlohmann::json& derived) {
  for (const char* k : {"flops_fp32", "flops_fp16", "flops_fp64", "flops_tensor", "flops", "dram_read_bytes",
                        "dram_write_bytes", "dram_bytes", "l2_bytes", "l1_bytes", "seconds"}) {
    j[k] = derived.contains(k) ? derived[k].get<double>() : 0.0;
  }
}

nlohmann::json Aggregator::kernel_json(const Kernel& k) const {
  nlohmann::json e;
  e["name"] = k.name;
  e["count"] = k.count;
  const auto values = named(k.values);
  e["values"] = values.empty() ? nlohmann::json::object() : nlohmann::json(values);
  put_summary(e, derive(values));
  return e;
}

nlohmann::json Aggregator::result(const Lines& lines, bool has_pid, const char* format) const {
  // Issue 25 finding 11: a file whose every summed value was n/a imported zeros with exit 0.
  if (values_ == 0 && not_available_ > 0)
    fail(lines.path(), lines.number(),
         fmt::format("every value of the metrics rlx sums is n/a ({} cell{}): ncu could not collect them (on "
                     "this GPU, "
                     "or without access to its performance counters: ERR_NVGPUCTRPERM); nothing to import",
                     not_available_, not_available_ == 1 ? "" : "s"));
  const auto total = named(total_);
  nlohmann::json units = nlohmann::json::object();
  for (size_t i = 0; i < names_.size(); ++i) units[names_[i]] = bases_[i];
  nlohmann::json r;
  r["path"] = lines.path();
  r["source"] = "ncu";
  r["format"] = format;
  r["kernels"] = launches_;
  r["processes"] = has_pid ? static_cast<long long>(processes_.size()) : (launches_ > 0 ? 1 : 0);
  r["values"] = total.empty() ? nlohmann::json::object() : nlohmann::json(total);
  r["units"] = units;
  nlohmann::json derived = derive(total);
  nlohmann::json missing = derived.contains("missing") ? derived["missing"] : nlohmann::json::array();
  derived.erase("missing");
  derived["kernels"] = launches_;
  r["derived"] = derived;
  put_summary(r, derived);
  r["missing"] = missing;
  r["skipped_metrics"] = skipped_;
  // Additive metrics no formula reads: summed and kept in values, but they change no result.
  nlohmann::json unused = nlohmann::json::array();
  for (const auto& [name, v] : total)
    if (!used_by_formulas(name)) unused.push_back(name);
  r["unused_metrics"] = unused;
  nlohmann::json per = nlohmann::json::array();
  for (const auto& k : kernels_) per.push_back(kernel_json(k));
  if (other_.count > 0) {
    Kernel other = other_;
    other.name = fmt::format("(launches of kernel names beyond the first {})", kMaxKernelNames);
    per.push_back(kernel_json(other));
    r["per_kernel_other_launches"] = other_.count;
  }
  r["per_kernel"] = per;
  if (!lines.messages().empty()) r["ncu_messages"] = lines.messages();
  return r;
}

int column(const std::vector<std::string>& header, const char* name) {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

void check_width(const Lines& lines, const std::vector<std::string>& fields, size_t width) {
  if (fields.size() != width)
    fail(lines.path(), lines.number(), fmt::format("ragged row: {} fields, the header has {}", fields.size(), width));
}

// The raw page: metric columns, a units row, one row per launch.
nlohmann::json read_raw(Lines& lines, const std::vector<std::string>& header, int header_line) {
  const int kernel_col = column(header, "Kernel Name"), pid_col = column(header, "Process ID");
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < header.size(); ++i) {
    if (!is_metric_name(header[i])) continue;
    auto [it, added] = seen.emplace(header[i], i);
    if (!added)
      fail(lines.path(), header_line,
           fmt::format("metric \"{}\" appears twice (columns {} and {}): ncu writes each metric once, and one "
                       "metric in two units cannot be summed",
                       header[i], it->second + 1, i + 1));
  }
  std::vector<std::string> units;
  if (!lines.next(units))
    fail(lines.path(), lines.number() + 1, "missing units row after the header (ncu --csv --page raw writes one)");
  check_width(lines, units, header.size());
  if (!units[kernel_col].empty())
    fail(lines.path(), lines.number(),
         fmt::format("missing units row: line {} is a kernel row (ncu --csv --page raw writes the units on the line "
                     "after the header)",
                     lines.number()));
  Aggregator agg;
  std::vector<std::pair<size_t, size_t>> additive;  // column, slot
  for (size_t i = 0; i < header.size(); ++i) {
    if (!is_metric_name(header[i])) continue;
    if (!is_additive(header[i])) {
      agg.skip(header[i]);
      continue;
    }
    check_unit(lines, lines.number(), header[i], header[i], units[i]);
    additive.emplace_back(i, agg.slot(header[i], units[i], lines));
  }
  std::vector<std::string> fields;
  while (lines.next(fields)) {
    check_width(lines, fields, header.size());
    if (fields[kernel_col].empty()) fail(lines.path(), lines.number(), "empty \"Kernel Name\"");
    agg.begin_launch(fields[kernel_col], pid_col >= 0 ? fields[pid_col] : "");
    for (const auto& [c, slot] : additive) {
      // ncu writes n/a for a metric it could not collect on this kernel: not a value, not an error.
      if (fields[c] == "n/a" || fields[c].empty()) {
        agg.not_available();
        continue;
      }
      agg.add(slot, checked_value(lines, header[c], header[c], units[c], fields[c]), lines);
    }
  }
  return agg.result(lines, pid_col >= 0, "raw");
}

// The details page: one row per metric per launch.
nlohmann::json read_details(Lines& lines, const std::vector<std::string>& header) {
  const int kernel_col = column(header, "Kernel Name"), pid_col = column(header, "Process ID"),
            id_col = column(header, "ID"), name_col = column(header, "Metric Name"),
            unit_col = column(header, "Metric Unit"), value_col = column(header, "Metric Value");
  if (name_col < 0 || unit_col < 0 || value_col < 0)
    fail(lines.path(), lines.number(),
         "a details table needs \"Metric Name\", \"Metric Unit\" and \"Metric Value\" columns (ncu --csv writes them)");
  Aggregator agg;
  std::string launch;                                        // ID and process of the current launch
  std::map<size_t, std::pair<int, std::string>> in_launch;  // slot -> line, unit (duplicates)
  std::vector<std::string> f;
  while (lines.next(f)) {
    check_width(lines, f, header.size());
    if (f[kernel_col].empty()) fail(lines.path(), lines.number(), "empty \"Kernel Name\"");
    const std::string pid = pid_col >= 0 ? f[pid_col] : "";
    const std::string key = (id_col >= 0 ? f[id_col] : f[kernel_col]) + '\x1f' + pid;
    if (key != launch) {
      launch = key;
      in_launch.clear();
      agg.begin_launch(f[kernel_col], pid);
    }
    const std::string& metric = f[name_col];
    if (!is_metric_name(metric) || !is_additive(metric)) {
      agg.skip(metric);
      continue;
    }
    if (f[value_col] == "n/a" || f[value_col].empty()) {
      agg.not_available();
      continue;
    }
    check_unit(lines, lines.number(), "Metric Unit", metric, f[unit_col]);
    const size_t slot = agg.slot(metric, f[unit_col], lines);
    auto [it, added] = in_launch.emplace(slot, std::make_pair(lines.number(), f[unit_col]));
    if (!added)
      fail(lines.path(), lines.number(),
           fmt::format("metric \"{}\" appears twice for launch ID {} (lines {} and {}, units \"{}\" and \"{}\"): ncu "
                       "writes each metric once per launch",
                       metric, id_col >= 0 ? f[id_col] : "?", it->second.first, lines.number(), it->second.second,
                       f[unit_col]));
    agg.add(slot, checked_value(lines, "Metric Value", metric, f[unit_col], f[value_col]), lines);
  }
  return agg.result(lines, pid_col >= 0, "details");
}

}  // namespace

nlohmann::json parse_ncu_stream(std::istream& in, const std::string& path) {
  Lines lines(in, path);
  std::vector<std::string> header;
  if (!lines.next(header)) {
    // Only ncu's own log lines: it wrote no table (it was called "empty", issue 25 finding 11).
    if (lines.log_lines() > 0)
      fail(path, lines.number(),
           fmt::format(
               "no header row: the file holds only ncu's log lines ({}, the first \"{}\") and no results "
               "table: ncu profiled no kernel, or failed (read its messages)",
               lines.log_lines(), lines.first_log()));
    fail(path, std::max(lines.number(), 1),
         "no header row: the file is empty (expected the output of ncu --csv, or ncu --csv --page raw)");
  }
  const int header_line = lines.number();
  bool any_metric = false;
  for (const auto& h : header) any_metric = any_metric || is_metric_name(h);
  if (column(header, "Kernel Name") >= 0 && column(header, "Metric Name") >= 0) return read_details(lines, header);
  if (column(header, "Kernel Name") < 0 || !any_metric)
    fail(path, header_line,
         "no header row with a \"Kernel Name\" column and metric columns (expected the output of ncu --csv, or ncu "
         "--csv --page raw)");
  return read_raw(lines, header, header_line);
}

nlohmann::json parse_ncu_csv(const std::string& text, const std::string& path) {
  std::istringstream in(text);
  return parse_ncu_stream(in, path);
}

nlohmann::json import_ncu_file(const std::string& path) {
  // The one rule for a user's file (util/text_file.h): a FIFO or a device is refused at once, not
  // read forever; the CSV is streamed (its reader bounds what it keeps), so no byte cap.
  util::UserFile f(path, "the ncu CSV");
  return parse_ncu_stream(f.stream(), path);
}

}  // namespace rlx::counters
