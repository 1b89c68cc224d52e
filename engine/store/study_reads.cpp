// study_reads.cpp: the small reads and the one delete that the Lua modules (slurm shards, the
// study's environment matching, export, merge, report) used to write as SQL themselves: slot
// statuses, run counts, other environments, a run's details, study names. Each is one bound
// statement, so storage stays in engine/store (docs/architecture.md).
#include "store/store.h"
#include "store/transaction.h"

namespace rlx::store {

Json Store::slot_statuses(bool only_not_ok) {
  return query(
      std::string("SELECT r.id, r.study, e.label AS env, r.config_key, r.\"repeat\" AS run, r.status "
                  "FROM runs r JOIN environments e ON e.id = r.environment_id") +
      (only_not_ok ? " WHERE r.status <> 'ok'" : ""));
}

long long Store::delete_runs(const std::vector<std::string>& ids) {
  Transaction tx(*this, "delete_runs");
  long long n = 0;
  for (const auto& id : ids) n += exec("DELETE FROM runs WHERE id = ?", Json::array({id}));
  tx.commit();
  return n;
}

RunCounts Store::count_runs(const std::string& study) {
  Json p = Json::array();
  std::string sql = "SELECT count(*) AS n, coalesce(sum(status = 'ok'), 0) AS ok FROM runs";
  if (!study.empty()) {
    sql += " WHERE study = ?";
    p.push_back(study);
  }
  Json row = query(sql, p).at(0);
  return {row["n"].get<long long>(), row["ok"].get<long long>()};
}

Json Store::environments_except(const std::string& label) {
  return query("SELECT id, label FROM environments WHERE label <> ?", Json::array({label}));
}

Json Store::run_details(const std::string& run_id) {
  const Json p = Json::array({run_id});
  Json out = Json::object();
  out["counters"] =
      query("SELECT name, value, unit, source FROM counters WHERE run_id = ? ORDER BY source, name", p);
  out["roofline_points"] = query("SELECT * FROM roofline_points WHERE run_id = ? ORDER BY level", p);
  Json c = query("SELECT info FROM complexity WHERE run_id = ?", p);
  out["complexity"] = nullptr;
  if (!c.empty() && c[0]["info"].is_string()) {
    Json j = Json::parse(c[0]["info"].get<std::string>(), nullptr, false);
    if (!j.is_discarded()) out["complexity"] = j;
  }
  return out;
}

std::vector<std::string> Store::study_names() {
  std::vector<std::string> names;
  for (const auto& r : query("SELECT name FROM studies ORDER BY name"))
    names.push_back(r["name"].get<std::string>());
  return names;
}

}  // namespace rlx::store
