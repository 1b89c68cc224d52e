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

// A user-facing error raised by a binding; the message should name the problem and the fix.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "file:line: " of the first Lua frame that is not one of rlx's embedded modules, or "" if none.
std::string caller_where(lua_State* L);

// Runs F; a std::exception escaping it becomes a Lua error "file:line: message". The message is
// copied onto the Lua stack before lua_error so no C++ object is alive when Lua unwinds.
template <int (*F)(lua_State*)>
int guarded(lua_State* L) {
  {
    std::string msg;
    try {
      return F(L);
    } catch (const std::exception& e) {
      msg = e.what();
    }
    std::string full = caller_where(L) + msg;
    lua_pushlstring(L, full.data(), full.size());
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

// json <-> Lua. Objects become tables with string keys, arrays become sequences (1-based), null
// becomes nil. A Lua table whose keys are exactly 1..n is an array; an empty table is an empty
// object. Functions and userdata cannot be converted and raise Error naming `what`.
void push_json(lua_State* L, const nlohmann::json& j);
nlohmann::json to_json(lua_State* L, int idx, const std::string& what = "value");

// Absolute stack index (Lua 5.1 has no lua_absindex).
int abs_index(lua_State* L, int idx);

// Plain argument helpers for positional arguments; errors name fname and the argument number.
std::string check_string(lua_State* L, int arg, const char* fname);
double check_number(lua_State* L, int arg, const char* fname);

}  // namespace rlx::lua
