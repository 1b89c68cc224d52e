// option_builder.h: how options.cpp writes a declaration (train/options.h) in a few lines:
// Declare("batch").integer(&TrainConfig::batch).min(1).unit("images")... A field's type, default,
// reader and getter follow from its member pointer, so the default is TrainConfig's own.
#pragma once

#include <type_traits>
#include <utility>

#include "train/options.h"

namespace rlx::train {

class Declare {
 public:
  explicit Declare(std::string name) { d_.name = std::move(name); }

  // A field of TrainConfig read as it is given: its type and default are the member's.
  template <class T>
  Declare& field(T TrainConfig::*member) {
    if constexpr (std::is_same_v<T, int64_t>) d_.type = "integer";
    if constexpr (std::is_same_v<T, double>) d_.type = "number";
    if constexpr (std::is_same_v<T, bool>) d_.type = "boolean";
    if constexpr (std::is_same_v<T, std::string>) d_.type = "string";
    d_.default_value = nlohmann::json(TrainConfig{}.*member);
    d_.get = [member](const TrainConfig& c) { return nlohmann::json(c.*member); };
    d_.set = [member](TrainConfig& c, const nlohmann::json& v) { v.get_to(c.*member); };
    d_.read = [member](const OptionReading& r, TrainRequest& q) {
      if constexpr (std::is_same_v<T, int64_t>) q.config.*member = r.integer();
      if constexpr (std::is_same_v<T, double>) q.config.*member = r.number();
      if constexpr (std::is_same_v<T, bool>) q.config.*member = r.boolean();
      if constexpr (std::is_same_v<T, std::string>) q.config.*member = r.string();
    };
    return *this;
  }
  // A string field that takes one of a vocabulary, read from its owner when asked.
  Declare& choice(std::string TrainConfig::*member, std::function<std::vector<std::string>()> names) {
    field(member);
    d_.choices = std::move(names);
    return *this;
  }
  // An option of a shape of its own (a model, warmup's count or "auto"), read by `read`.
  Declare& shape(std::string type, std::function<void(const OptionReading&, TrainRequest&)> read) {
    d_.type = std::move(type);
    d_.read = std::move(read);
    return *this;
  }
  Declare& unit(std::string u) { return set(d_.unit, std::move(u)); }
  Declare& min(double v, bool open = false) {
    d_.min = v;
    d_.min_open = open;
    return *this;
  }
  Declare& max(double v, std::string why = "", bool open = false) {
    d_.max = v;
    d_.max_why = std::move(why);
    d_.max_open = open;
    return *this;
  }
  Declare& typed_max(double v) {
    d_.typed_max = v;
    return *this;
  }
  // The field's value when the run decides (not given): the declared default is then none.
  Declare& unset(nlohmann::json v) {
    if (d_.default_value == v) d_.default_value = nullptr;
    return set(d_.unset, std::move(v));
  }
  Declare& default_value(nlohmann::json v) { return set(d_.default_value, std::move(v)); }
  Declare& default_text(std::string t) { return set(d_.default_text, std::move(t)); }
  Declare& excludes(std::string option, std::string why, std::function<bool(const TrainRequest&)> holds) {
    d_.excludes.push_back({std::move(option), std::move(why), std::move(holds)});
    return *this;
  }
  Declare& needs(std::string option, std::string why, std::function<bool(const TrainRequest&)> holds) {
    d_.needs.push_back({std::move(option), std::move(why), std::move(holds)});
    return *this;
  }
  Declare& at_least(std::string option) { return set(d_.at_least, std::move(option)); }
  Declare& column(std::string c) { return set(d_.store_column, std::move(c)); }
  Declare& flag(std::string f, std::string metavar = "", std::string alias = "") {
    d_.flag = std::move(f);
    d_.metavar = std::move(metavar);
    d_.alias = std::move(alias);
    return *this;
  }
  Declare& flag_type(std::string t) { return set(d_.flag_type, std::move(t)); }
  Declare& names_runs() {
    d_.names_runs = true;
    return *this;
  }
  Declare& help(std::string h) { return set(d_.help, std::move(h)); }
  Declare& doc(std::string d) { return set(d_.doc, std::move(d)); }
  Declare& pass() { return set(d_.sweep, "pass"); }
  Declare& matrix() { return set(d_.sweep, "matrix"); }
  Declare& dimension(std::string label_tag) {
    d_.label_tag = std::move(label_tag);
    return set(d_.sweep, "dimension");
  }
  Declare& knob(std::string over) { return set(d_.knob_over, std::move(over)); }
  Declare& check(std::function<std::string(const nlohmann::json&)> c) { return set(d_.check, std::move(c)); }
  Declare& absent(std::function<void(TrainRequest&)> a) { return set(d_.absent, std::move(a)); }
  Declare& required(std::string what) { return set(d_.required, std::move(what)); }
  // A shape's field as data and back (field() writes both for a plain member).
  template <class T>
  Declare& stored_in(T TrainConfig::*member) {
    d_.get = [member](const TrainConfig& c) { return nlohmann::json(c.*member); };
    d_.set = [member](TrainConfig& c, const nlohmann::json& v) { v.get_to(c.*member); };
    return *this;
  }
  Declare& not_echoed() {
    d_.echoed = false;
    return *this;
  }

  operator OptionDecl() const { return d_; }  // NOLINT: the table lists Declare(...) chains

 private:
  template <class T, class V>
  Declare& set(T& slot, V&& v) {
    slot = std::forward<V>(v);
    return *this;
  }
  OptionDecl d_;
};

// The options inside a table-valued option (min_stable's {drift, cv, max_extra}): keys other
// than the declared ones are refused, and every message starts "option 'min_stable': ".
class NestedOptions {
 public:
  NestedOptions(const OptionReading& outer, std::vector<OptionDecl> decls);
  double number(const std::string& name, double fallback) const;
  int64_t integer(const std::string& name, int64_t fallback) const;

 private:
  const OptionDecl& decl(const std::string& name) const;
  GivenOptions given_;
  std::vector<OptionDecl> decls_;
  std::string prefix_;
};

}  // namespace rlx::train
