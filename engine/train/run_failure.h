// run_failure.h: a run that failed, reported as ok = false (not an invalid option), with the fix
// as data where the fix is one option's value (issue 53: a caller that says the fix in its own
// words, the CLI's --device cpu, reads the fields, never the message's text).
#pragma once

#include <fmt/format.h>

#include <string>
#include <utility>

#include "train/trainer.h"
#include "util/coded_error.h"

namespace rlx::train {

// The cause (the message without its fix) is util::CodedError's, as a store error's is.
struct RunFailure : util::CodedError {
  explicit RunFailure(const std::string& message) : util::CodedError(message) {}
  // The message is the cause and the fix in the Lua API's words: "<cause>; use device=\"cpu\"".
  RunFailure(const std::string& cause_text, std::string option, std::string value)
      : util::CodedError(fmt::format("{}; use {}=\"{}\"", cause_text, option, value), "", cause_text),
        fix_option(std::move(option)),
        fix_value(std::move(value)) {}
  std::string fix_option;  // the option whose value fixes the run ("device"); "" when none does
  std::string fix_value;   // that value ("cpu")

  // The same failure said of a rank of a data-parallel run ("rank 1 of 2 failed: ..."), fix kept.
  static RunFailure of_rank(const std::string& prefix, const TrainResult& r) {
    if (r.error_fix_option.empty()) return RunFailure(prefix + r.error);
    return {prefix + r.error_cause, r.error_fix_option, r.error_fix_value};
  }

  // The failure as a result's fields.
  void fill(TrainResult& r) const {
    r.ok = false;
    r.error = what();
    r.error_cause = cause;
    r.error_fix_option = fix_option;
    r.error_fix_value = fix_value;
  }
};

}  // namespace rlx::train
