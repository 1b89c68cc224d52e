// spec_json.cpp: reads a user model description (a Lua table arriving as json) into a ModelSpec.
// A layer is {"conv", out=16, k=3, ...}: the kind first, then named fields; in json that is
// {"1": "conv", "out": 16, ...} (what a mixed Lua table converts to), ["relu"] or
// {"kind": "conv", ...}. Every error names the layer by its path ("layers[3].body[2]") and the
// field, and lists the valid fields or kinds, so a mistake in a long table is found at once.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

#include "models/model_spec.h"
#include "util/printable.h"

namespace rlx::models {
namespace {

using json = nlohmann::json;

const std::map<std::string, LayerKind>& kinds() {
  static const std::map<std::string, LayerKind> k = {
      {"conv", LayerKind::conv},         {"bn", LayerKind::batchnorm},
      {"batchnorm", LayerKind::batchnorm}, {"relu", LayerKind::relu},
      {"relu6", LayerKind::relu6},       {"maxpool", LayerKind::maxpool},
      {"avgpool", LayerKind::avgpool},   {"adaptive_avgpool", LayerKind::adaptive_avgpool},
      {"linear", LayerKind::linear},     {"dropout", LayerKind::dropout},
      {"flatten", LayerKind::flatten},   {"sequential", LayerKind::sequential},
      {"residual", LayerKind::residual}};
  return k;
}

// Fields each kind accepts besides the kind itself, "name" and "trainable".
std::vector<std::string> fields_of(LayerKind k) {
  switch (k) {
    case LayerKind::conv: return {"out", "k", "stride", "pad", "groups", "bias"};
    case LayerKind::batchnorm: return {"eps", "momentum"};
    case LayerKind::maxpool:
    case LayerKind::avgpool: return {"k", "stride", "pad"};
    case LayerKind::adaptive_avgpool: return {"out"};
    case LayerKind::linear: return {"out", "bias"};
    case LayerKind::dropout: return {"p"};
    case LayerKind::sequential: return {"layers"};
    case LayerKind::residual: return {"body", "projection", "after"};
    default: return {};
  }
}

struct Reader {
  const json& j;
  std::string where;
  std::string kind;

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw std::invalid_argument(
        fmt::format("model layer {} ({}): field '{}' {}", where, kind, field, what));
  }
  static std::string show(const json& v) {
    return v.is_string() ? "'" + v.get<std::string>() + "'" : v.dump();
  }
  int64_t integer(const char* key, int64_t def, int64_t min_value) const {
    if (!j.contains(key)) return def;
    const json& v = j[key];
    if (!v.is_number_integer() || v.get<int64_t>() < min_value)
      fail(key, fmt::format("must be an integer >= {}, got {}", min_value, show(v)));
    return v.get<int64_t>();
  }
  double number(const char* key, double def) const {
    if (!j.contains(key)) return def;
    if (!j[key].is_number()) fail(key, "must be a number, got " + show(j[key]));
    return j[key].get<double>();
  }
  bool boolean(const char* key, bool def) const {
    if (!j.contains(key)) return def;
    if (!j[key].is_boolean()) fail(key, "must be true or false, got " + show(j[key]));
    return j[key].get<bool>();
  }
};

std::vector<Layer> read_list(const json& list, const std::string& where, bool residual_body);

Layer read_layer(const json& j, const std::string& where, int64_t index) {
  std::string kind;
  if (j.is_array() && j.size() > 1 && j[0].is_string())
    throw std::invalid_argument(fmt::format(
        "model layer {} ({}): only the kind is positional; name the other fields, e.g. "
        "{{\"conv\", out=16, k=3}}", where, j[0].get<std::string>()));
  if (j.is_array() && j.size() == 1 && j[0].is_string()) {
    kind = j[0].get<std::string>();
  } else if (j.is_object() && j.contains("1") && j["1"].is_string()) {
    kind = j["1"].get<std::string>();
  } else if (j.is_object() && j.contains("kind") && j["kind"].is_string()) {
    kind = j["kind"].get<std::string>();
  } else {
    throw std::invalid_argument(fmt::format(
        "model layer {}: a layer is a table whose first entry is its kind, e.g. {{\"conv\", "
        "out=16, k=3}}; got {}", where, j.dump()));
  }
  auto it = kinds().find(kind);
  if (it == kinds().end()) {
    std::vector<std::string> names;
    for (const auto& [n, k] : kinds()) names.push_back(n);
    throw std::invalid_argument(fmt::format("model layer {}: unknown kind '{}' (kinds: {})", where,
                                            kind, fmt::join(names, ", ")));
  }
  Layer l;
  l.kind = it->second;
  l.where = where;
  l.name = std::to_string(index);
  const json empty = json::object();
  Reader r{j.is_object() ? j : empty, where, kind};
  std::vector<std::string> valid = fields_of(l.kind);
  valid.push_back("name");
  valid.push_back("trainable");
  for (auto f = r.j.begin(); f != r.j.end(); ++f) {
    if (f.key() == "1" || f.key() == "kind") continue;
    if (!f.key().empty() && std::isdigit(static_cast<unsigned char>(f.key()[0])))
      throw std::invalid_argument(fmt::format(
          "model layer {} ({}): only the kind is positional; name the other fields, e.g. "
          "{{\"conv\", out=16, k=3}}", where, kind));
    if (std::find(valid.begin(), valid.end(), f.key()) == valid.end())
      throw std::invalid_argument(fmt::format("model layer {} ({}): unknown field '{}' (valid "
                                              "fields: {})", where, kind, f.key(),
                                              fmt::join(valid, ", ")));
  }
  if (r.j.contains("name")) {
    const json& n = r.j["name"];
    if (!n.is_string() || n.get<std::string>().empty() ||
        n.get<std::string>().find('.') != std::string::npos)
      r.fail("name", "must be a non-empty string without dots, got " + Reader::show(n));
    l.name = n.get<std::string>();
  }
  l.trainable = r.boolean("trainable", true);
  switch (l.kind) {
    case LayerKind::conv:
      if (!r.j.contains("out")) r.fail("out", "is required (output channels)");
      l.out = r.integer("out", 0, 1);
      if (!r.j.contains("k")) r.fail("k", "is required (kernel side)");
      l.kernel = r.integer("k", 1, 1);
      l.stride = r.integer("stride", 1, 1);
      l.pad = r.integer("pad", 0, 0);
      l.groups = r.integer("groups", 1, 1);
      l.bias = r.boolean("bias", true);
      break;
    case LayerKind::maxpool:
    case LayerKind::avgpool:
      if (!r.j.contains("k")) r.fail("k", "is required (window side)");
      l.kernel = r.integer("k", 1, 1);
      l.stride = r.integer("stride", l.kernel, 1);
      l.pad = r.integer("pad", 0, 0);
      break;
    case LayerKind::adaptive_avgpool:
      l.out = r.integer("out", 1, 1);
      break;
    case LayerKind::linear:
      l.out = r.integer("out", 0, 1);
      l.bias = r.boolean("bias", true);
      break;
    case LayerKind::batchnorm:
      l.eps = r.number("eps", 1e-5);
      l.momentum = r.number("momentum", 0.1);
      if (!(l.eps > 0)) r.fail("eps", "must be > 0");
      break;
    case LayerKind::dropout:
      l.p = r.number("p", 0.5);
      if (!(l.p >= 0 && l.p < 1)) r.fail("p", fmt::format("must be in [0, 1), got {}", l.p));
      break;
    case LayerKind::sequential:
      if (!r.j.contains("layers")) r.fail("layers", "is required (a list of layers)");
      l.body = read_list(r.j["layers"], where + ".layers", false);
      break;
    case LayerKind::residual: {
      if (!r.j.contains("body")) r.fail("body", "is required (the main branch, a list of layers)");
      l.body = read_list(r.j["body"], where + ".body", true);
      if (r.j.contains("projection"))
        l.projection = read_list(r.j["projection"], where + ".projection", false);
      if (r.j.contains("after") && !r.j["after"].is_string())
        r.fail("after", "must be \"relu\", \"relu6\" or \"none\", got " + r.j["after"].dump());
      const std::string after = r.j.value("after", std::string("none"));
      if (after == "relu") l.after = LayerKind::relu;
      else if (after == "relu6") l.after = LayerKind::relu6;
      else if (after != "none")
        r.fail("after", "must be \"relu\", \"relu6\" or \"none\", got '" + after + "'");
      break;
    }
    default:
      break;
  }
  return l;
}

std::vector<Layer> read_list(const json& list, const std::string& where, bool residual_body) {
  if (!list.is_array() || list.empty())
    throw std::invalid_argument(fmt::format(
        "model {}: must be a non-empty list of layers, e.g. {{{{\"conv\", out=16, k=3}}, "
        "{{\"relu\"}}}}", where));
  std::vector<Layer> out;
  std::set<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string at = fmt::format("{}[{}]", where, i + 1);
    Layer l = read_layer(list[i], at, static_cast<int64_t>(i + 1));
    if (!names.insert(l.name).second || (residual_body && l.name == "downsample"))
      throw std::invalid_argument(fmt::format(
          "model layer {} ({}): name '{}' is already used in this list{}; choose another", at,
          kind_name(l.kind), l.name, residual_body ? " (or is the shortcut's)" : ""));
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace

ModelSpec from_json(const json& description, int64_t classes, int64_t input) {
  // A bare list of layers is short for {layers = {...}}.
  const json d = description.is_array() ? json{{"layers", description}} : description;
  if (!d.is_object())
    throw std::invalid_argument(
        "model description must be a table like {name=\"tiny\", layers={{\"conv\", out=16, k=3}, "
        "...}}, got " + d.dump());
  static const std::vector<std::string> valid = {"name", "layers", "channels", "conv_init",
                                                 "linear_init"};
  for (auto f = d.begin(); f != d.end(); ++f)
    if (std::find(valid.begin(), valid.end(), f.key()) == valid.end())
      throw std::invalid_argument(
          fmt::format("unknown model field '{}' (valid fields: {})", f.key(), fmt::join(valid, ", ")));
  ModelSpec m;
  m.name = "custom";
  if (d.contains("name")) {
    if (!d["name"].is_string() || d["name"].get<std::string>().empty())
      throw std::invalid_argument("model field 'name' must be a non-empty string, got " + d["name"].dump());
    // The name goes into run labels, progress lines and reports (issue 35 item 4).
    if (util::has_control_characters(d["name"].get<std::string>()))
      throw std::invalid_argument("model field 'name' must be printable text, got '" +
                                  util::printable(d["name"].get<std::string>()) +
                                  "' (a control character, shown as \\ddd): give it without");
    m.name = d["name"].get<std::string>();
  }
  if (d.contains("channels")) {
    if (!d["channels"].is_number_integer() || d["channels"].get<int64_t>() < 1)
      throw std::invalid_argument("model field 'channels' must be an integer >= 1, got " +
                                  d["channels"].dump());
    m.channels = d["channels"].get<int64_t>();
  }
  auto choice = [&](const char* key, const std::string& def, const std::string& a,
                    const std::string& b) {
    const bool is_string = !d.contains(key) || d[key].is_string();
    const std::string v = is_string ? d.value(key, def) : std::string();
    if (!is_string || (v != a && v != b))
      throw std::invalid_argument(
          fmt::format("model field '{}' must be \"{}\" or \"{}\", got {}", key, a, b, d[key].dump()));
    return v;
  };
  m.conv_init = choice("conv_init", "kaiming", "kaiming", "default") == "kaiming"
                    ? ConvInit::kaiming_fan_out
                    : ConvInit::torch_default;
  m.linear_init = choice("linear_init", "default", "default", "normal") == "normal"
                      ? LinearInit::normal_001
                      : LinearInit::torch_default;
  if (!d.contains("layers"))
    throw std::invalid_argument("model field 'layers' is required (a list of layers)");
  m.layers = read_list(d["layers"], "layers", false);
  m.classes = classes;
  m.input = input;
  validate(m);
  return m;
}

ModelSpec from_option(const nlohmann::json& model, int64_t classes, int64_t input) {
  if (model.is_string()) return builtin(model.get<std::string>(), classes, input);
  if (model.is_object() || model.is_array()) return from_json(model, classes, input);
  throw std::invalid_argument(
      "model must be a built-in name (" + fmt::format("{}", fmt::join(builtin_names(), ", ")) +
      ") or a model table {name=..., layers={...}}, got " + model.dump());
}

}  // namespace rlx::models
