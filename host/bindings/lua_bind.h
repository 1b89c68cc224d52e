// lua_bind.h: the one boundary between C++ and Lua.
//
// Every native function is registered (register_module, set_functions) as a closure whose upvalue
// is its public name ("rlx.peaks.measure", "conn:query") and runs through guarded<F>, which turns a
// C++ exception into a structured Lua error: fn is that registered name, message the exception's
// text (the engine throws plain messages: no function names, no "name: " prefixes), where the
// script position of the caller (the first frame outside rlx's own built-in modules, so an error
// in rlx.train points at the user's script, not at scripts/rlx/).
// Options tables go through Options, which rejects unknown keys by name and lists the valid ones.
// Values cross the boundary as nlohmann::json where a binding has no reason to do better: the
// engine libraries return plain structs, the binding converts them to json, push_json builds the
// Lua table. Nothing here calls Lua from another thread: all of it runs on the main thread.
#pragma once

extern "C" {
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
}

#include <climits>
#include <functional>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "util/coded_error.h"
#include "util/interrupt.h"

namespace rlx::lua {

// A user-facing error raised by a binding. It reaches Lua as a structured error table
// {fn =, message =, where =, exit_code =} (see push_error): fn is the public function that failed
// ("rlx.train"), message says what is wrong and how to fix it, where is the caller's "file:line",
// exit_code is absent for script errors (exit status 1) or the status of a deliberate exit.
// Error(message) leaves fn to guarded, which takes the registered name of the running native; name
// fn only when the error belongs to another public function (rlx.options.check's caller).
struct Error : std::runtime_error {
  explicit Error(const std::string& message);
  Error(std::string fn, std::string message, int exit_code = 0);
  std::string fn;
  std::string message;
  int exit_code = 0;  // 0: a script error (uncaught, the program exits 1)
  std::string code;   // what kind of failure, as data: the error table's `code` (util::CodedError)
};

// Thrown by a binding that has left a Lua error value on top of the stack (for example the error
// of a Lua callback it called with lua_pcall): guarded re-raises that value unchanged, so a
// Ctrl-C or rlx.fail exit inside a callback keeps its exit code.
struct Rethrow : std::exception {
  const char* what() const noexcept override { return "(a Lua error value is on the stack)"; }
};

// True for a chunk name (lua_Debug's source) of rlx's own Lua modules, embedded or loaded from
// RLX_SCRIPTS_DIR: "@scripts/rlx/...". Allocates nothing (the interrupt hook calls it).
bool is_builtin_source(const char* source);

// "file:line: " of the first Lua frame that is not one of rlx's embedded modules, or "" if none.
// The one caller-position helper: Lua code reaches it as rlx._core.host.where().
std::string caller_where(lua_State* L);

// The public name the running native was registered under (its closure's upvalue 1), or "" for
// a C function pushed without one. Valid in the native's own frame (guarded<F> and F).
std::string fn_name(lua_State* L);

// Pushes the metatable every structured error shares (registry "rlx.Error", with __tostring
// giving "where: fn: message").
void push_error_metatable(lua_State* L);

// Pushes the one "end the program with status 0" value (registry "rlx.exit_ok"): raised by
// rlx.errors.exit_ok() (rlx run SCRIPT --help after listing the parameters), it passes every
// rlx.errors.pass_exits and the host ends with status 0, printing nothing, through its normal exit
// path (lua_close runs; os.exit would skip it). Only this identical value exits 0.
void push_exit_ok(lua_State* L);

// Pushes a structured error table; where is the caller's position unless given.
void push_error(lua_State* L, const std::string& fn, const std::string& message, int exit_code,
                const std::string& where);

// What guarded raises for a caught exception, captured before any Lua call is made.
struct CaughtError {
  std::string fn, message;
  int exit_code = 0;
  bool rethrow = false;      // the value to raise is already on the stack
  bool interrupted = false;  // Ctrl-C, SIGTERM or SIGHUP (util::Interrupted)
  // The arguments were wrong (lua::Error, std::invalid_argument), as opposed to the run or the
  // installation failing (a LibTorch that does not load): the error table's `usage`, which a CLI
  // command maps to exit 2 against 1, never by reading the message.
  bool usage = false;
  // What kind of failure it was and the message without its advice (util::CodedError): the error
  // table's `code` and `cause`, absent when empty.
  std::string code, cause;
};
// The one line an interrupt exits with: "rlx: interrupted" (Ctrl-C), "rlx: stopped by SIGTERM".
std::string interrupt_message(const util::Interrupted& e);
CaughtError describe_exception(const std::exception& e);
// Pushes the structured error for `caught` (unless it is a rethrow), its fn the running native's
// registered name when the exception named none, and clears any pending interrupt hook; the
// caller then calls lua_error with no C++ object alive in its frame.
void push_caught(lua_State* L, const CaughtError& caught);

// Runs F; a std::exception escaping it becomes a structured Lua error located at the caller's
// line (util::Interrupted becomes {exit_code = 128 + signal, message = "rlx: interrupted"}). Everything
// with a destructor is out of scope when lua_error runs. Lua errors raised inside F by the Lua API
// itself unwind through F's C++ frames: that needs LuaJIT's external unwinding, which the build
// checks (cmake/CheckLuaJITUnwinding.cmake, docs/architecture.md).
template <int (*F)(lua_State*)>
int guarded(lua_State* L) {
  {
    CaughtError caught;
    try {
      return F(L);
    } catch (const std::exception& e) {
      caught = describe_exception(e);
    }
    push_caught(L, caught);
  }
  return lua_error(L);
}

// One native: its field name, the function (guarded<F>), and the public name its errors carry
// when that is not the default (register_module: "rlx.<module>.<name>"; set_functions: prefix+name).
struct Function {
  const char* name;
  lua_CFunction fn;
  const char* public_name = nullptr;
};

// Pushes fn as a closure whose upvalue 1 is public_name (what fn_name returns inside it).
void push_native(lua_State* L, lua_CFunction fn, const std::string& public_name);

// Creates rlx._core[name] = { functions... }, each registered as "rlx.<name>.<field>" unless it
// names its public_name. The global rlx and rlx._core must exist.
void register_module(lua_State* L, const char* name, std::initializer_list<Function> fns);

// Sets fields of the table at table_idx, each registered as prefix + field ("conn:" + "query")
// unless it names its public_name.
void set_functions(lua_State* L, int table_idx, const std::string& prefix,
                   std::initializer_list<Function> fns);

// Type name for messages: "nil", "number", "string", "table", ...
const char* type_name(lua_State* L, int idx);

// Checks that argument `arg` (1-based) is a table of options of the running native and reads it.
// Unknown keys are an error naming the key and the valid keys; every getter checks the value's
// type and names the option in its message ("rlx.train: option 'batch' must be an integer >= 1,
// got 0"; fn is the native's registered name, or fname where one is given).
class Options {
 public:
  Options(lua_State* L, int arg, std::vector<std::string> valid);
  Options(lua_State* L, int arg, std::string fname, std::vector<std::string> valid);
  // Same, but a nil / absent argument counts as an empty table.
  static Options optional(lua_State* L, int arg, std::vector<std::string> valid);
  static Options optional(lua_State* L, int arg, std::string fname, std::vector<std::string> valid);
  // The table at stack index idx, the value of this table's option `key` (a table of options
  // itself): its messages start "option 'key': ".
  Options nested(int idx, const char* key, std::vector<std::string> valid) const;

