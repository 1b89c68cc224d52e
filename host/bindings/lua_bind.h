// lua_bind.h: the one boundary between C++ and Lua.
//
// Every native function is registered through guarded<F>, which turns a C++ exception into a Lua
// error prefixed with the script position of the caller (the first frame outside rlx's own
// built-in modules, so an error in rlx.train points at the user's script, not at scripts/rlx/).
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
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rlx::lua {

// A user-facing error raised by a binding. It reaches Lua as a structured error table
// {fn =, message =, where =, exit_code =} (see push_error): fn is the public function that failed
// ("rlx.train"), message says what is wrong and how to fix it, where is the caller's "file:line",
// exit_code is absent for script errors (exit status 1) or the status of a deliberate exit.
// Error("rlx.train: option 'batch' ...") splits a leading "name: " off as fn.
struct Error : std::runtime_error {
  explicit Error(const std::string& text);
  Error(std::string fn, std::string message, int exit_code = 0);
  std::string fn;
  std::string message;
  int exit_code = 0;  // 0: a script error (uncaught, the program exits 1)
};

// Thrown by a binding that has left a Lua error value on top of the stack (for example the error
// of a Lua callback it called with lua_pcall): guarded re-raises that value unchanged, so a
// Ctrl-C or rlx.fail exit inside a callback keeps its exit code.
struct Rethrow : std::exception {
  const char* what() const noexcept override { return "(a Lua error value is on the stack)"; }
};

// "file:line: " of the first Lua frame that is not one of rlx's embedded modules, or "" if none.
// The one caller-position helper: Lua code reaches it as rlx._core.host.where().
std::string caller_where(lua_State* L);

// Splits "name: message" into fn and message when the prefix is a function name such as
// "rlx.train" or "study:sweep" (letters, digits, '_', '.', ':'); otherwise fn stays empty.
void split_fn(const std::string& text, std::string* fn, std::string* message);

// Pushes the metatable every structured error shares (registry "rlx.Error", with __tostring
// giving "where: fn: message").
void push_error_metatable(lua_State* L);

// Pushes a structured error table; where is the caller's position unless given.
void push_error(lua_State* L, const std::string& fn, const std::string& message, int exit_code,
                const std::string& where);

// What guarded raises for a caught exception, captured before any Lua call is made.
struct CaughtError {
  std::string fn, message;
  int exit_code = 0;
  bool rethrow = false;  // the value to raise is already on the stack
};
CaughtError describe_exception(const std::exception& e);
// Pushes the structured error for `caught` (unless it is a rethrow) and clears any pending
// interrupt hook; the caller then calls lua_error with no C++ object alive in its frame.
void push_caught(lua_State* L, const CaughtError& caught);

// Runs F; a std::exception escaping it becomes a structured Lua error located at the caller's
// line (util::Interrupted becomes {exit_code = 130, message = "rlx: interrupted"}). Everything
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

struct Function {
  const char* name;
  lua_CFunction fn;
};

// Creates rlx._core[name] = { functions... }. The global rlx and rlx._core must exist.
void register_module(lua_State* L, const char* name, std::initializer_list<Function> fns);

// Sets fields of the table at table_idx.
void set_functions(lua_State* L, int table_idx, std::initializer_list<Function> fns);

// Type name for messages: "nil", "number", "string", "table", ...
const char* type_name(lua_State* L, int idx);

// Checks that argument `arg` (1-based) is a table of options for `fname` and reads it. Unknown
// keys are an error naming the key and the valid keys; every getter checks the value's type and
// names the option in its message ("rlx.train: option 'batch' must be an integer >= 1, got 0").
class Options {
 public:
  Options(lua_State* L, int arg, std::string fname, std::vector<std::string> valid);
  // Same, but a nil / absent argument counts as an empty table.
  static Options optional(lua_State* L, int arg, std::string fname, std::vector<std::string> valid);

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

  [[noreturn]] void fail(const char* key, const std::string& what) const;
  const std::string& fname() const { return fname_; }
  int index() const { return idx_; }

 private:
  Options(lua_State* L, int idx, std::string fname, std::vector<std::string> valid, bool);
  static int check_table(lua_State* L, int arg, const std::string& fname);
  lua_State* L_;
  int idx_;  // absolute stack index of the table, or 0 for "no table"
  std::string fname_;
  std::vector<std::string> valid_;
};

// rlx.options.check(fname, opts, spec) for functions written in Lua: the same checks and messages
// as Options (a spec entry is {type =, required =, default =, min =, one_of =}); returns a new
// table with defaults filled in. Registered as rlx._core.host.check_options.
int check_options(lua_State* L);

// json <-> Lua. Objects become tables with string keys, arrays become sequences (1-based), null
// becomes nil. A Lua table whose keys are exactly 1..n is an array; an empty table is an empty
// object. Functions and userdata cannot be converted and raise Error naming `what`.
void push_json(lua_State* L, const nlohmann::json& j);
nlohmann::json to_json(lua_State* L, int idx, const std::string& what = "value");
// The one JSON codec, behind rlx.json.encode/decode and their aliases rlx.db.encode/decode
// (`fname` names the caller in errors). encode_json: the value at `idx` as text, one line when
// indent < 0; decode_json pushes the value of the text at `idx` (an error names the byte offset).
std::string encode_json(lua_State* L, int idx, const std::string& fname, int indent);
void decode_json(lua_State* L, int idx, const char* fname);

// Absolute stack index (Lua 5.1 has no lua_absindex).
int abs_index(lua_State* L, int idx);

// Plain argument helpers for positional arguments; errors name fname and the argument number.
std::string check_string(lua_State* L, int arg, const char* fname);
double check_number(lua_State* L, int arg, const char* fname);

}  // namespace rlx::lua
