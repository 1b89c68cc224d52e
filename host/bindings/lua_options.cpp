// lua_options.cpp: option tables (lua::Options, lua_bind.h), read by the natives and, through
// rlx.options.check, by rlx's Lua functions against a spec: one reader, so every message reads alike.
#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "lua_bind.h"

namespace rlx::lua {

namespace {

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

void Options::fail(const char* key, const std::string& what, const std::string& code) const {
  Error e(fname_, fmt::format("{}option '{}' {}", prefix_, key, what));
  e.code = code;
  throw e;
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
  size_t n = 0;
  const char* p = lua_tolstring(L_, -1, &n);
  std::string v(p, n);
  lua_pop(L_, 1);
  // A C string ends at a NUL: a path or a title "a\0b" would silently become "a".
  if (const size_t at = v.find('\0'); at != std::string::npos)
    fail(key,
         fmt::format("contains a NUL byte (\\0) at byte {}, which would cut it there: remove it", at + 1));
  return v;
}

std::string Options::str(const char* key, const std::string& def) const {
  return opt_str(key).value_or(def);
}

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

double Options::number(const char* key, double def) const {
  return opt_number(key).value_or(def);
}

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
  if (!std::isfinite(v) || std::floor(v) != v || v < static_cast<double>(min_value) ||
      v >= 9.2233720368547758e18)
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

void Options::each(const char* key, const std::string& what, const std::string& element,
                   const std::function<Take(int)>& take) const {
  const int t = push(key);
  if (t == LUA_TNIL) {
    lua_pop(L_, 1);
    return;
  }
  if (t != LUA_TTABLE) {  // a single value
    const Take r = take(0);
    const std::string got = r == Take::ok ? "" : describe(L_, -1);
    lua_pop(L_, 1);
    if (r != Take::ok)
      fail(key, fmt::format("must be {}, got {}", r == Take::bad_type ? what : element, got));
    return;
  }
  const int n = static_cast<int>(lua_objlen(L_, -1));
  for (int i = 1; i <= n; ++i) {
    lua_rawgeti(L_, -1, i);
    const bool ok = take(i) == Take::ok;
    const std::string got = ok ? "" : describe(L_, -1);
    lua_pop(L_, 1);
    if (!ok) {
      lua_pop(L_, 1);
      fail(key, fmt::format("element {} must be {}, got {}", i, element, got));
    }
  }
  lua_pop(L_, 1);
}

std::vector<long long> Options::int_list(const char* key, long long min_value) const {
  std::vector<long long> out;
  each(key, "an integer or an array of integers", int_requirement(min_value), [&](int) {
    if (lua_type(L_, -1) != LUA_TNUMBER) return Take::bad_type;
    const double v = lua_tonumber(L_, -1);
    // 2^63 is the first double a long long cannot hold.
    if (!std::isfinite(v) || std::floor(v) != v || v < static_cast<double>(min_value) ||
        v >= 9.2233720368547758e18)
      return Take::bad_value;
    out.push_back(static_cast<long long>(v));
    return Take::ok;
  });
  return out;
}

std::vector<std::string> Options::str_list(const char* key) const {
  std::vector<std::string> out;
  each(key, "a string or an array of strings", "a string", [&](int) {
    if (lua_type(L_, -1) != LUA_TSTRING) return Take::bad_type;
    out.emplace_back(lua_tostring(L_, -1));
    return Take::ok;
  });
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
  std::optional<double> min, max;
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
  lua_getfield(L, idx, "max");
  if (lua_type(L, -1) == LUA_TNUMBER) s.max = lua_tonumber(L, -1);
  lua_getfield(L, idx, "one_of");
  if (lua_type(L, -1) == LUA_TTABLE) {
    int n = static_cast<int>(lua_objlen(L, -1));
    for (int i = 1; i <= n; ++i) {
      lua_rawgeti(L, -1, i);
      if (lua_type(L, -1) == LUA_TSTRING) s.one_of.emplace_back(lua_tostring(L, -1));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 5);
  return s;
}

long long min_int(const OptionSpec& s) {
  return s.min ? static_cast<long long>(std::ceil(*s.min)) : LLONG_MIN;
}

// "an integer", "a number >= 0", "an integer from 1 to 8": a number kind with the spec's range.
std::string ranged(const char* kind, const OptionSpec& s) {
  if (s.min && s.max) return fmt::format("{} from {} to {}", kind, *s.min, *s.max);
  if (s.min) return fmt::format("{} >= {}", kind, *s.min);
  if (s.max) return fmt::format("{} <= {}", kind, *s.max);
  return kind;
}

// What an option must be, for "option 'x' must be ..." and "option 'x' is required (...)".
std::string requirement(const OptionSpec& s) {
  if (!s.one_of.empty()) return "one of " + join(s.one_of);
  if (s.type == "integer") return ranged("an integer", s);
  if (s.type == "number") return ranged("a number", s);
  if (s.type == "string") return "a string";
  if (s.type == "boolean") return "true or false";
  if (s.type == "int_list") return "an integer or an array of integers";
  if (s.type == "string_list") return "a string or an array of strings";
  if (s.type == "table") return "a table";
  if (s.type == "function") return "a function";
  return "a value";
}

// Whether v is inside the spec's range.
bool in_range(const OptionSpec& s, double v) {
  return (!s.min || v >= *s.min) && (!s.max || v <= *s.max);
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
    const long long v = *o.opt_integer(key, min_int(s));
    if (!in_range(s, static_cast<double>(v)))
      o.fail(key, fmt::format("must be {}, got {}", requirement(s), v));
    lua_pushnumber(L, static_cast<lua_Number>(v));
  } else if (s.type == "number") {
    o.push(key);
    bool ok = lua_type(L, -1) == LUA_TNUMBER && in_range(s, lua_tonumber(L, -1));
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
    for (size_t i = 0; i < v.size(); ++i)
      if (!in_range(s, static_cast<double>(v[i])))
        o.fail(key, fmt::format("element {} must be {}, got {}", i + 1, ranged("an integer", s), v[i]));
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
    bool ok = s.type == "any" || (s.type == "table" && t == LUA_TTABLE) ||
              (s.type == "function" && t == LUA_TFUNCTION);
    if (!ok) {
      std::string got = describe(L, -1);
      lua_pop(L, 1);
      o.fail(key, fmt::format("must be {}, got {}", requirement(s), got));
    }
  }
}

}  // namespace

int option_requirement(lua_State* L) {
  if (lua_type(L, 1) != LUA_TTABLE)
    throw Error(std::string("expected a spec entry (a table), got ") + type_name(L, 1));
  const std::string r = requirement(read_spec(L, 1));
  lua_pushlstring(L, r.data(), r.size());
  return 1;
}

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

}  // namespace rlx::lua
