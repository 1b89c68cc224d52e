// options.h: rlx.train's options, each declared once, beside TrainConfig: its name, type, unit,
// bounds, default, the options it excludes or needs, its store column, its flag of `rlx train`,
// its help and doc lines, and what a study sweep does with it. Everything else reads the
// declarations: the reader below (rlx.train's binding hands it the options as json), the Lua
// layer through rlx.train.OPTIONS (the CLI's flags and --help, study:sweep{}'s keys and
// dimensions, the study's --set parameters, the planner's defaults, the report's knobs), and the
// option tables of docs/lua-api/train.md and docs/cli.md (generated: `rlx train --options-md`).
// docs/architecture.md "Adding a training option".
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "train/trainer.h"

namespace rlx::train {

class OptionReading;

// What rlx.train is asked: the run's configuration and the counters to collect.
struct TrainRequest {
  TrainConfig config;
  bool counters = false;
  std::vector<std::string> counter_groups;
};

// A rule between a given option and another, judged once every option is read: an exclusion
// refuses the option when `holds`, a need unless it holds. `option` names the other (for the
// front ends and the docs); a refusal reads "option '<this>' <why>".
struct OptionRule {
  std::string option;
  std::string why;
  std::function<bool(const TrainRequest&)> holds;
};

struct OptionDecl {
  std::string name;
  // "integer", "number", "boolean", "string" (with choices: one of them), or a shape of its own
  // read by `read`: "model", "warmup" (a count or "auto"), "min_stable" (true or a table),
  // "counters" (true or a list of groups).
  std::string type;
  std::string unit;                 // "images", "iterations", "s", "fraction", "pixels", ""
  std::optional<double> min, max;   // a given value's bounds
  bool min_open = false;            // min itself is refused (lr > 0)
  bool max_open = false;            // max itself is refused (target_ci < 1)
  std::string max_why;              // the words for a value above max, else "at most <max>"
  std::optional<double> typed_max;  // a command line refuses more as a typo (docs/cli.md "Limits")
  nlohmann::json default_value;     // TrainConfig's default; null when it is decided per run
  std::string default_text;         // the docs' default when default_value is null or contextual
  std::function<std::vector<std::string>()> choices;  // the vocabulary's owner (models::precision_names)
  std::vector<OptionRule> excludes;                   // given, and the rule holds: refused
  std::vector<OptionRule> needs;                      // given, and the rule does not hold: refused
  std::string at_least;                               // (with its needs holding) not below this other option
  std::string store_column;          // its column in the runs table, "" for none (the config holds it)
  std::string flag, alias, metavar;  // rlx train's; "" for none
  std::string flag_type;             // the flag's value type where it differs from `type`
  bool names_runs = false;           // a command line refuses a path separator in it (a label)
  std::string help;                  // rlx train --help's line
  std::string doc;                   // docs/lua-api/train.md's meaning (Markdown)
  // study:sweep{}: "pass" (given to every run), "dimension" (a value or a list: one run each),
  // "matrix" (the sweep's own loops: model, precision, batch), "" (not a sweep option).
  std::string sweep;
  std::string label_tag;  // a dimension's part of a run label: "graphs", "{}ranks" (when not its default)
  std::string knob_over;  // a framework knob of the report (§6.7): its baseline setting
  // Reads the option (given) into the request; throws naming it.
  std::function<void(const OptionReading&, TrainRequest&)> read;
  // What the request holds when it is not given, where other options or the terminal decide
  // (warmup "auto" with target_ci, progress).
  std::function<void(TrainRequest&)> absent;
  std::string required;  // "" or what it must be: its absence is refused ("is required: <required>")
  // The config's field as data and back: the bounds of a config built in C++, at_least, the
  // result's echo (to_json) and the wire to a data-parallel rank (wire.cpp).
  std::function<nlohmann::json(const TrainConfig&)> get;
  std::function<void(TrainConfig&, const nlohmann::json&)> set;
  bool echoed = true;  // the result repeats it as asked (where it applies: not unset, its needs hold)
  // A check beyond the bounds: the end of "option 'x' ..." ("must be at most 16 ..."), or "".
  std::function<std::string(const nlohmann::json&)> check;
  // The value a TrainConfig holds when the option was not given and the run decides (input 0).
  nlohmann::json unset;
};

// The declarations, in the order rlx.train reads them (and the docs list them).
const std::vector<OptionDecl>& option_decls();
const OptionDecl* find_option(const std::string& name);
std::vector<std::string> option_names();

// The options as a caller gave them: name -> value, and the values json cannot hold (a Lua
// function), by their type's name, so a refusal can say what it got ("got a function").
struct GivenOptions {
  nlohmann::json values = nlohmann::json::object();
  std::map<std::string, std::string> opaque;
};

// One option's value while the options are read: its checks throw std::invalid_argument
// "option 'batch' must be an integer >= 1, got 0" (the words of every native's options, lua::Options).
class OptionReading {
 public:
  // prefix: "" or "option 'min_stable': " (an option inside a table-valued one).
  OptionReading(const GivenOptions& given, const OptionDecl& decl, std::string prefix = "")
      : given_(given), decl_(decl), prefix_(std::move(prefix)) {}
  const nlohmann::json& value() const;
  std::string got() const;        // the value as a message shows it: 0, "x", true, a table
  std::string type_name() const;  // "number", "string", "table", "function"
  [[noreturn]] void fail(const std::string& what) const;
  int64_t integer() const;  // whole, within the declaration's bounds and check
  double number() const;    // finite, within the bounds
  bool boolean() const;
  std::string string() const;                // one of the choices, when it has some; no NUL byte
  std::vector<std::string> strings() const;  // a string or an array of strings
  const OptionDecl& decl() const { return decl_; }
  const std::string& prefix() const { return prefix_; }

 private:
  const GivenOptions& given_;
  const OptionDecl& decl_;
  std::string prefix_;
};

// Reads the options into a request: unknown keys are the caller's to refuse (option_names());
// every value, bound and rule between options is checked here, then validate(). Throws
// std::invalid_argument with the message rlx.train raises. partial: a part of a run's options (a
// sweep's protocol, checked before any run): a required option may be absent.
TrainRequest read_options(const GivenOptions& given, bool partial = false);

// The rules the options' values decide (the declarations' bounds of a config's fields, the
// refusals of cuda_graphs and ranks), for validate(); throws std::invalid_argument.
void check_declared(const TrainConfig& config);

// The result's echo of every option as asked (trainer.h to_json) that `result` does not hold yet:
// left out where it was not set (unset) or does not apply (a need that does not hold, an
// exclusion that does).
void echo_options(const TrainConfig& config, nlohmann::json& result);

// The declarations as data for the Lua layer (rlx._core.train.options()): one object each, the
// functions left out (choices as a list).
nlohmann::json options_json();

}  // namespace rlx::train
