// legacy_notes.cpp: the frozen notes of engine/util/openmp_wait.cpp and huge_pages.cpp as rlx
// wrote them until issue 47 (legacy_notes.h). A text none of these matches keeps choice "unknown"
// and is kept as it was (`text`).
#include "store/legacy_notes.h"

#include <regex>
#include <string>

namespace rlx::store {
namespace {

using nlohmann::json;

double number(const std::string& s) {
  return std::stod(s);
}

json openmp_from_note(const std::string& note) {
  static const std::regex environment(R"(^openmp: waiting left as the environment sets it \((.*)\)$)");
  static const std::regex idle(
      R"(^openmp: libgomp's default waiting \(spin, then sleep\): ([0-9.]+) other cores busy at start$)");
  static const std::regex shared(
      R"(^openmp: GOMP_SPINCOUNT=([0-9]+), a short spin before sleeping \((.*)\): ([0-9.]+) other cores busy at start)");
  static const std::regex measured(R"(^[0-9.]+ ms at ([0-9.]+) ns a spin, measured$)");
  static const std::regex failed(
      R"(^openmp: libgomp's default waiting: ([0-9.-]+) other cores busy at start, but (.*)$)");
  json w = {{"choice", "unknown"}};
  std::smatch m;
  if (std::regex_match(note, m, environment)) {
    w["choice"] = "environment";
    json env = json::object();
    const std::string settings = m[1];
    for (std::size_t start = 0; start < settings.size();) {
      const std::size_t comma = settings.find(", ", start);
      const std::string item =
          settings.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (const std::size_t eq = item.find('='); eq != std::string::npos)
        env[item.substr(0, eq)] = item.substr(eq + 1);
      start = comma == std::string::npos ? settings.size() : comma + 2;
    }
    w["environment"] = env;
  } else if (std::regex_match(note, m, idle)) {
    w = {{"choice", "libgomp_default"}, {"other_cores", number(m[1])}};
  } else if (std::regex_search(note, m, shared)) {
    w = {{"choice", "short_spin"}, {"spin_count", std::stol(m[1])}, {"other_cores", number(m[3])}};
    const std::string spin = m[2];
    if (std::smatch s; std::regex_match(spin, s, measured)) w["spin_ns"] = number(s[1]);
  } else if (note == "openmp: libgomp's default waiting (the machine's load could not be read)") {
    w["choice"] = "load_unknown";
  } else if (std::regex_match(note, m, failed)) {
    w = {{"choice", "failed"}, {"other_cores", number(m[1])}, {"error", std::string(m[2])}};
  } else if (note == "openmp: libgomp's default waiting (not chosen in this program)") {
    w["choice"] = "not_chosen";
  } else {
    w["text"] = note;
  }
  return w;
}

json huge_pages_from_note(const std::string& note) {
  if (note.rfind("thp: the training heap in transparent huge pages (", 0) == 0) return {{"choice", "asked"}};
  if (note == "thp: not asked (kernel mode madvise; RLX_HUGE_PAGES=1 asks)") return {{"choice", "not_asked"}};
  if (note == "thp: the heap in transparent huge pages (kernel mode always: given unasked)")
    return {{"choice", "always"}};
  if (note == "thp: none (kernel mode never)") return {{"choice", "never"}};
  const std::string env = "thp: left as the environment sets the allocator (";
  if (note.rfind(env, 0) == 0 && note.back() == ')')
    return {{"choice", "environment"},
            {"environment", note.substr(env.size(), note.size() - env.size() - 1)}};
  if (note.rfind("thp: not asked (restarting with GLIBC_TUNABLES failed", 0) == 0)
    return {{"choice", "failed"}};
  if (note.rfind("thp: not asked (/sys/", 0) == 0) return {{"choice", "mode_unknown"}};
  return {{"choice", "unknown"}, {"text", note}};
}

}  // namespace

void complete_from_notes(json& result) {
  if (!result.is_object() || result.contains("startup")) return;
  const auto omp = result.find("openmp_wait");
  const auto thp = result.find("huge_pages");
  const bool has_omp = omp != result.end() && omp->is_string();
  const bool has_thp = thp != result.end() && thp->is_string();
  if (!has_omp && !has_thp) return;
  json s = {{"from_notes", true}};
  try {
    if (has_omp) s["openmp_wait"] = openmp_from_note(omp->get<std::string>());
    if (has_thp) s["huge_pages"] = huge_pages_from_note(thp->get<std::string>());
  } catch (const std::exception&) {  // a number out of range in a hand-edited note
    return;
  }
  result["startup"] = s;
}

}  // namespace rlx::store
