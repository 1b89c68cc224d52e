// runs.cpp: the study API of Store (store.h): environments, studies, runs with their children,
// counters, peaks, and the reads rlx.study, rlx runs, export and figures share.
//
// Every statement binds its values. A run's columns are written from run_columns(), so the SQL
// here never lists them by hand and a new column needs no edit in this file.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "store/legacy_notes.h"
#include "store/store.h"
#include "store/transaction.h"

namespace rlx::store {

namespace {

Json text_or_null(const Json& v) {
  if (v.is_string()) return v;
  if (v.is_number() || v.is_boolean()) return v.dump();
  if (v.is_array() || v.is_object()) return v.dump();
  return nullptr;
}

Json number_or_null(const Json& v) {
  if (v.is_number() && std::isfinite(v.get<double>())) return v;
  return nullptr;
}

std::string peak_unit(const std::string& name) {
  auto ends = [&](const std::string& suffix) {
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends("_gflops")) return "GFLOP/s";
  if (ends("_gbps")) return "GB/s";
  if (ends("_bytes")) return "B";
  if (ends("_s")) return "s";
  return "";
}

const char* kIterFields[] = {"mean", "sd", "median", "min", "max", "p5", "p95"};

// The highest attempt number run_attempts keeps of a slot (study, environment, config key,
// repeat), 0 when none.
int last_attempt_kept(Store& s, const Json& slot) {
  const Json rows = s.query(
      "SELECT COALESCE(MAX(attempt), 0) AS n FROM run_attempts WHERE study = ? AND environment_id = ? AND "
      "config_key = ? AND repeat = ?",
      slot);
  return rows.at(0).at("n").get<int>();
}

// A runs row as query() returns it, with its JSON text columns parsed.
Json parsed_row(Json row) {
  for (const char* k : {"config", "result", "deaths"})
    if (row.contains(k) && row[k].is_string()) {
      Json j = Json::parse(row[k].get<std::string>(), nullptr, false);
      if (!j.is_discarded()) row[k] = j;
    }
  return row;
}

}  // namespace

void Store::put_environment(const Json& env) {
  if (!env.is_object() || !env.contains("id") || !env["id"].is_string())
    throw Error("the environment table has no id: pass an environment as captured (it carries its id)");
  const char* text_cols[] = {"host",  "os",    "kernel", "arch",     "cpu_model",      "gpu_name",
                             "gpu_driver", "cudnn", "torch",  "luajit",   "compiler",       "rlx",
                             "virtualization", "container", "cloud_zone", "instance_type"};
  const char* num_cols[] = {"cpu_cores", "cpu_threads", "memory_bytes", "gpu_memory_bytes"};
  std::string cols = "id, label, cpu_flags, cpu_caches, cuda, info, first_seen", marks = "?, ?, ?, ?, ?, ?, ?";
  Json cuda = env.contains("cuda") ? env["cuda"] : env.value("cuda_build", Json());
  Json p = Json::array({env["id"], env.value("label", ""), text_or_null(env.value("cpu_flags", Json())),
                        env.value("cpu_caches", Json::array()).dump(), text_or_null(cuda), env.dump(-1, ' ', false, Json::error_handler_t::replace),
                        env.contains("captured_at") ? env["captured_at"] : Json(utc_now())});
  for (const char* c : text_cols) {
    cols += fmt::format(", {}", c);
    marks += ", ?";
    p.push_back(text_or_null(env.value(c, Json())));
  }
  for (const char* c : num_cols) {
    cols += fmt::format(", {}", c);
    marks += ", ?";
    p.push_back(number_or_null(env.value(c, Json())));
  }
  exec(fmt::format("INSERT OR IGNORE INTO environments ({}) VALUES ({})", cols, marks), p);
}

void Store::put_study(const std::string& name) {
  exec("INSERT OR IGNORE INTO studies (name, created_at) VALUES (?, ?)", Json::array({name, utc_now()}));
}

std::string Store::put_run(RunRecord run, bool join) {
  prepare_run(run);
  // Asked to, the run joins the caller's transaction (rlx import-kit stages its runs in one).
  if (join && in_transaction()) {
    insert_run(run);
    return run.id;
  }
  // A trained run is never thrown away because another process holds the lock: wait it out.
  Transaction tx(*this, "put_run", true);
  insert_run(run);
  tx.commit();
  return run.id;
}

void Store::place_run(RunRecord& run, const std::string& key) {
  const Json slot_of = Json::array({run.study, run.environment_id, key});
  switch (run.if_stored) {
    case IfStored::replace:
      return;
    case IfStored::next_repeat: {
      const Json max = query(
          "SELECT COALESCE(MAX(repeat), 0) AS n FROM runs WHERE study = ? AND environment_id = ? "
          "AND config_key = ?",
          slot_of);
      run.repeat = max.at(0).at("n").get<int>() + 1;
      run.label += fmt::format("_run{}", run.repeat);
      return;
    }
    case IfStored::refuse: {
      const Json held = query(
          "SELECT label, repeat FROM runs WHERE id != ? AND study = ? AND (label = ? OR "
          "(environment_id = ? AND config_key = ? AND repeat = ?)) LIMIT 1",
          Json::array({run.id, run.study, run.label, run.environment_id, key, run.repeat}));
      if (!held.empty())
        throw Error(
            fmt::format("study '{}' already holds a run labelled '{}' (repeat {}): it is not replaced; give "
                        "another label, or ask to replace it",
                        run.study, held[0].value("label", ""), held[0].value("repeat", 0)));
      return;
    }
    case IfStored::replace_label: {
      const Json same_label = Json::array({run.study, run.label, run.id});
      keep_attempts("study = ? AND label = ? AND id != ?", same_label, run.id, run.rerun_because);
      exec("DELETE FROM runs WHERE study = ? AND label = ? AND id != ?", same_label);
      return;
    }
  }
}

int Store::keep_attempts(const std::string& where, const Json& params, const std::string& by,
                         const std::string& why) {
  int highest = 0;
  if (schema_version() < 10) return 0;  // a file made at an older version on purpose (migrate_to)
  const std::string now = utc_now();
  for (const auto& row :
       query("SELECT * FROM runs WHERE status IN ('ok', 'failed') AND " + where + " ORDER BY finished_at", params)) {
    const Json slot = Json::array({row["study"], row["environment_id"], row["config_key"], row["repeat"]});
    const int own = row["attempt"].is_number_integer() ? row["attempt"].get<int>() : 1;
    const int attempt = std::max(own, last_attempt_kept(*this, slot) + 1);
    Json samples = Json::array();
    for (const auto& x : query("SELECT seconds FROM samples WHERE run_id = ? ORDER BY iter", Json::array({row["id"]})))
      samples.push_back(x["seconds"]);
    const std::string reason = row["status"] == "failed" ? "failed" : (why.empty() ? "redone" : why);
    exec("INSERT OR REPLACE INTO run_attempts (id, study, environment_id, config_key, repeat, label, attempt, status, "
         "images_per_s, started_at, finished_at, floor_gflops, superseded_by, why, superseded_at, row, samples) "
         "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
         Json::array({row["id"], row["study"], row["environment_id"], row["config_key"], row["repeat"], row["label"],
                      attempt, row["status"], row["images_per_s"], row["started_at"], row["finished_at"],
                      row["floor_gflops"], by, reason, now,
                      parsed_row(row).dump(-1, ' ', false, Json::error_handler_t::replace), samples.dump()}));
    highest = std::max(highest, attempt);
  }
  return highest;
}

void Store::prepare_run(RunRecord& run) {
  if (run.study.empty() || run.environment_id.empty() || run.label.empty())
    throw Error("a run needs its study, environment id and label");
  if (run.repeat < 1) throw Error(fmt::format("repeat must be >= 1, got {}", run.repeat));
  if (run.status != "ok" && run.status != "failed" && run.status != "running" && run.status != "crashed")
    throw Error(fmt::format("status must be ok, failed, running or crashed, got '{}'", run.status));
  if (!run.columns.is_object()) throw Error("columns must be an object");
  for (const auto& [name, v] : run.columns.items()) {
    bool known = false;
    for (const auto& c : run_columns()) known = known || name == c.name;
    if (!known) throw Error(fmt::format("'{}' is not a runs column", name));
  }
  if (run.id.empty()) run.id = new_run_id();
  const Json process = process_columns();
  for (const auto& [name, v] : process.items())
    if (!run.columns.contains(name) || run.columns[name].is_null()) run.columns[name] = v;
  if (!run.columns.contains("finished_at") || run.columns["finished_at"].is_null())
    run.columns["finished_at"] = utc_now();
}

void Store::insert_run(const RunRecord& given) {
  RunRecord run = given;
  // Replacing this run's own claim: keep when it was claimed, which attempt it is and how the
  // earlier attempts died.
  for (const auto& claim :
       query("SELECT claimed_at, attempt, deaths FROM runs WHERE id = ?", Json::array({run.id})))
    for (const char* k : {"claimed_at", "attempt", "deaths"})
      if (!run.columns.contains(k) || run.columns[k].is_null()) run.columns[k] = claim[k];
  std::string key = content_hash(run.config);
  place_run(run, key);
  // The slot's earlier finished row stays, as an attempt (issue 55), and the new run counts on from
  // the attempts kept: a rerun is attempt 2 of its slot, whatever its claim said.
  const Json slot = Json::array({run.study, run.environment_id, key, run.repeat});
  Json other = slot;
  other.push_back(run.id);
  keep_attempts("study = ? AND environment_id = ? AND config_key = ? AND repeat = ? AND id != ?", other, run.id,
                run.rerun_because);
  const int prior = schema_version() < 10 ? 0 : last_attempt_kept(*this, slot);
  const Json attempt = run.columns.value("attempt", Json());
  if (prior > 0 && !(attempt.is_number_integer() && attempt.get<long long>() > prior))
    run.columns["attempt"] = prior + 1;
  std::string cols = "id, study, environment_id, label, config_key, config, repeat, status, result";
  std::string marks = "?, ?, ?, ?, ?, ?, ?, ?, ?";
  Json p = Json::array({run.id, run.study, run.environment_id, run.label, key,
                        run.config.dump(-1, ' ', false, Json::error_handler_t::replace), run.repeat, run.status,
                        run.result.dump(-1, ' ', false, Json::error_handler_t::replace)});
  for (const auto& c : run_columns()) {
    cols += fmt::format(", \"{}\"", c.name);
    marks += ", ?";
    p.push_back(checked_column(c, run.columns.value(c.name, Json())));
  }
  exec("DELETE FROM runs WHERE study = ? AND environment_id = ? AND config_key = ? AND repeat = ?",
       Json::array({run.study, run.environment_id, key, run.repeat}));
  exec(fmt::format("INSERT INTO runs ({}) VALUES ({})", cols, marks), p);
  for (size_t i = 0; i < run.samples.size(); ++i)
    exec("INSERT INTO samples (run_id, iter, seconds) VALUES (?, ?, ?)",
         Json::array({run.id, static_cast<long long>(i + 1), run.samples[i]}));
  for (const auto& c : run.counters)
    exec("INSERT OR REPLACE INTO counters (run_id, name, value, unit, source) VALUES (?, ?, ?, ?, ?)",
         Json::array({run.id, c.name, c.value, c.unit, c.source}));
  if (run.complexity.is_object()) {
    const Json& c = run.complexity;
    Json info = c;
    info.erase("layers");
    exec("INSERT INTO complexity (run_id, params, forward_flops, train_flops, bytes, ai, memory_bytes, "
         "activation_bytes, info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
         Json::array({run.id, number_or_null(c.contains("params") ? c["params"] : c.value("parameters", Json())),
                      number_or_null(c.value("forward_flops", Json())), number_or_null(c.value("train_flops", Json())),
                      number_or_null(c.contains("bytes") ? c["bytes"] : c.value("train_bytes", Json())),
                      number_or_null(c.value("ai", Json())), number_or_null(c.value("memory_bytes", Json())),
                      number_or_null(c.value("activation_bytes", Json())),
                      info.dump(-1, ' ', false, Json::error_handler_t::replace)}));
  }
  for (const auto& pt : run.roofline) insert_point(run.id, pt, run.config.value("precision", Json("")));
}

long long Store::insert_point(const std::string& run_id, const Json& pt, const Json& default_precision) {
  if (!pt.is_object()) return 0;
  Json precision = pt.value("precision", default_precision);
  return exec("INSERT OR REPLACE INTO roofline_points (run_id, level, precision, flops, bytes, seconds, ai, gflops, "
              "attainable_gflops, bound, efficiency, source, counters_source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
              "?, ?)",
              Json::array({run_id, text_or_null(pt.value("level", Json("dram"))), text_or_null(precision),
                           number_or_null(pt.value("flops", Json())), number_or_null(pt.value("bytes", Json())),
                           number_or_null(pt.value("seconds", Json())), number_or_null(pt.value("ai", Json())),
                           number_or_null(pt.value("gflops", Json())),
                           number_or_null(pt.value("attainable_gflops", Json())), text_or_null(pt.value("bound", Json())),
                           number_or_null(pt.value("efficiency", Json())),
                           pt.value("source", Json()) == "measured" ? "measured" : "estimated",
                           text_or_null(pt.value("counters_source", Json()))}));
}

long long Store::put_points(const std::string& run_id, const Json& points) {
  if (!points.is_array()) throw Error("the points must be an array of roofline point rows");
  Transaction tx(*this, "put_points");
  long long n = 0;
  // One point per run and level: a point imported later (measured) replaces the sweep's (estimated).
  for (const auto& pt : points)
    if (pt.is_object())
      exec("DELETE FROM roofline_points WHERE run_id = ? AND level = ?",
           Json::array({run_id, text_or_null(pt.value("level", Json("dram")))}));
  for (const auto& pt : points) n += insert_point(run_id, pt, Json(""));
  tx.commit();
  return n;
}

long long Store::put_counters(const std::string& run_id, const std::vector<Counter>& counters) {
  Transaction tx(*this, "put_counters");
  long long n = 0;
  for (const auto& c : counters)
    n += exec("INSERT OR REPLACE INTO counters (run_id, name, value, unit, source) VALUES (?, ?, ?, ?, ?)",
              Json::array({run_id, c.name, c.value, c.unit, c.source}));
  tx.commit();
  return n;
}

long long Store::put_peaks(const std::string& environment_id, const std::string& device, const std::string& source,
                           const Json& peaks) {
  if (!peaks.is_object()) throw Error("the peaks must be a table of peak figures");
  Json spread = peaks.value("spread", Json());
  Json units = peaks.value("units", Json());
  std::string at = utc_now();
  Transaction tx(*this, "put_peaks");
  long long n = 0;
  for (const auto& [name, v] : peaks.items()) {
    if (name == "spread" || !v.is_number() || !std::isfinite(v.get<double>())) continue;
    Json s = spread.is_object() ? number_or_null(spread.value(name, Json())) : number_or_null(spread);
    Json unit = units.is_object() && units.contains(name) && units[name].is_string() ? units[name] : Json(peak_unit(name));
    n += exec("INSERT OR REPLACE INTO peaks (environment_id, device, name, value, unit, source, spread, measured_at) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
              Json::array({environment_id, device, name, v, unit, source, s, at}));
  }
  tx.commit();
  return n;
}

Json Store::peaks(const std::string& environment_id, const std::string& device) {
  Json rows = query("SELECT name, value, unit, source, spread, measured_at FROM peaks p WHERE environment_id = ? "
                    "AND device = ? AND measured_at = (SELECT max(measured_at) FROM peaks q WHERE q.environment_id "
                    "= p.environment_id AND q.device = p.device AND q.name = p.name) ORDER BY name",
                    Json::array({environment_id, device}));
  if (rows.empty()) return nullptr;
  Json out = {{"spread", Json::object()}, {"units", Json::object()}, {"device", device}};
  for (const auto& r : rows) {
    std::string name = r["name"];
    out[name] = r["value"];
    out["spread"][name] = r["spread"];
    out["units"][name] = r["unit"];
    out["source"] = r["source"];
    out["measured_at"] = r["measured_at"];
  }
  return out;
}

Json Store::runs(const RunFilter& f) {
  std::string where;
  Json p = Json::array();
  auto add = [&](const char* cond, const Json& v) {
    where += where.empty() ? " WHERE " : " AND ";
    where += cond;
    p.push_back(v);
  };
  if (f.study) add("r.study = ?", *f.study);
  if (f.model) add("r.model = ?", *f.model);
  if (f.precision) add("r.precision = ?", *f.precision);
  if (f.batch) add("r.batch = ?", *f.batch);
  if (f.device) add("r.device = ?", *f.device);
  if (f.status) add("r.status = ?", *f.status);
  if (f.env) add("e.label = ?", *f.env);
  if (f.label) add("r.label = ?", *f.label);
  if (f.repeat) add("r.repeat = ?", *f.repeat);
  Json rows = query(
      "SELECT r.*, e.label AS env, e.host AS env_host, e.cpu_model AS cpu_model, e.gpu_name AS gpu_name, "
      "e.torch AS torch, e.cuda AS cuda, c.params AS params, c.forward_flops AS forward_flops, "
      "c.train_flops AS train_flops, c.bytes AS complexity_bytes, c.ai AS complexity_ai "
      "FROM runs r JOIN environments e ON e.id = r.environment_id LEFT JOIN complexity c ON c.run_id = r.id" +
          where + " ORDER BY r.study, e.label, r.model, r.precision, r.batch, r.repeat, r.finished_at",
      p);
  for (auto& r : rows) {
    r["run"] = r["repeat"];
    // The machine's host name, as before the runs table had a host column of its own (the claim's).
    if (r["host"].is_null()) r["host"] = r["env_host"];
    Json iter = Json::object();
    for (const char* k : kIterFields) iter[k] = r[fmt::format("iter_{}_s", k)];
    r["iter_s"] = iter;
    for (const char* k : {"config", "result"}) {
      if (r[k].is_string()) {
        Json j = Json::parse(r[k].get<std::string>(), nullptr, false);
        r[k] = j.is_discarded() ? Json() : j;
      }
    }
    complete_from_notes(r["result"]);  // a run stored before its start-up was fields
    if (f.samples) {
      Json s = Json::array();
      for (const auto& row : query("SELECT seconds FROM samples WHERE run_id = ? ORDER BY iter", Json::array({r["id"]})))
        s.push_back(row["seconds"]);
      r["samples"] = s;
    }
  }
  return rows;
}

Json Store::points(const PointFilter& f) {
  std::string where;
  Json p = Json::array();
  auto add = [&](const char* cond, const std::optional<std::string>& v) {
    if (!v) return;
    where += where.empty() ? " WHERE " : " AND ";
    where += cond;
    p.push_back(*v);
  };
  add("r.study = ?", f.study);
  add("p.level = ?", f.level);
  add("e.label = ?", f.env);
  add("r.model = ?", f.model);
  add("p.source = ?", f.source);
  return query("SELECT p.*, r.label, r.model, r.batch, r.device, r.repeat AS run, r.study, e.label AS env "
               "FROM roofline_points p "
               "JOIN runs r ON r.id = p.run_id JOIN environments e ON e.id = r.environment_id" +
                   where + " ORDER BY e.label, r.model, r.batch, r.repeat, p.level",
               p);
}

Json Store::slot(const std::string& study, const std::string& environment_id, const std::string& config_key,
                 int repeat) {
  Json rows = query(
      "SELECT id, status, label, pid, host, claimed_at, attempt, deaths, error FROM runs WHERE study = ? AND "
      "environment_id = ? AND config_key = ? AND repeat = ?",
      Json::array({study, environment_id, config_key, repeat}));
  return rows.empty() ? Json() : rows[0];
}

std::optional<long long> Store::last_sweep_seed(const std::string& study, const std::string& environment_id) {
  Json rows = query("SELECT sweep_seed FROM runs WHERE study = ? AND environment_id = ? AND sweep_order = 'random' "
                    "AND sweep_seed IS NOT NULL ORDER BY coalesce(claimed_at, started_at) DESC LIMIT 1",
                    Json::array({study, environment_id}));
  if (rows.empty()) return std::nullopt;
  return rows[0]["sweep_seed"].get<long long>();
}

std::optional<std::string> Store::run_id_by_label(const std::string& study, const std::string& label) {
  Json rows = query("SELECT id FROM runs WHERE study = ? AND label = ? ORDER BY finished_at DESC LIMIT 1",
                    Json::array({study, label}));
  if (rows.empty()) return std::nullopt;
  return rows[0]["id"].get<std::string>();
}

}  // namespace rlx::store
