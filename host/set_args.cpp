// set_args.cpp: see set_args.h.
#include "set_args.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <regex>

#include <fmt/format.h>

#include "util/printable.h"

namespace rlx::host {
namespace {

// An integer literal ("9007199254740993") whose value a double cannot hold exactly, so reading it
// as a number would silently round it (issue 35 item 11).
bool inexact_integer(const std::string& s) {
  static const std::regex integer(R"([+-]?[0-9]+)");
  if (!std::regex_match(s, integer)) return false;
  std::string digits = s.substr(s.find_first_not_of("+-"));
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size() - 1));
  const double v = std::strtod(digits.c_str(), nullptr);
  return std::isfinite(v) && fmt::format("{:.0f}", v) != digits;
}

}  // namespace

bool take_set_arg(const std::vector<std::string>& args, size_t& i, SetPairs& out, std::string& err) {
  std::string kv;
  if (args[i] == "--set") {
    if (i + 1 >= args.size()) {
      err = "--set needs key=value";
      return false;
    }
    kv = args[++i];
  } else {
    kv = args[i].substr(6);  // after "--set="
  }
  const auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) {
    err = "--set expects key=value, got '" + kv + "'";
    return false;
  }
  std::string key = kv.substr(0, eq);
  if (key == "declare") {
    // rlx.params.declare is the function a script checks its parameters with; a value stored
    // under that name would hide it ("attempt to call field 'declare' (a number value)").
    err = "--set declare=...: 'declare' is reserved (rlx.params.declare); give the parameter another name";
    return false;
  }
  std::string value = kv.substr(eq + 1);
  if (util::has_control_characters(kv)) {
    // It would reach the terminal and the database as raw bytes: an escape sequence retitles the
    // window, a line break splits a stored name (issue 35 item 4).
    err = "--set " + util::printable(kv) +
          ": the key or value holds a control character (shown as \\ddd; a line break, a tab, ESC): "
          "type it without";
    return false;
  }
  if (inexact_integer(value)) {
    err = "--set " + kv + ": " + value +
          " is an integer beyond 2^53 (9007199254740992), which a double (Lua's numbers) cannot hold "
          "exactly: it would be rounded; give a smaller number";
    return false;
  }
  out.emplace_back(std::move(key), std::move(value));
  return true;
}

bool parse_number(const std::string& s, double* out) {
  // Decimal syntax only: strtod alone would also take hex, inf, nan and leading blanks.
  static const std::regex decimal(R"([+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)");
  if (!std::regex_match(s, decimal)) return false;
  const double v = std::strtod(s.c_str(), nullptr);
  if (!std::isfinite(v)) return false;
  *out = v;
  return true;
}

void push_set_params(lua_State* L, int params_index, int text_index, const SetPairs& params) {
  params_index = params_index < 0 ? lua_gettop(L) + params_index + 1 : params_index;
  text_index = text_index < 0 ? lua_gettop(L) + text_index + 1 : text_index;
  for (const auto& [k, v] : params) {
    double num = 0;
    lua_pushlstring(L, k.data(), k.size());
    if (parse_number(v, &num))
      lua_pushnumber(L, num);
    else if (v == "true" || v == "false")
      lua_pushboolean(L, v == "true");
    else
      lua_pushlstring(L, v.data(), v.size());
    lua_rawset(L, params_index);
    lua_pushlstring(L, k.data(), k.size());
    lua_pushlstring(L, v.data(), v.size());
    lua_rawset(L, text_index);
  }
}

}  // namespace rlx::host
