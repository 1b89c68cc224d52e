// merge_slots.cpp: what merge_from does with an input run whose slot the output already holds.
//
// A slot (study, environment, configuration hash, repeat) holds one run (a UNIQUE index). Two
// machines with the same environment, or one database merged with an older copy of itself plus
// new runs, can hold different runs in the same slot. They used to vanish silently ("+0 runs");
// now each is reported, and:
//   - an input run that is ok replaces a failed, running or crashed attempt (as a rerun would; a
//     failed one is kept in run_attempts);
//   - with MergeOptions::as_repeats, an ok input run whose slot holds another ok run is stored as
//     the configuration's next free repeat (its label's _runN renumbered), so both measurements
//     count; it keeps its id, so merging the same file again adds nothing;
//   - anything else is skipped, with the reason.
#include <fmt/format.h>

#include <cctype>

#include "store/store.h"

namespace rlx::store {

namespace {

// The label with its trailing _run<N> replaced by _run<n> (appended when it has none).
std::string relabel(const std::string& label, int n) {
  auto pos = label.rfind("_run");
  bool digits = pos != std::string::npos && pos + 4 < label.size();
  for (size_t i = pos + 4; digits && i < label.size(); ++i)
    digits = std::isdigit(static_cast<unsigned char>(label[i])) != 0;
  return (digits ? label.substr(0, pos) : label) + fmt::format("_run{}", n);
}

}  // namespace

void Store::resolve_slot_conflicts(const MergeOptions& options, MergeStats& stats) {
  Json rows = query(
      "SELECT s.id, s.label, s.study, s.status, s.environment_id, s.config_key, m.id AS held_id, "
      "m.label AS held_label, m.status AS held_status FROM src.runs s JOIN main.runs m ON "
      "m.study = s.study AND m.environment_id = s.environment_id AND m.config_key = s.config_key AND "
      "m.\"repeat\" = s.\"repeat\" WHERE m.id <> s.id AND s.id NOT IN (SELECT id FROM main.runs) AND "
      "s.status <> 'running' AND s.id NOT IN (SELECT id FROM main.run_attempts) ORDER BY s.study, s.label");
  std::vector<std::string> cols;
  for (const auto& c : query("SELECT name FROM main.pragma_table_info('runs')")) cols.push_back(c["name"]);
  for (const auto& r : rows) {
    MergeConflict c;
    c.id = r["id"];
    c.label = r["label"];
    c.study = r["study"];
    c.status = r["status"];
    c.held_id = r["held_id"];
    c.held_label = r["held_label"];
    c.held_status = r["held_status"];
    if (c.status == "ok" && c.held_status != "ok") {
      // A failed attempt stays, as a rerun's would (issue 55); children cascade.
      keep_attempts("id = ?", Json::array({c.held_id}), c.id, "");
      exec("DELETE FROM main.runs WHERE id = ?", Json::array({c.held_id}));
      c.action = "replaced";
    } else if (c.status == "ok" && options.as_repeats) {
      Json key = Json::array({c.study, r["environment_id"], r["config_key"]});
      Json both = key;
      for (const auto& v : key) both.push_back(v);
      c.new_repeat = static_cast<int>(
          query("SELECT max(n) AS n FROM (SELECT max(\"repeat\") AS n FROM main.runs WHERE study = ? AND "
                "environment_id = ? AND config_key = ? UNION ALL SELECT max(\"repeat\") FROM src.runs WHERE study = ? "
                "AND environment_id = ? AND config_key = ?)",
                both)[0]["n"]
              .get<long long>() +
          1);
      c.new_label = relabel(c.label, c.new_repeat);
      std::string names, values;
      Json p = Json::array();
      for (const auto& name : cols) {
        names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", name);
        if (name == "repeat" || name == "label") {
          values += values.empty() ? "?" : ", ?";
          p.push_back(name == "repeat" ? Json(c.new_repeat) : Json(c.new_label));
        } else {
          values += fmt::format("{}\"{}\"", values.empty() ? "" : ", ", name);
        }
      }
      p.push_back(c.id);
      exec(fmt::format("INSERT INTO main.runs ({}) SELECT {} FROM src.runs WHERE id = ?", names, values), p);
      stats.runs += 1;
      c.action = "kept";
    } else {
      c.action = "skipped";
    }
    stats.conflicts.push_back(std::move(c));
  }
}

}  // namespace rlx::store
