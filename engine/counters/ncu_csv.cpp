// ncu_csv.cpp: cell-level checks of the Nsight Compute import (see ncu_csv.h).
#include "counters/ncu_csv.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "counters/metrics.h"

namespace rlx::counters::ncu {

bool split_csv(const std::string& line, std::vector<std::string>& out) {
  out.clear();
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') {
        cur += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(std::move(cur));
  return !quoted;
}

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// The integer part "1,234,567" or "1234567" starting at i; appends its digits to `plain`.
bool integer_part(const std::string& s, size_t& i, std::string& plain) {
  const size_t start = i;
  while (i < s.size() && digit(s[i])) plain += s[i++];
  const size_t first_group = i - start;
  if (first_group == 0) return false;
  if (i >= s.size() || s[i] != ',') return true;
  if (first_group > 3) return false;  // "1234,567": not a thousands grouping
  while (i < s.size() && s[i] == ',') {
    ++i;
    size_t n = 0;
    while (i < s.size() && digit(s[i]) && n < 4) {
      plain += s[i++];
      ++n;
    }
    if (n != 3) return false;
  }
  return i >= s.size() || !digit(s[i]);
}

}  // namespace

bool parse_number(const std::string& text, double& out) {
  size_t i = 0;
  std::string plain;
  if (i < text.size() && text[i] == '-') plain += text[i++];
  if (!integer_part(text, i, plain)) return false;
  if (i < text.size() && text[i] == '.') {
    plain += text[i++];
    const size_t n = plain.size();
    while (i < text.size() && digit(text[i])) plain += text[i++];
    if (plain.size() == n) return false;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    plain += text[i++];
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) plain += text[i++];
    const size_t n = plain.size();
    while (i < text.size() && digit(text[i])) plain += text[i++];
    if (plain.size() == n) return false;
  }
  if (i != text.size()) return false;
  char* end = nullptr;
  errno = 0;
  out = std::strtod(plain.c_str(), &end);
  return end && *end == '\0' && errno == 0 && std::isfinite(out);
}

namespace {

UnitKind kind_of_base(const std::string& base) {
  if (base == "byte") return UnitKind::bytes;
  if (base == "second") return UnitKind::time;
  if (base == "hz") return UnitKind::rate;
  static const char* const counts[] = {"cycle", "inst", "warp", "thread", "sector", "request", "flop", "op", "block"};
  for (const char* c : counts)
    if (base == c) return UnitKind::count;
  return UnitKind::unknown;
}

}  // namespace

UnitKind unit_kind(const std::string& unit) {
  if (unit.empty()) return UnitKind::count;  // ncu leaves plain counts without a unit
  if (unit == "%") return UnitKind::percent;
  const auto slash = unit.find('/');
  if (slash == std::string::npos) return kind_of_base(parse_unit(unit).base);
  const UnitKind num = kind_of_base(parse_unit(unit.substr(0, slash)).base);
  const UnitKind den = kind_of_base(parse_unit(unit.substr(slash + 1)).base);
  return num == UnitKind::unknown || den == UnitKind::unknown ? UnitKind::unknown : UnitKind::rate;
}

UnitKind expected_kind(const std::string& metric) {
  if (metric.find("bytes") != std::string::npos) return UnitKind::bytes;
  if (metric.find("time_duration") != std::string::npos) return UnitKind::time;
  return UnitKind::count;
}

const char* kind_name(UnitKind kind) {
  switch (kind) {
    case UnitKind::bytes: return "bytes";
    case UnitKind::time: return "a time";
    case UnitKind::count: return "a count";
    case UnitKind::rate: return "a rate";
    case UnitKind::percent: return "a percentage";
    case UnitKind::unknown: break;
  }
  return "unknown";
}

const char* kind_examples(UnitKind kind) {
  switch (kind) {
    case UnitKind::bytes: return "byte, Kbyte, Mbyte, Gbyte, Tbyte";
    case UnitKind::time: return "nsecond, usecond, msecond, second, or ns, us, ms, s";
    case UnitKind::count: return "inst, cycle, sector, warp, or none";
    case UnitKind::rate: return "byte/second, Gbyte/second, inst/cycle";
    case UnitKind::percent: return "%";
    case UnitKind::unknown: break;
  }
  return "";
}

}  // namespace rlx::counters::ncu
