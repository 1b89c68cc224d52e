// lua_bind.cpp: the shared binding helpers declared in lua_bind.h (error positions, options
// checking, json conversion). Every binding file uses these; none re-implements them.
#include "lua_bind.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fmt/format.h>

#include "embedded_scripts.h"
#include "util/interrupt.h"

namespace rlx::lua {

namespace {

// True for chunks that are rlx's own Lua modules, embedded or loaded from RLX_SCRIPTS_DIR.
bool is_builtin_source(const char* source) {
  if (!source || source[0] != '@') return false;
  std::string s(source + 1);
  return s.rfind("scripts/rlx/", 0) == 0 || s.find("/scripts/rlx/") != std::string::npos;
}

// Joins names for messages, sorted so the list reads the same whatever order a binding used.
std::string join(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
  return out;
}

std::string describe(lua_State* L, int idx) {
  int t = lua_type(L, idx);
  if (t == LUA_TSTRING) return fmt::format("\"{}\"", lua_tostring(L, idx));
  if (t == LUA_TNUMBER) return fmt::format("{}", lua_tonumber(L, idx));
  if (t == LUA_TBOOLEAN) return lua_toboolean(L, idx) ? "true" : "false";
  return fmt::format("a {}", lua_typename(L, t));
}

}  // namespace

std::string caller_where(lua_State* L) {
  lua_Debug ar;
  std::string first;
  for (int level = 1; lua_getstack(L, level, &ar); ++level) {
    if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
    std::string where = fmt::format("{}:{}: ", ar.short_src, ar.currentline);
    if (first.empty()) first = where;
    if (!is_builtin_source(ar.source)) return where;
  }
  return first;
}

// ---- structured errors ------------------------------------------------------------------------

Error::Error(const std::string& message) : std::runtime_error(message), message(message) {}

Error::Error(std::string fn_, std::string message_, int exit_code_)
    : std::runtime_error(fn_.empty() ? message_ : fn_ + ": " + message_),
      fn(std::move(fn_)),
      message(std::move(message_)),
      exit_code(exit_code_) {}

std::string fn_name(lua_State* L) {
  // A C function without upvalues reads its upvalue 1 as none (LUA_TNONE), not garbage.
  return lua_type(L, lua_upvalueindex(1)) == LUA_TSTRING ? lua_tostring(L, lua_upvalueindex(1)) : "";
}

namespace {

// A string field of the table at idx, or "" when absent or not a string.
std::string string_field(lua_State* L, int idx, const char* key) {
  lua_getfield(L, idx, key);
  std::string v = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  return v;
}

// __tostring of a structured error: "where: fn: message", leaving out the parts that are absent.
int error_tostring(lua_State* L) {
  std::string text = string_field(L, 1, "where");
  if (!text.empty()) text += ": ";
  std::string fn = string_field(L, 1, "fn");
  if (!fn.empty()) text += fn + ": ";
  text += string_field(L, 1, "message");
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

}  // namespace

void push_error_metatable(lua_State* L) {
  if (luaL_newmetatable(L, "rlx.Error")) {
    lua_pushcfunction(L, error_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushstring(L, "rlx.Error");
    lua_setfield(L, -2, "__name");
  }
}

void push_exit_ok(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, "rlx.exit_ok");
  if (lua_type(L, -1) == LUA_TTABLE) return;
  lua_pop(L, 1);
  push_error(L, "", "", 0, "");
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, "rlx.exit_ok");
}

void push_error(lua_State* L, const std::string& fn, const std::string& message, int exit_code,
                const std::string& where) {
  lua_createtable(L, 0, 4);
  if (!fn.empty()) {
    lua_pushlstring(L, fn.data(), fn.size());
    lua_setfield(L, -2, "fn");
  }
  lua_pushlstring(L, message.data(), message.size());
  lua_setfield(L, -2, "message");
  if (!where.empty()) {
    lua_pushlstring(L, where.data(), where.size());
    lua_setfield(L, -2, "where");
  }
  if (exit_code != 0) {
    lua_pushinteger(L, exit_code);
    lua_setfield(L, -2, "exit_code");
  }
  push_error_metatable(L);
  lua_setmetatable(L, -2);
}

CaughtError describe_exception(const std::exception& e) {
  CaughtError c;
  if (dynamic_cast<const Rethrow*>(&e)) {
    c.rethrow = true;
  } else if (dynamic_cast<const util::Interrupted*>(&e)) {
    c.message = "rlx: interrupted";
    c.exit_code = 130;
  } else if (const auto* err = dynamic_cast<const Error*>(&e)) {
    c.fn = err->fn;
    c.message = err->message;
    c.exit_code = err->exit_code;
  } else {
    c.message = e.what();
  }
  return c;
}

void push_caught(lua_State* L, const CaughtError& caught) {
  if (caught.rethrow) return;
  // Ctrl-C ended the C++ work: the Lua-side interrupt hook must not fire a second time.
  if (caught.exit_code == 130) lua_sethook(L, nullptr, 0, 0);
  std::string where = caller_where(L);
  if (where.size() >= 2) where.resize(where.size() - 2);  // "file:line" without ": "
  // A deliberate exit (Ctrl-C) is no function's failure: it keeps an empty fn.
  std::string fn = caught.fn.empty() && caught.exit_code == 0 ? fn_name(L) : caught.fn;
  push_error(L, fn, caught.message, caught.exit_code, where);
}

const char* type_name(lua_State* L, int idx) { return lua_typename(L, lua_type(L, idx)); }

void push_native(lua_State* L, lua_CFunction fn, const std::string& public_name) {
  lua_pushlstring(L, public_name.data(), public_name.size());
  lua_pushcclosure(L, fn, 1);
}

void set_functions(lua_State* L, int table_idx, const std::string& prefix,
                   std::initializer_list<Function> fns) {
  table_idx = abs_index(L, table_idx);
  for (const auto& f : fns) {
    push_native(L, f.fn, f.public_name ? std::string(f.public_name) : prefix + f.name);
    lua_setfield(L, table_idx, f.name);
  }
}

void register_module(lua_State* L, const char* name, std::initializer_list<Function> fns) {
  lua_getglobal(L, "rlx");
  lua_getfield(L, -1, "_core");
  lua_newtable(L);
  set_functions(L, -1, std::string("rlx.") + name + ".", fns);
  lua_setfield(L, -2, name);
  lua_pop(L, 2);
}

// ---- Options --------------------------------------------------------------------------------

Options::Options(lua_State* L, int idx, std::string fname, std::vector<std::string> valid, std::string prefix)
    : L_(L), idx_(idx), fname_(std::move(fname)), prefix_(std::move(prefix)), valid_(std::move(valid)) {
  if (idx_ == 0) return;
  lua_pushnil(L_);
  while (lua_next(L_, idx_) != 0) {
    lua_pop(L_, 1);  // value
    if (lua_type(L_, -1) != LUA_TSTRING) {
      std::string key = describe(L_, -1);
      lua_pop(L_, 1);
      throw Error(fname_, fmt::format("{}option keys must be names, got {} (valid options: {})", prefix_, key,
                                      join(valid_)));
    }
    std::string key = lua_tostring(L_, -1);
    bool ok = false;
    for (const auto& v : valid_) ok = ok || v == key;
    if (!ok) {
      lua_pop(L_, 1);
      throw Error(fname_,
                  fmt::format("{}unknown option '{}' (valid options: {})", prefix_, key, join(valid_)));
    }
  }
}

int abs_index(lua_State* L, int idx) {
  return (idx > 0 || idx <= LUA_REGISTRYINDEX) ? idx : lua_gettop(L) + idx + 1;
}

Options::Options(lua_State* L, int arg, std::string fname, std::vector<std::string> valid)
    : Options(L, check_table(L, arg, fname), fname, std::move(valid), "") {}

Options::Options(lua_State* L, int arg, std::vector<std::string> valid)
    : Options(L, arg, "", std::move(valid)) {}

int Options::check_table(lua_State* L, int arg, const std::string& fname) {
  if (lua_type(L, arg) != LUA_TTABLE)
    throw Error(fname, fmt::format("expected a table of options, got {}", type_name(L, arg)));
  return abs_index(L, arg);
}

Options Options::optional(lua_State* L, int arg, std::string fname, std::vector<std::string> valid) {
  if (lua_isnoneornil(L, arg)) return Options(L, 0, std::move(fname), std::move(valid), "");
  return Options(L, arg, std::move(fname), std::move(valid));
}

Options Options::optional(lua_State* L, int arg, std::vector<std::string> valid) {
  return optional(L, arg, "", std::move(valid));
}

Options Options::nested(int idx, const char* key, std::vector<std::string> valid) const {
  return Options(L_, abs_index(L_, idx), fname_, std::move(valid),
                 fmt::format("{}option '{}': ", prefix_, key));
}

void Options::fail(const char* key, const std::string& what) const {
  throw Error(fname_, fmt::format("{}option '{}' {}", prefix_, key, what));
}

int Options::push(const char* key) const {
  if (idx_ == 0) {
    lua_pushnil(L_);
    return LUA_TNIL;
  }
  lua_getfield(L_, idx_, key);
  return lua_type(L_, -1);
}

bool Options::has(const char* key) const {
  int t = push(key);
  lua_pop(L_, 1);
  return t != LUA_TNIL;
}

std::optional<std::string> Options::opt_str(const char* key) const {
  int t = push(key);
  if (t == LUA_TNIL) {
    lua_pop(L_, 1);
    return std::nullopt;
  }
  if (t != LUA_TSTRING) {
    std::string got = describe(L_, -1);
    lua_pop(L_, 1);
    fail(key, "must be a string, got " + got);
  }
  std::string v = lua_tostring(L_, -1);
  lua_pop(L_, 1);
  return v;
}

std::string Options::str(const char* key, const std::string& def) const { return opt_str(key).value_or(def); }

std::string Options::required_str(const char* key) const {
  auto v = opt_str(key);
  if (!v) fail(key, "is required (a string)");
  return *v;
}

std::optional<double> Options::opt_number(const char* key) const {
  int t = push(key);
  if (t == LUA_TNIL) {
    lua_pop(L_, 1);
    return std::nullopt;
  }
  if (t != LUA_TNUMBER) {
    std::string got = describe(L_, -1);
    lua_pop(L_, 1);
    fail(key, "must be a number, got " + got);
  }
  double v = lua_tonumber(L_, -1);
  lua_pop(L_, 1);
  return v;
}

double Options::number(const char* key, double def) const { return opt_number(key).value_or(def); }

double Options::required_number(const char* key) const {
  auto v = opt_number(key);
  if (!v) fail(key, "is required (a number)");
  return *v;
}

static std::string int_requirement(long long min_value) {
  return min_value == LLONG_MIN ? "an integer" : fmt::format("an integer >= {}", min_value);
}

static long long check_int(const Options& o, const char* key, double v, long long min_value) {
  // 2^63 is the first double a long long cannot hold.
  if (!std::isfinite(v) || std::floor(v) != v || v < static_cast<double>(min_value) || v >= 9.2233720368547758e18)
    o.fail(key, fmt::format("must be {}, got {}", int_requirement(min_value), v));
  return static_cast<long long>(v);
}

std::optional<long long> Options::opt_integer(const char* key, long long min_value) const {
  int t = push(key);
  if (t == LUA_TNIL) {
    lua_pop(L_, 1);
    return std::nullopt;
  }
  if (t != LUA_TNUMBER) {
    std::string got = describe(L_, -1);
    lua_pop(L_, 1);
    fail(key, fmt::format("must be {}, got {}", int_requirement(min_value), got));
  }
  double v = lua_tonumber(L_, -1);
  lua_pop(L_, 1);
  return check_int(*this, key, v, min_value);
}

long long Options::integer(const char* key, long long def, long long min_value) const {
  return opt_integer(key, min_value).value_or(def);
}

long long Options::required_integer(const char* key, long long min_value) const {
  auto v = opt_integer(key, min_value);
  if (!v) fail(key, "is required (" + int_requirement(min_value) + ")");
  return *v;
}

bool Options::boolean(const char* key, bool def) const {
  int t = push(key);
  bool v = def;
  if (t == LUA_TBOOLEAN) v = lua_toboolean(L_, -1);
  std::string got = t == LUA_TNIL || t == LUA_TBOOLEAN ? "" : describe(L_, -1);
  lua_pop(L_, 1);
  if (!got.empty()) fail(key, "must be true or false, got " + got);
  return v;
}

std::string Options::choice(const char* key, const std::string& def,
                            const std::vector<std::string>& allowed) const {
  std::string v = str(key, def);
  for (const auto& a : allowed)
    if (a == v) return v;
  fail(key, fmt::format("must be one of {}, got \"{}\"", join(allowed), v));
}

std::vector<long long> Options::int_list(const char* key, long long min_value) const {
  std::vector<long long> out;
  int t = push(key);
  if (t == LUA_TNUMBER) {
    double v = lua_tonumber(L_, -1);
    lua_pop(L_, 1);
    out.push_back(check_int(*this, key, v, min_value));
    return out;
  }
  if (t == LUA_TNIL) {
    lua_pop(L_, 1);
    return out;
  }
  if (t != LUA_TTABLE) {
    std::string got = describe(L_, -1);
    lua_pop(L_, 1);
    fail(key, "must be an integer or an array of integers, got " + got);
  }
  int n = static_cast<int>(lua_objlen(L_, -1));
  for (int i = 1; i <= n; ++i) {
    lua_rawgeti(L_, -1, i);
    double v = lua_tonumber(L_, -1);
    bool is_int = lua_type(L_, -1) == LUA_TNUMBER && std::isfinite(v) && std::floor(v) == v &&
                  v >= static_cast<double>(min_value) && v < 9.2233720368547758e18;
    std::string got = is_int ? "" : describe(L_, -1);
    lua_pop(L_, 1);
    if (!is_int) {
      lua_pop(L_, 1);
      fail(key, fmt::format("element {} must be {}, got {}", i, int_requirement(min_value), got));
    }
    out.push_back(static_cast<long long>(v));
  }
  lua_pop(L_, 1);
  return out;
}

std::vector<std::string> Options::str_list(const char* key) const {
  std::vector<std::string> out;
  int t = push(key);
  if (t == LUA_TSTRING) {
    out.emplace_back(lua_tostring(L_, -1));
    lua_pop(L_, 1);
    return out;
  }
  if (t == LUA_TNIL) {
    lua_pop(L_, 1);
    return out;
  }
  if (t != LUA_TTABLE) {
    std::string got = describe(L_, -1);
    lua_pop(L_, 1);
    fail(key, "must be a string or an array of strings, got " + got);
  }
  int n = static_cast<int>(lua_objlen(L_, -1));
  for (int i = 1; i <= n; ++i) {
    lua_rawgeti(L_, -1, i);
    if (lua_type(L_, -1) != LUA_TSTRING) {
      std::string got = describe(L_, -1);
      lua_pop(L_, 2);
      fail(key, fmt::format("element {} must be a string, got {}", i, got));
    }
    out.emplace_back(lua_tostring(L_, -1));
    lua_pop(L_, 1);
  }
  lua_pop(L_, 1);
  return out;
}

nlohmann::json Options::json(const char* key) const {
  push(key);
  nlohmann::json j;
  try {
    j = to_json(L_, -1, fmt::format("{}option '{}'", prefix_, key));
  } catch (const Error& e) {
    lua_pop(L_, 1);
    throw Error(fname_, e.message);
  } catch (...) {
    lua_pop(L_, 1);
    throw;
  }
  lua_pop(L_, 1);
  return j;
}

// ---- option tables checked against a spec (rlx.options.check) ---------------------------------

namespace {

// The spec entry of one option, as rlx.options.check documents it.
struct OptionSpec {
  std::string type = "any";
  bool required = false;
  std::optional<double> min;
  std::vector<std::string> one_of;
};

OptionSpec read_spec(lua_State* L, int idx) {
  OptionSpec s;
  lua_getfield(L, idx, "type");
  if (lua_type(L, -1) == LUA_TSTRING) s.type = lua_tostring(L, -1);
  lua_getfield(L, idx, "required");
  s.required = lua_toboolean(L, -1);
  lua_getfield(L, idx, "min");
  if (lua_type(L, -1) == LUA_TNUMBER) s.min = lua_tonumber(L, -1);
  lua_getfield(L, idx, "one_of");
  if (lua_type(L, -1) == LUA_TTABLE) {
    int n = static_cast<int>(lua_objlen(L, -1));
    for (int i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      if (lua_type(L, -1) == LUA_TSTRING) s.one_of.emplace_back(lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 4);
  return s;
}

long long min_int(const OptionSpec& s) {
  return s.min ? static_cast<long long>(std::ceil(*s.min)) : LLONG_MIN;
}

// What a required option must be, for "option 'x' is required (...)".
std::string requirement(const OptionSpec& s) {
  if (!s.one_of.empty()) return "one of " + join(s.one_of);
  if (s.type == "integer") return int_requirement(min_int(s));
  if (s.type == "number") return s.min ? fmt::format("a number >= {}", *s.min) : "a number";
  if (s.type == "string") return "a string";
  if (s.type == "boolean") return "true or false";
  if (s.type == "int_list") return "an integer or an array of integers";
  if (s.type == "string_list") return "a string or an array of strings";
  if (s.type == "table") return "a table";
  if (s.type == "function") return "a function";
  return "a value";
}

void push_strings(lua_State* L, const std::vector<std::string>& v) {
  lua_createtable(L, static_cast<int>(v.size()), 0);
  for (size_t i = 0; i < v.size(); ++i) {
    lua_pushlstring(L, v[i].data(), v[i].size());
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
}

// Pushes the checked value of option `key` (present in the options table).
void push_checked(lua_State* L, const Options& o, const char* key, const OptionSpec& s) {
  if (s.type == "integer") {
    lua_pushnumber(L, static_cast<lua_Number>(*o.opt_integer(key, min_int(s))));
  } else if (s.type == "number") {
    o.push(key);
    bool ok = lua_type(L, -1) == LUA_TNUMBER && (!s.min || lua_tonumber(L, -1) >= *s.min);
    if (!ok) {
      std::string got = describe(L, -1);
      lua_pop(L, 1);
      o.fail(key, fmt::format("must be {}, got {}", requirement(s), got));
    }
  } else if (s.type == "string" && !s.one_of.empty()) {
    std::string v = o.choice(key, "", s.one_of);
    lua_pushlstring(L, v.data(), v.size());
  } else if (s.type == "string") {
    std::string v = *o.opt_str(key);
    lua_pushlstring(L, v.data(), v.size());
  } else if (s.type == "boolean") {
    lua_pushboolean(L, o.boolean(key, false));
  } else if (s.type == "int_list") {
    auto v = o.int_list(key, min_int(s));
    lua_createtable(L, static_cast<int>(v.size()), 0);
    for (size_t i = 0; i < v.size(); ++i) {
      lua_pushnumber(L, static_cast<lua_Number>(v[i]));
      lua_rawseti(L, -2, static_cast<int>(i + 1));
    }
  } else if (s.type == "string_list") {
    auto v = o.str_list(key);
    for (const auto& x : v)
      if (!s.one_of.empty() && std::find(s.one_of.begin(), s.one_of.end(), x) == s.one_of.end())
        o.fail(key, fmt::format("must be one of {}, got \"{}\"", join(s.one_of), x));
    push_strings(L, v);
  } else {
    int t = o.push(key);
    bool ok = s.type == "any" || (s.type == "table" && t == LUA_TTABLE) || (s.type == "function" && t == LUA_TFUNCTION);
    if (!ok) {
      std::string got = describe(L, -1);
      lua_pop(L, 1);
      o.fail(key, fmt::format("must be {}, got {}", requirement(s), got));
    }
  }
}

}  // namespace

int check_options(lua_State* L) {
  const std::string fname = check_string(L, 1);
  if (lua_type(L, 3) != LUA_TTABLE) throw Error("the spec (argument 3) must be a table");
  std::vector<std::string> keys;
  lua_pushnil(L);
  while (lua_next(L, 3) != 0) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) keys.emplace_back(lua_tostring(L, -1));
  }
  std::sort(keys.begin(), keys.end());
  Options o = Options::optional(L, 2, fname, keys);
  lua_createtable(L, 0, static_cast<int>(keys.size()));
  for (const auto& key : keys) {
    lua_getfield(L, 3, key.c_str());
    OptionSpec s = read_spec(L, lua_gettop(L));
    if (o.has(key.c_str())) {
      push_checked(L, o, key.c_str(), s);
    } else if (s.required) {
      o.fail(key.c_str(), "is required (" + requirement(s) + ")");
    } else {
      lua_getfield(L, -1, "default");
    }
    lua_setfield(L, -3, key.c_str());
    lua_pop(L, 1);  // the spec entry
  }
  return 1;
}

// ---- json <-> Lua -----------------------------------------------------------------------------

void push_json(lua_State* L, const nlohmann::json& j) {
  luaL_checkstack(L, 4, "rlx: json nesting too deep");
  switch (j.type()) {
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::discarded:
      lua_pushnil(L);
      break;
    case nlohmann::json::value_t::boolean:
      lua_pushboolean(L, j.get<bool>());
      break;
    case nlohmann::json::value_t::number_integer:
      lua_pushnumber(L, static_cast<lua_Number>(j.get<long long>()));
      break;
    case nlohmann::json::value_t::number_unsigned:
      lua_pushnumber(L, static_cast<lua_Number>(j.get<unsigned long long>()));
      break;
    case nlohmann::json::value_t::number_float:
      lua_pushnumber(L, j.get<double>());
      break;
    case nlohmann::json::value_t::string: {
      const auto& s = j.get_ref<const std::string&>();
      lua_pushlstring(L, s.data(), s.size());
      break;
    }
    case nlohmann::json::value_t::array: {
      lua_createtable(L, static_cast<int>(j.size()), 0);
      int i = 1;
      for (const auto& v : j) {
        push_json(L, v);
        lua_rawseti(L, -2, i++);
      }
      break;
    }
    case nlohmann::json::value_t::object: {
      lua_createtable(L, 0, static_cast<int>(j.size()));
      for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.value().is_null()) continue;
        push_json(L, it.value());
        lua_setfield(L, -2, it.key().c_str());
      }
      break;
    }
    case nlohmann::json::value_t::binary:
      lua_pushnil(L);
      break;
  }
}

