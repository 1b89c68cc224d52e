// option_reader.cpp: rlx.train's options read and checked against their declarations
// (train/options.h, declared in options.cpp): the values, their bounds and the rules between
// options, in one place, with the words every native's options use (lua::Options:
// "option 'batch' must be an integer >= 1, got 0"). No LibTorch.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "train/option_builder.h"

namespace rlx::train {
namespace {

const nlohmann::json kNothing;

bool is_given(const GivenOptions& g, const std::string& name) {
  return g.values.contains(name) || g.opaque.count(name) > 0;
}

// A value as a message shows it, as Lua would print it: numbers in full ("0", "1e+20").
std::string describe(const nlohmann::json& v) {
  if (v.is_string()) return fmt::format("\"{}\"", v.get<std::string>());
  if (v.is_number()) return fmt::format("{}", v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_null()) return "a nil";
  return "a table";
}

// Names for messages, sorted so the list reads the same whatever order the vocabulary has.
std::string join_sorted(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

// 2^63 is the first double an int64_t cannot hold.
constexpr double kInt64End = 9.2233720368547758e18;

}  // namespace

// ---- one option's value ------------------------------------------------------------------------

const nlohmann::json& OptionReading::value() const {
  auto it = given_.values.find(decl_.name);
  return it == given_.values.end() ? kNothing : *it;
}

std::string OptionReading::got() const {
  auto it = given_.opaque.find(decl_.name);
  return it != given_.opaque.end() ? "a " + it->second : describe(value());
}

std::string OptionReading::type_name() const {
  auto it = given_.opaque.find(decl_.name);
  if (it != given_.opaque.end()) return it->second;
  const nlohmann::json& v = value();
  if (v.is_string()) return "string";
  if (v.is_number()) return "number";
  if (v.is_boolean()) return "boolean";
  return v.is_null() ? "nil" : "table";
}

void OptionReading::fail(const std::string& what) const {
  throw std::invalid_argument(fmt::format("{}option '{}' {}", prefix_, decl_.name, what));
}

namespace {

// A value above the declaration's max: "at most 1024", or its own words.
void check_max(const OptionReading& r, double v, const std::string& shown) {
  const OptionDecl& d = r.decl();
  if (!d.max || v < *d.max || (v == *d.max && !d.max_open)) return;
  r.fail(fmt::format("must be {}, got {}", d.max_why.empty() ? fmt::format("at most {}", *d.max) : d.max_why,
                     shown));
}

void check_own(const OptionReading& r, const nlohmann::json& v) {
  if (!r.decl().check) return;
  const std::string why = r.decl().check(v);
  if (!why.empty()) r.fail(why);
}

}  // namespace

int64_t OptionReading::integer() const {
  const std::string need =
      decl_.min ? fmt::format("an integer >= {}", static_cast<long long>(*decl_.min)) : "an integer";
  if (!value().is_number()) fail(fmt::format("must be {}, got {}", need, got()));
  const double v = value().get<double>();
  if (!std::isfinite(v) || std::floor(v) != v || (decl_.min && v < *decl_.min) || v >= kInt64End)
    fail(fmt::format("must be {}, got {}", need, v));
  check_max(*this, v, fmt::format("{}", v));
  const auto n = static_cast<int64_t>(v);
  check_own(*this, n);
  return n;
}

double OptionReading::number() const {
  if (!value().is_number()) fail("must be a number, got " + got());
  const double v = value().get<double>();
  if (decl_.min && (!std::isfinite(v) || v < *decl_.min || (decl_.min_open && v == *decl_.min)))
    fail(fmt::format("must be a number {} {}, got {}", decl_.min_open ? ">" : ">=", *decl_.min, v));
  if (!std::isfinite(v)) fail(fmt::format("must be a finite number, got {}", v));
  check_max(*this, v, fmt::format("{}", v));
  check_own(*this, v);
  return v;
}

bool OptionReading::boolean() const {
  if (!value().is_boolean()) fail("must be true or false, got " + got());
  return value().get<bool>();
}

std::string OptionReading::string() const {
  if (!value().is_string()) fail("must be a string, got " + got());
  std::string v = value().get<std::string>();
  // A C string ends at a NUL: a path or a label "a\0b" would silently become "a".
  if (const size_t at = v.find('\0'); at != std::string::npos)
    fail(fmt::format("contains a NUL byte (\\0) at byte {}, which would cut it there: remove it", at + 1));
  if (decl_.choices) {
    const std::vector<std::string> names = decl_.choices();
    if (std::find(names.begin(), names.end(), v) == names.end())
      fail(fmt::format("must be one of {}, got \"{}\"", join_sorted(names), v));
  }
  check_own(*this, v);
  return v;
}

std::vector<std::string> OptionReading::strings() const {
  const nlohmann::json& v = value();
  if (v.is_string()) return {string()};
  std::vector<std::string> out;
  if (!v.is_array()) return out;  // a table without a sequence (Lua's {}): no names
  for (size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_string()) fail(fmt::format("element {} must be a string, got {}", i + 1, describe(v[i])));
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

// ---- an option's table of options (min_stable) -----------------------------------------------

NestedOptions::NestedOptions(const OptionReading& outer, std::vector<OptionDecl> decls)
    : decls_(std::move(decls)), prefix_(fmt::format("{}option '{}': ", outer.prefix(), outer.decl().name)) {
  std::vector<std::string> valid;
  for (const auto& d : decls_) valid.push_back(d.name);
  const nlohmann::json& table = outer.value();
  if (table.is_array() && !table.empty())  // a Lua sequence: its first key is 1
    throw std::invalid_argument(
        fmt::format("{}option keys must be names, got 1 (valid options: {})", prefix_, join_sorted(valid)));
  for (const auto& [key, value] : table.items()) {
    if (std::find(valid.begin(), valid.end(), key) == valid.end())
      throw std::invalid_argument(
          fmt::format("{}unknown option '{}' (valid options: {})", prefix_, key, join_sorted(valid)));
    given_.values[key] = value;
  }
}

const OptionDecl& NestedOptions::decl(const std::string& name) const {
  for (const auto& d : decls_)
    if (d.name == name) return d;
  throw std::logic_error("NestedOptions: '" + name + "' is not declared");
}

double NestedOptions::number(const std::string& name, double fallback) const {
  if (!given_.values.contains(name)) return fallback;
  return OptionReading(given_, decl(name), prefix_).number();
}

int64_t NestedOptions::integer(const std::string& name, int64_t fallback) const {
  if (!given_.values.contains(name)) return fallback;
  return OptionReading(given_, decl(name), prefix_).integer();
}

// ---- the declarations ----------------------------------------------------------------------

const OptionDecl* find_option(const std::string& name) {
  for (const auto& d : option_decls())
    if (d.name == name) return &d;
  return nullptr;
}

std::vector<std::string> option_names() {
  std::vector<std::string> out;
  for (const auto& d : option_decls()) out.push_back(d.name);
  return out;
}

namespace {

[[noreturn]] void refuse(const OptionDecl& d, const std::string& why) {
  throw std::invalid_argument(fmt::format("option '{}' {}", d.name, why));
}

// The rules of an option that was set: exclusions that hold, needs that do not.
void check_rules(const OptionDecl& d, const TrainRequest& q) {
  for (const auto& rule : d.needs)
    if (!rule.holds(q)) refuse(d, rule.why);
  for (const auto& rule : d.excludes)
    if (rule.holds(q)) refuse(d, rule.why);
}

// An option that may not be below another (max_iters >= min_iters), where its needs hold.
void check_at_least(const OptionDecl& d, const TrainRequest& q) {
  if (d.at_least.empty()) return;
  for (const auto& rule : d.needs)
    if (!rule.holds(q)) return;
  const nlohmann::json v = d.get(q.config), floor = find_option(d.at_least)->get(q.config);
  if (v.get<double>() < floor.get<double>())
    refuse(d, fmt::format("must be >= {} ({}), got {}", d.at_least, floor.dump(), v.dump()));
}

// A config value checked as if it was given: its type's bounds, choices and own check.
void check_value(const OptionDecl& d, const nlohmann::json& v) {
  GivenOptions one;
  one.values[d.name] = v;
  const OptionReading r(one, d);
  if (d.type == "integer" || (d.type == "warmup" && v.is_number())) (void)r.integer();
  if (d.type == "number") (void)r.number();
  if (d.type == "string") (void)r.string();
}

}  // namespace

void check_declared(const TrainConfig& config) {
  const TrainConfig defaults;
  const TrainRequest q{config, false, {}};
  for (const auto& d : option_decls()) {
    if (!d.get) continue;
    const nlohmann::json v = d.get(config);
    if (!d.unset.is_null() && v == d.unset) continue;  // the run decides it
    check_value(d, v);
    if (v != d.get(defaults)) check_rules(d, q);  // set: not TrainConfig's own value
    check_at_least(d, q);
  }
}

TrainRequest read_options(const GivenOptions& given, bool partial) {
  TrainRequest q;
  const auto& decls = option_decls();
  for (const auto& d : decls)
    if (is_given(given, d.name)) d.read(OptionReading(given, d), q);
  // What is absent after every given value is read (a bad batch is named before a missing model).
  for (const auto& d : decls) {
    if (is_given(given, d.name)) continue;
    if (!d.required.empty() && !partial) refuse(d, "is required: " + d.required);
    if (d.absent) d.absent(q);
  }
  for (const auto& d : decls) {
    if (is_given(given, d.name)) check_rules(d, q);
    check_at_least(d, q);
  }
  validate(q.config);
  return q;
}

void echo_options(const TrainConfig& config, nlohmann::json& result) {
  const TrainRequest q{config, false, {}};
  auto applies = [&](const OptionDecl& d) {
    for (const auto& rule : d.needs)
      if (!rule.holds(q)) return false;
    for (const auto& rule : d.excludes)
      if (rule.holds(q)) return false;
    return true;
  };
  for (const auto& d : option_decls()) {
    if (!d.get || !d.echoed || result.contains(d.name)) continue;
    const nlohmann::json v = d.get(config);
    if ((d.unset.is_null() || v != d.unset) && applies(d)) result[d.name] = v;
  }
}

nlohmann::json options_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& d : option_decls()) {
    nlohmann::json j = {{"name", d.name}, {"type", d.type}, {"default", d.default_value}, {"sweep", d.sweep}};
    auto text = [&](const char* key, const std::string& v) {
      if (!v.empty()) j[key] = v;
    };
    text("unit", d.unit);
    text("default_text", d.default_text);
    text("at_least", d.at_least);
    text("required", d.required);
    text("max_why", d.max_why);
    text("store_column", d.store_column);
    text("flag", d.flag);
    text("alias", d.alias);
    text("metavar", d.metavar);
    text("flag_type", d.flag_type.empty() ? d.type : d.flag_type);
    text("help", d.help);
    text("doc", d.doc);
    text("label_tag", d.label_tag);
    text("knob_over", d.knob_over);
    if (d.min) j["min"] = *d.min;
    if (d.min_open) j["min_open"] = true;
    if (d.max) j["max"] = *d.max;
    if (d.max_open) j["max_open"] = true;
    if (d.typed_max) j["typed_max"] = *d.typed_max;
    if (d.names_runs) j["names_runs"] = true;
    if (!d.echoed) j["echoed"] = false;
    if (d.choices) j["one_of"] = d.choices();
    if (!d.unset.is_null()) j["unset"] = d.unset;
    for (const auto* rules : {&d.excludes, &d.needs}) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& r : *rules) list.push_back({{"option", r.option}, {"why", r.why}});
      if (!list.empty()) j[rules == &d.excludes ? "excludes" : "needs"] = list;
    }
    out.push_back(j);
  }
  return out;
}

}  // namespace rlx::train