  bool has(const char* key) const;
  std::string str(const char* key, const std::string& def) const;
  std::string required_str(const char* key) const;
  std::optional<std::string> opt_str(const char* key) const;
  double number(const char* key, double def) const;
  std::optional<double> opt_number(const char* key) const;
  double required_number(const char* key) const;
  // Integers must be whole numbers >= min_value.
  long long integer(const char* key, long long def, long long min_value = LLONG_MIN) const;
  std::optional<long long> opt_integer(const char* key, long long min_value = LLONG_MIN) const;
  long long required_integer(const char* key, long long min_value = LLONG_MIN) const;
  bool boolean(const char* key, bool def) const;
  // One of a fixed set of strings.
  std::string choice(const char* key, const std::string& def, const std::vector<std::string>& allowed) const;
  // A number or an array of numbers; a string or an array of strings.
  std::vector<long long> int_list(const char* key, long long min_value = LLONG_MIN) const;
  std::vector<std::string> str_list(const char* key) const;
  // Pushes the raw value (nil when absent) and returns its Lua type, for options a binding reads
  // itself (a model table, a list of points). Pop it when done.
  int push(const char* key) const;
  // Converts any value (tables included) to json; null when absent.
  nlohmann::json json(const char* key) const;

  // Raises "<fn>: option 'key' <what>"; `code` is the error table's `code` (what kind of failure).
  [[noreturn]] void fail(const char* key, const std::string& what, const std::string& code = "") const;
  const std::string& fname() const { return fname_; }
  int index() const { return idx_; }

 private:
  Options(lua_State* L, int idx, std::string fname, std::vector<std::string> valid, std::string prefix);
  static int check_table(lua_State* L, int arg, const std::string& fname);
  // Walks option `key`, one value or an array of them (absent: nothing): take(i) reads the value on
  // top of the stack (i = 0 for a single value, else its index). A single value of the wrong type
  // fails with "must be <what>", a bad one or a bad element with "<element> ...".
  enum class Take { ok, bad_type, bad_value };
  void each(const char* key, const std::string& what, const std::string& element,
            const std::function<Take(int)>& take) const;
  lua_State* L_;
  int idx_;  // absolute stack index of the table, or 0 for "no table"
  std::string fname_;   // "" for the running native's registered name
  std::string prefix_;  // before every message: "" or "option 'key': " (nested)
  std::vector<std::string> valid_;
};

// rlx.options.check(fname, opts, spec) for functions written in Lua: the same checks and messages
// as Options (a spec entry is {type =, required =, default =, min =, max =, one_of =, help =});
// returns a new table with defaults filled in. Registered as rlx._core.host.check_options.
int check_options(lua_State* L);
// option_requirement(entry) -> "an integer >= 1": what a value of that spec entry must be, the
// words check_options uses, for rlx.options' text checks (CLI flags, --set values).
int option_requirement(lua_State* L);

// json <-> Lua. Objects become tables with string keys, arrays become sequences (1-based), null
// becomes nil. A Lua table whose keys are exactly 1..n is an array; an empty table is an empty
// object. Functions and userdata cannot be converted and raise Error naming `what` (the value:
// "argument 1", "option 'points'"; the function is the native's registered name).
void push_json(lua_State* L, const nlohmann::json& j);
nlohmann::json to_json(lua_State* L, int idx, const std::string& what = "");
// The one JSON codec, behind rlx.json.encode/decode and their aliases rlx.db.encode/decode.
// encode_json: the value at `idx` as text, one line when indent < 0; decode_json pushes the value
// of the text at `idx` (an error names the byte offset).
std::string encode_json(lua_State* L, int idx, int indent);
void decode_json(lua_State* L, int idx);

// Absolute stack index (Lua 5.1 has no lua_absindex).
int abs_index(lua_State* L, int idx);

// Plain argument helpers for positional arguments; errors name the argument number.
std::string check_string(lua_State* L, int arg);
double check_number(lua_State* L, int arg);

}  // namespace rlx::lua
