// lua_json.cpp: json <-> Lua (lua_bind.h), the one conversion of values across the boundary and
// the codec behind rlx.json.encode/decode.
#include <fmt/format.h>
#include <cmath>

#include "lua_bind.h"

namespace rlx::lua {

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
    case LUA_TLIGHTUSERDATA:
      // rlx.json.null (a NULL light userdata): JSON null where a nil would leave the field out.
      if (lua_touserdata(L, idx) == nullptr) return nullptr;
      [[fallthrough]];
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

}  // namespace rlx::lua
