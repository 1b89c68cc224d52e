// records.cpp: the runs columns and how a training result becomes a RunRecord (records.h).
#include "store/records.h"

#include <fmt/format.h>
#include <unistd.h>

#include <climits>
#include <cmath>
#include <cstdlib>

#include "store/store.h"

namespace rlx::store {

const std::vector<RunColumn>& run_columns() {
  using T = ColumnType;
  static const std::vector<RunColumn> cols = {
      {"model", T::Text},          {"precision", T::Text},       {"batch", T::Integer},
      {"device", T::Text},         {"warmup", T::Integer},       {"iters", T::Integer},
      {"error", T::Text},          {"started_at", T::Text},      {"finished_at", T::Text},
      {"images_per_s", T::Real},   {"seconds", T::Real},         {"iter_mean_s", T::Real},
      {"iter_sd_s", T::Real},      {"iter_median_s", T::Real},   {"iter_min_s", T::Real},
      {"iter_max_s", T::Real},     {"iter_p5_s", T::Real},       {"iter_p95_s", T::Real},
      {"data_wait_s", T::Real},    {"user_s", T::Real},          {"sys_s", T::Real},
      {"max_rss_bytes", T::Integer}, {"device_max_bytes", T::Integer}, {"loss_first", T::Real},
      {"loss_last", T::Real},      {"threads", T::Integer},      {"total_s", T::Real},
      {"memory_format", T::Text},  {"stable", T::Integer},       {"drift", T::Real},
      {"cv", T::Real},             {"counter_iters", T::Integer}, {"counted_iter_s", T::Real},
      {"pin_memory", T::Integer},  {"sweep_order", T::Text},     {"sweep_seed", T::Integer},
      {"position", T::Integer},    {"pid", T::Integer},          {"host", T::Text},
      {"claimed_at", T::Text},     {"attempt", T::Integer},      {"slurm_job_id", T::Text},
      {"slurm_array_task_id", T::Integer}, {"node", T::Text},
      {"input", T::Integer},       {"target_ci", T::Real},       {"stop_reason", T::Text},
      {"ci_rel", T::Real},         {"warmup_used", T::Integer},  {"floor_gflops", T::Real},
      {"other_cpu", T::Real},      {"steal_cpu", T::Real},       {"cpu_share", T::Real},
      {"contended", T::Integer},   {"deaths", T::Text},
      {"cuda_graphs", T::Integer}, {"ranks", T::Integer},       {"global_batch", T::Integer},
  };
  return cols;
}

namespace {

const RunColumn& column_named(const std::string& name) {
  for (const auto& c : run_columns())
    if (name == c.name) return c;
  throw Error(fmt::format("'{}' is not a runs column", name));
}

const char* type_text(ColumnType t) {
  switch (t) {
    case ColumnType::Integer: return "a whole number";
    case ColumnType::Real: return "a finite number";
    default: return "a string";
  }
}

// The value if it fits the column, else null (results are lenient: a wrong type is unknown).
Json lenient(const RunColumn& column, const Json& value) {
  try {
    return checked_column(column, value);
  } catch (const Error&) {
    return nullptr;
  }
}

// Columns read from the result: column name, JSON pointer into the result.
const std::pair<const char*, const char*> kFromResult[] = {
    {"images_per_s", "/images_per_s"},   {"seconds", "/seconds"},
    {"iter_mean_s", "/iter_s/mean"},     {"iter_sd_s", "/iter_s/sd"},
    {"iter_median_s", "/iter_s/median"}, {"iter_min_s", "/iter_s/min"},
    {"iter_max_s", "/iter_s/max"},       {"iter_p5_s", "/iter_s/p5"},
    {"iter_p95_s", "/iter_s/p95"},       {"data_wait_s", "/data_wait_s"},
    {"user_s", "/user_s"},               {"sys_s", "/sys_s"},
    {"max_rss_bytes", "/max_rss_bytes"}, {"device_max_bytes", "/device_max_bytes"},
    {"loss_first", "/loss_first"},       {"loss_last", "/loss_last"},
    {"threads", "/threads"},             {"memory_format", "/memory_format"},
    {"stable", "/stability/stable"},     {"drift", "/stability/drift"},
    {"cv", "/stability/cv"},             {"counter_iters", "/counter_iters"},
    {"counted_iter_s", "/counted_iter_s"}, {"pin_memory", "/pin_memory"},
    {"input", "/input"},                 {"target_ci", "/target_ci"},
    {"stop_reason", "/stop_reason"},     {"ci_rel", "/ci_rel"},
    {"warmup_used", "/warmup_used"},     {"floor_gflops", "/floor_gflops"},
    {"other_cpu", "/other_cpu"},         {"steal_cpu", "/steal_cpu"},
    {"cpu_share", "/cpu_share"},         {"contended", "/contended"},
    {"cuda_graphs", "/cuda_graphs"},     {"ranks", "/ranks"},
    {"global_batch", "/global_batch"},
};

Json at(const Json& j, const char* pointer) {
  Json::json_pointer p(pointer);
  return j.is_object() && j.contains(p) ? j.at(p) : Json();
}

}  // namespace

Json checked_column(const RunColumn& column, const Json& value) {
  if (value.is_null()) return nullptr;
  switch (column.type) {
    case ColumnType::Integer:
      if (value.is_boolean()) return value.get<bool>() ? 1 : 0;
      if (value.is_number_integer() || value.is_number_unsigned()) return value;
      if (value.is_number_float()) {
        double d = value.get<double>();
        if (std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.2e18) return static_cast<long long>(d);
      }
      break;
    case ColumnType::Real:
      if (value.is_number() && std::isfinite(value.get<double>())) return value.get<double>();
      break;
    case ColumnType::Text:
      if (value.is_string()) return value;
      break;
  }
  throw Error(
      fmt::format("run column '{}' must be {}, got {}", column.name, type_text(column.type), value.dump()));
}

std::vector<Counter> counters_from(const Json& counters, const std::string& default_source) {
  std::vector<Counter> out;
  auto put = [&](const std::string& name, const Json& v, const Json& unit, const std::string& source) {
    Json value = v, u = unit;
    if (v.is_object()) {
      value = v.value("value", Json());
      if (v.contains("unit")) u = v["unit"];
    }
    if (!value.is_number() || !std::isfinite(value.get<double>())) return;
    out.push_back({name, value.get<double>(), u.is_string() ? u.get<std::string>() : "", source});
  };
  if (counters.is_array()) {
    for (const auto& c : counters) {
      if (!c.is_object() || !c.contains("name")) continue;
      std::string name = c["name"].is_string() ? c["name"].get<std::string>() : c["name"].dump();
      std::string source = c.contains("source") && c["source"].is_string() ? c["source"].get<std::string>()
                                                                           : default_source;
      put(name, c.value("value", Json()), c.value("unit", Json()), source);
    }
    return out;
  }
  if (!counters.is_object()) return out;
  std::string source = counters.contains("source") && counters["source"].is_string()
                           ? counters["source"].get<std::string>()
                           : default_source;
  if (counters.contains("values") && counters["values"].is_object()) {
    Json units = counters.value("units", Json::object());
    for (const auto& [name, v] : counters["values"].items()) put(name, v, units.value(name, Json()), source);
    if (counters.contains("derived") && counters["derived"].is_object()) {
      Json du = counters.value("derived_units", Json::object());
      for (const auto& [name, v] : counters["derived"].items())
        put(name, v, du.is_object() ? du.value(name, Json()) : Json(), source + ":derived");
    }
    return out;
  }
  for (const auto& [name, v] : counters.items())
    if (name != "source") put(name, v, Json(), source);
  return out;
}

RunRecord run_record(const Json& config, const Json& result) {
  RunRecord r;
  r.config = config.is_object() ? config : Json::object();
  bool ok = result.is_object() && result.value("ok", false) == true;
  r.status = ok ? "ok" : "failed";
  auto set = [&](const char* name, const Json& v) {
    Json c = lenient(column_named(name), v);
    if (!c.is_null()) r.columns[name] = c;
  };
  set("model", at(r.config, "/model"));
  Json precision = at(r.config, "/precision");
  set("precision", precision.is_null() ? at(result, "/precision") : precision);
  set("batch", at(r.config, "/batch"));
  Json device = at(result, "/device");
  set("device", device.is_null() ? at(r.config, "/device") : device);
  // The warm-up and timed iterations the run took (warm-up until steady and precision-targeted
  // runs decide them as they go), else the configuration's counts.
  const Json warmup_used = at(result, "/warmup_used"), iters_used = at(result, "/iters");
  set("warmup", warmup_used.is_number() ? warmup_used : at(r.config, "/warmup"));
  set("iters", iters_used.is_number() ? iters_used : at(r.config, "/iters"));
  if (!ok) {
    Json e = at(result, "/error");
    r.columns["error"] = e.is_string() ? e.get<std::string>() : (e.is_null() ? "failed" : e.dump());
  }
  for (const auto& [col, pointer] : kFromResult) set(col, at(result, pointer));
  // -1 means "not available" (no CUDA allocator on CPU).
  if (r.columns.contains("device_max_bytes") && r.columns["device_max_bytes"].get<long long>() < 0)
    r.columns.erase("device_max_bytes");
  if (result.is_object()) {
    for (const auto& [k, v] : result.items())
      if (k != "samples") r.result[k] = v;
    for (const auto& s : result.value("samples", Json::array()))
      if (s.is_number()) r.samples.push_back(s.get<double>());
    r.counters = counters_from(result.value("counters", Json()), "");
    const Json because = at(result, "/rerun_because");
    if (because.is_string()) r.rerun_because = because.get<std::string>();
  }
  return r;
}

Json process_columns() {
  Json c = Json::object();
  c["pid"] = static_cast<long long>(getpid());
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof host - 1) == 0) c["host"] = std::string(host);
  auto env = [](const char* name) -> const char* {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
  };
  if (const char* job = env("SLURM_ARRAY_JOB_ID") ? env("SLURM_ARRAY_JOB_ID") : env("SLURM_JOB_ID"))
    c["slurm_job_id"] = std::string(job);
  if (const char* task = env("SLURM_ARRAY_TASK_ID")) {
    char* end = nullptr;
    long long n = std::strtoll(task, &end, 10);
    if (end && *end == '\0') c["slurm_array_task_id"] = n;
  }
  if (const char* node = env("SLURMD_NODENAME")) c["node"] = std::string(node);
  return c;
}

}  // namespace rlx::store
