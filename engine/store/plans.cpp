// plans.cpp: what a study measured about its machine before training (calibrations) and each
// invocation's plan against its budget (plans); schema versions 6 and 7, store.h.
#include <cmath>

#include "store/store.h"
#include "store/transaction.h"
#include "util/printable.h"

namespace rlx::store {
namespace {

// A column of JSON text decoded in place (left as text when it is not JSON).
void decode(Json& rows, const char* column) {
  for (auto& r : rows) {
    if (!r.contains(column) || !r[column].is_string()) continue;
    Json j = Json::parse(r[column].get<std::string>(), nullptr, false);
    if (!j.is_discarded()) r[column] = j;
  }
}

const Json& required(const Json& obj, const char* key, const char* what) {
  if (!obj.is_object() || !obj.contains(key) || obj[key].is_null())
    throw Error(fmt::format("{}: field '{}' is required", what, key));
  return obj[key];
}

double positive(const Json& obj, const char* key, const char* what) {
  const Json& v = required(obj, key, what);
  if (!v.is_number()) throw Error(fmt::format("{}: field '{}' must be a number > 0, got {}", what, key, v.dump()));
  const double x = v.get<double>();
  if (!std::isfinite(x) || x <= 0)
    throw Error(fmt::format("{}: field '{}' must be a number > 0, got {:g}", what, key, x));
  return x;
}

// The intra-op threads a CPU calibration was probed with: `threads`, else the probe's, else 0 (not
// recorded: it serves any thread count).
int64_t probe_threads(const Json& c, const char* what) {
  Json t = c.value("threads", Json());
  if (t.is_null() && c.contains("probe") && c["probe"].is_object()) t = c["probe"].value("threads", Json());
  if (t.is_null()) return 0;
  if (!t.is_number_integer() || t.get<int64_t>() < 0)
    throw Error(fmt::format("{}: field 'threads' must be an integer >= 0, got {}", what, t.dump()));
  return t.get<int64_t>();
}

Json finite_or_null(const Json& v) {
  return v.is_number() && std::isfinite(v.get<double>()) ? v : Json();
}

// A value as a message shows it: text escaped (a database anyone could have written may hold an
// escape sequence), anything else as JSON.
std::string shown(const Json& v) {
  if (!v.is_string()) return util::printable(v.dump());
  // Appended, not "'" + text: GCC 12 warns falsely (-Wrestrict) on operator+(const char*, string&&).
  std::string quoted = "'";
  quoted += util::printable(v.get<std::string>());
  quoted += "'";
  return quoted;
}

bool name_like(const Json& v) {
  return v.is_string() && !v.get<std::string>().empty() &&
         !util::has_control_characters(v.get<std::string>());
}

bool positive_number(const Json& v) {
  return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0;
}

// What is wrong with a stored calibration row (as put_calibration would have refused it), or "".
// Checked on read because the file is anyone's: a row edited by hand, or by another program.
std::string calibration_problem(const Json& r) {
  const Json none;
  auto at = [&](const char* k) -> const Json& { return r.contains(k) ? r[k] : none; };
  const std::string format = at("memory_format").is_string() ? at("memory_format").get<std::string>() : "";
  if (format != "channels_last" && format != "contiguous")
    return "memory_format " + shown(at("memory_format")) + " is not channels_last or contiguous";
  if (!positive_number(at("per_image_s")))
    return "per_image_s " + shown(at("per_image_s")) + " is not a number of seconds > 0";
  if (!at("margin").is_null() && !positive_number(at("margin")))
    return "margin " + shown(at("margin")) + " is not a ratio > 0";
  if (!name_like(at("model"))) return "model " + shown(at("model")) + " is not a model name";
  if (!name_like(at("precision"))) return "precision " + shown(at("precision")) + " is not a precision";
  if (!at("input").is_number_integer() || at("input").get<int64_t>() < 1)
    return "input " + shown(at("input")) + " is not an image side >= 1";
  if (!at("threads").is_number_integer() || at("threads").get<int64_t>() < 0)
    return "threads " + shown(at("threads")) + " is not a thread count >= 0";
  return "";
}

}  // namespace

void Store::put_calibration(const std::string& environment_id, const Json& c) {
  const char* what = "put_calibration";
  const std::string format = required(c, "memory_format", what).get<std::string>();
  if (format != "channels_last" && format != "contiguous")
    throw Error(fmt::format("{}: memory_format must be channels_last or contiguous, got '{}'", what, format));
  const double per_image = positive(c, "per_image_s", what);
  const Json device = required(c, "device", what);
  Transaction tx(*this, what);
  exec("INSERT OR REPLACE INTO calibrations (environment_id, device, model, precision, input, threads, "
       "memory_format, per_image_s, margin, probe, measured_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
       Json::array({environment_id, device, required(c, "model", what), required(c, "precision", what),
                    required(c, "input", what), device == "cpu" ? probe_threads(c, what) : 0, format, per_image,
                    finite_or_null(c.value("margin", Json())), c.value("probe", Json()), utc_now()}));
  tx.commit();
}

Json Store::calibrations(const std::string& environment_id, const std::string& device, Json* problems) {
  // A file opened read-only is not migrated (`rlx env` reads rlx train's cache so): before version
  // 6 it has no calibrations, before 7 no threads column (each probe then serves any count).
  const int version = schema_version();
  if (version < 6) return Json::array();
  Json rows = query(fmt::format("SELECT device, model, precision, input, {} AS threads, memory_format, per_image_s, "
                                "margin, probe, measured_at FROM calibrations WHERE environment_id = ? AND device = ? "
                                "ORDER BY model, precision, input, threads",
                                version >= 7 ? "threads" : "0"),
                    Json::array({environment_id, device}));
  decode(rows, "probe");
  // Every row is checked here, the one place calibrations are read (issue 48 item 7: a
  // memory_format of 'bogus' + ESC[2J reached the terminal raw, and `rlx train` passed it to the
  // trainer, which refused an option the user never gave). A bad row is left out, so the caller
  // measures again and put_calibration replaces it; `problems` says what was wrong with it.
  Json usable = Json::array();
  for (auto& r : rows) {
    const std::string why = calibration_problem(r);
    if (why.empty()) {
      usable.push_back(std::move(r));
      continue;
    }
    if (problems)
      problems->push_back(
          fmt::format("database '{}': the {} calibration of {} ({}, input {}, threads {}) is unusable: "
                      "{}; it is ignored, and measured again where needed",
                      util::printable(path()), util::printable(device), shown(r.value("model", Json())),
                      shown(r.value("precision", Json())), shown(r.value("input", Json())),
                      shown(r.value("threads", Json())), why));
  }
  return usable;
}

std::string Store::put_plan(const Json& p) {
  const char* what = "put_plan";
  const std::string id = new_run_id();
  Transaction tx(*this, what);
  exec("INSERT INTO plans (id, study, environment_id, started_at, budget_s, estimate_s, planned, left_out, detail) "
       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
       Json::array({id, required(p, "study", what), required(p, "environment_id", what), utc_now(),
                    finite_or_null(p.value("budget_s", Json())), finite_or_null(p.value("estimate_s", Json())),
                    p.value("planned", Json()), p.value("left_out", Json()), p.value("detail", Json())}));
  tx.commit();
  return id;
}

void Store::finish_plan(const std::string& id, double wall_s, const Json& detail) {
  Transaction tx(*this, "finish_plan");
  if (exec("UPDATE plans SET wall_s = ?, detail = ? WHERE id = ?", Json::array({wall_s, detail, id})) != 1)
    throw Error(fmt::format("finish_plan: no plan '{}' in this database", id));
  tx.commit();
}

Json Store::plans(const std::string& study) {
  Json rows = query("SELECT id, study, environment_id, started_at, budget_s, estimate_s, planned, left_out, wall_s, "
                    "detail FROM plans WHERE study = ? ORDER BY started_at, rowid",
                    Json::array({study}));
  decode(rows, "detail");
  return rows;
}

}  // namespace rlx::store
