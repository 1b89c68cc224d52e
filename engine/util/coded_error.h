// coded_error.h: a failure that says what kind it is as data, beside its message (issue 53: a fact
// crosses from C++ to Lua as a field, never as text a caller matches). lua::guarded puts `code` in
// the error table's field `code` and `cause` in `cause` (host/bindings/lua_bind.h); C++ callers
// read the fields, never what().
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

namespace rlx::util {

struct CodedError : std::runtime_error {
  explicit CodedError(const std::string& message, std::string code = "", std::string cause = "")
      : std::runtime_error(message), code(std::move(code)), cause(std::move(cause)) {}
  // What kind of failure, a stable word its thrower documents: SQLite's result code name for a
  // database error ("SQLITE_FULL", "SQLITE_IOERR", "SQLITE_READONLY"), "unknown_chip" for a chip
  // CUPTI does not know; "" when the message is all there is to say.
  std::string code;
  // The message without the advice at its end, where a caller may give its own advice instead
  // ("'x.db' is read-only for this user (...)" without "; open it with readonly=true to query it"; a
  // failed run without its "; use device=\"cpu\"", train/run_failure.h);
  // "" when the message has no advice to replace.
  std::string cause;
};

}  // namespace rlx::util
