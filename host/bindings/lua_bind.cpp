// lua_bind.cpp: the error protocol of lua_bind.h (caller positions, structured errors, natives
// registered under their public names) and the positional argument checks. Options tables are in
// lua_options.cpp, json <-> Lua in lua_json.cpp. Every binding file uses these; none re-implements
// them.
#include "lua_bind.h"

#include <fmt/format.h>

#include "util/interrupt.h"

namespace rlx::lua {

bool is_builtin_source(const char* source) {
  if (!source || source[0] != '@') return false;
  const std::string_view s(source + 1);
  return s.rfind("scripts/rlx/", 0) == 0 || s.find("/scripts/rlx/") != std::string_view::npos;
}

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

std::string interrupt_message(const util::Interrupted& e) {
  return e.signal == SIGINT ? std::string("rlx: interrupted") : "rlx: " + std::string(e.what());
}

CaughtError describe_exception(const std::exception& e) {
  CaughtError c;
  if (dynamic_cast<const Rethrow*>(&e)) {
    c.rethrow = true;
  } else if (const auto* in = dynamic_cast<const util::Interrupted*>(&e)) {
    c.message = interrupt_message(*in);
    c.exit_code = 128 + in->signal;
    c.interrupted = true;
  } else if (const auto* err = dynamic_cast<const Error*>(&e)) {
    c.fn = err->fn;
    c.message = err->message;
    c.exit_code = err->exit_code;
    c.usage = err->exit_code == 0;
    c.code = err->code;
  } else {
    c.message = e.what();
    c.usage = dynamic_cast<const std::invalid_argument*>(&e) != nullptr;
    if (const auto* coded = dynamic_cast<const util::CodedError*>(&e)) {
      c.code = coded->code;
      c.cause = coded->cause;
    }
  }
  return c;
}

void push_caught(lua_State* L, const CaughtError& caught) {
  if (caught.rethrow) return;
  // Ctrl-C ended the C++ work: the Lua-side interrupt hook must not fire a second time. SIGTERM
  // and SIGHUP keep it, counting only (util/interrupt.h): this error is their first raise, and
  // the hook goes on stopping a user's code that catches it.
  if (caught.interrupted) {
    const lua_Hook hook = lua_gethook(L);
    if (util::interrupt_must_end() && hook != nullptr) {
      util::note_end_raised();
      lua_sethook(L, hook, LUA_MASKCOUNT, 1);
    } else {
      lua_sethook(L, nullptr, 0, 0);
    }
  }
  std::string where = caller_where(L);
  if (where.size() >= 2) where.resize(where.size() - 2);  // "file:line" without ": "
  // A deliberate exit (Ctrl-C) is no function's failure: it keeps an empty fn.
  std::string fn = caught.fn.empty() && caught.exit_code == 0 ? fn_name(L) : caught.fn;
  push_error(L, fn, caught.message, caught.exit_code, where);
  if (caught.usage) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "usage");
  }
  for (const auto& [field, value] : {std::pair{"code", &caught.code}, std::pair{"cause", &caught.cause}}) {
    if (value->empty()) continue;
    lua_pushlstring(L, value->data(), value->size());
    lua_setfield(L, -2, field);
  }
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

int abs_index(lua_State* L, int idx) {
  return (idx > 0 || idx <= LUA_REGISTRYINDEX) ? idx : lua_gettop(L) + idx + 1;
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