// what: "" or the value's name with ": " ("option 'points': "), put before each message.
static nlohmann::json to_json_depth(lua_State* L, int idx, const std::string& what, int depth) {
  idx = abs_index(L, idx);
  if (depth > 64) throw Error(what + "table nested too deeply (or contains a cycle)");
  switch (lua_type(L, idx)) {
    case LUA_TNIL:
    case LUA_TNONE:
      return nullptr;
    case LUA_TBOOLEAN:
      return static_cast<bool>(lua_toboolean(L, idx));
    case LUA_TNUMBER: {
      double v = lua_tonumber(L, idx);
      if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.007199254740992e15)
        return static_cast<long long>(v);
      return v;
    }
    case LUA_TSTRING: {
      size_t n = 0;
      const char* s = lua_tolstring(L, idx, &n);
      return std::string(s, n);
    }
    case LUA_TTABLE: {
      size_t n = lua_objlen(L, idx);
      size_t count = 0;
      bool all_int = true;
      lua_pushnil(L);
      while (lua_next(L, idx) != 0) {
        ++count;
        if (lua_type(L, -2) != LUA_TNUMBER) all_int = false;
        lua_pop(L, 1);
      }
      if (count > 0 && all_int && count == n) {
        nlohmann::json arr = nlohmann::json::array();
        for (size_t i = 1; i <= n; ++i) {
          lua_rawgeti(L, idx, static_cast<int>(i));
          try {
            arr.push_back(to_json_depth(L, -1, what, depth + 1));
          } catch (...) {
            lua_pop(L, 1);
            throw;
          }
          lua_pop(L, 1);
        }
        return arr;
      }
      nlohmann::json obj = nlohmann::json::object();
      lua_pushnil(L);
      while (lua_next(L, idx) != 0) {
        std::string key;
        if (lua_type(L, -2) == LUA_TSTRING) {
          key = lua_tostring(L, -2);
        } else if (lua_type(L, -2) == LUA_TNUMBER) {
          key = fmt::format("{}", lua_tonumber(L, -2));
        } else {
          lua_pop(L, 2);
          throw Error(what + "table keys must be strings or numbers");
        }
        try {
          obj[key] = to_json_depth(L, -1, what, depth + 1);
        } catch (...) {
          lua_pop(L, 2);
          throw;
        }
        lua_pop(L, 1);
      }
      return obj;
    }
    default:
      throw Error(fmt::format("{}cannot convert a {} to data", what, type_name(L, idx)));
  }
}

nlohmann::json to_json(lua_State* L, int idx, const std::string& what) {
  return to_json_depth(L, idx, what.empty() ? what : what + ": ", 0);
}

std::string encode_json(lua_State* L, int idx, int indent) {
  return to_json(L, idx, "").dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

void decode_json(lua_State* L, int idx) {
  const std::string text = check_string(L, idx);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw Error(fmt::format("invalid JSON at byte {}", e.byte));
  }
  push_json(L, j);
}

std::string check_string(lua_State* L, int arg) {
  if (lua_type(L, arg) != LUA_TSTRING)
    throw Error(fmt::format("argument {} must be a string, got {}", arg, type_name(L, arg)));
  size_t n = 0;
  const char* s = lua_tolstring(L, arg, &n);
  return std::string(s, n);
}

double check_number(lua_State* L, int arg) {
  if (lua_type(L, arg) != LUA_TNUMBER)
    throw Error(fmt::format("argument {} must be a number, got {}", arg, type_name(L, arg)));
  return lua_tonumber(L, arg);
}

}  // namespace rlx::lua
