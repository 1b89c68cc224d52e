// report_reads.cpp: the reads a study report needs beyond runs/points/peaks (store.h): the
// environments of a study, its runs' counters and complexity rows, each in one query.
#include "store/store.h"

namespace rlx::store {

namespace {

// " WHERE r.study = ?" with its parameter, or nothing for every study.
std::string scope(const std::string& study, Json& params) {
  if (study.empty()) return "";
  params.push_back(study);
  return " WHERE r.study = ?";
}

void decode_info(Json& rows) {
  for (auto& r : rows) {
    if (r["info"].is_string()) {
      Json j = Json::parse(r["info"].get<std::string>(), nullptr, false);
      r["info"] = j.is_discarded() ? Json::object() : j;
    }
  }
}

}  // namespace

Json Store::study_environments(const std::string& study) {
  Json p = Json::array();
  const std::string where = scope(study, p);
  Json rows = query("SELECT * FROM environments WHERE id IN (SELECT DISTINCT r.environment_id FROM runs r" +
                        where + ") ORDER BY label, first_seen",
                    p);
  decode_info(rows);
  return rows;
}

Json Store::study_counters(const std::string& study) {
  Json p = Json::array();
  return query(
      "SELECT c.run_id, c.name, c.value, c.unit, c.source FROM counters c JOIN runs r ON r.id = c.run_id" +
          scope(study, p) + " ORDER BY c.run_id, c.source, c.name",
      p);
}

Json Store::study_complexity(const std::string& study) {
  Json p = Json::array();
  Json rows = query("SELECT c.* FROM complexity c JOIN runs r ON r.id = c.run_id" + scope(study, p), p);
  decode_info(rows);
  return rows;
}

}  // namespace rlx::store
