// test_lua_bind.cpp: the binding helpers every native function relies on: exception conversion
// with the caller's position, the options checker's exact messages, json <-> Lua conversion, and
// that C++ destructors run when a Lua error unwinds through C++ frames (LuaJIT must be built with
// external unwinding; if it is not, these tests fail instead of the program leaking).
#include <catch2/catch.hpp>

#include "lua_bind.h"
#include "util/interrupt.h"

using rlx::lua::Options;

namespace {

struct State {
  lua_State* L = luaL_newstate();
  State() { luaL_openlibs(L); }
  ~State() { lua_close(L); }
  // Runs code as chunk "@test.lua"; returns "" on success or the error as text (a structured
  // error through its __tostring).
  std::string run(const std::string& code) {
    if (luaL_loadbuffer(L, code.data(), code.size(), "@test.lua") != 0 || lua_pcall(L, 0, 0, 0) != 0) {
      if (luaL_callmeta(L, -1, "__tostring")) lua_replace(L, -2);
      std::string msg = lua_tostring(L, -1) ? lua_tostring(L, -1) : "(non-string error)";
      lua_pop(L, 1);
      return msg;
    }
    return "";
  }
  // The field of the error a chunk raised (the error must be a table).
  std::string error_field(const std::string& code, const char* key) {
    std::string out = "(no error)";
    if (luaL_loadbuffer(L, code.data(), code.size(), "@test.lua") != 0 || lua_pcall(L, 0, 0, 0) != 0) {
      lua_getfield(L, -1, key);
      out = lua_tostring(L, -1) ? lua_tostring(L, -1) : "(nil)";
      lua_pop(L, 2);
    }
    return out;
  }
};

int throws_runtime_error(lua_State*) { throw std::runtime_error("disk on fire: check the cable"); }

// A failure that says its kind as data (util::CodedError), and an option refused with a code.
int throws_coded(lua_State*) {
  throw rlx::util::CodedError("database 'x.db' is read-only (not writable); open it with readonly=true",
                              "SQLITE_READONLY", "database 'x.db' is read-only (not writable)");
}
int refuses_chip(lua_State* L) {
  Options o(L, 1, {"chip"});
  o.fail("chip", "is invalid: CUPTI host API does not know chip 'XYZ1'", "unknown_chip");
}

// Options without a name: its errors carry the name the native was registered under.
int train_like(lua_State* L) {
  Options o(L, 1, {"batch", "model", "iters"});
  long long batch = o.integer("batch", 32, 1);
  std::string model = o.required_str("model");
  lua_pushnumber(L, static_cast<lua_Number>(batch));
  lua_pushstring(L, model.c_str());
  return 2;
}

int g_destroyed = 0;
struct Counted {
  ~Counted() { ++g_destroyed; }
};

int raises_with_live_object(lua_State* L) {
  Counted c;
  (void)c;
  return luaL_error(L, "lua error across C++ frames");
}

int calls_back_into_lua(lua_State* L) {
  Counted c;
  (void)c;
  lua_pushvalue(L, 1);
  lua_call(L, 0, 0);  // the callee raises; this frame must unwind with c destroyed
  return 0;
}

int throws_interrupted(lua_State*) { throw rlx::util::Interrupted(); }

// Calls argument 1 under lua_pcall and re-raises its error value unchanged.
int calls_protected(lua_State* L) {
  lua_pushvalue(L, 1);
  if (lua_pcall(L, 0, 0, 0) != 0) throw rlx::lua::Rethrow();
  return 0;
}

// Registers f as the global `name`, its public name (what errors carry) `public_name`.
void reg(State& s, const char* name, lua_CFunction f, const char* public_name) {
  rlx::lua::push_native(s.L, f, public_name);
  lua_setglobal(s.L, name);
}

// Registers f without a public name (a plain C function, no upvalue).
void reg(State& s, const char* name, lua_CFunction f) {
  lua_pushcfunction(s.L, f);
  lua_setglobal(s.L, name);
}

}  // namespace

TEST_CASE("a C++ exception becomes a Lua error at the caller's line, named by registration") {
  State s;
  reg(s, "boom", rlx::lua::guarded<throws_runtime_error>, "rlx.boom");
  CHECK(s.run("local x = 1\n\nboom()\n") == "test.lua:3: rlx.boom: disk on fire: check the cable");
}

TEST_CASE("a binding error is a structured table: fn, message, where, exit_code") {
  State s;
  reg(s, "train", rlx::lua::guarded<train_like>, "rlx.train");
  reg(s, "boom", rlx::lua::guarded<throws_runtime_error>, "rlx.boom");
  reg(s, "unnamed", rlx::lua::guarded<throws_runtime_error>);
  CHECK(s.error_field("\ntrain{model='x', batch=0}", "fn") == "rlx.train");
  CHECK(s.error_field("\ntrain{model='x', batch=0}", "message") == "option 'batch' must be an integer >= 1, got 0");
  CHECK(s.error_field("\ntrain{model='x', batch=0}", "where") == "test.lua:2");
  CHECK(s.error_field("train{model='x', batch=0}", "exit_code") == "(nil)");
  // fn is the registered name; the message is the exception's text whole, never parsed.
  CHECK(s.error_field("boom()", "fn") == "rlx.boom");
  CHECK(s.error_field("boom()", "message") == "disk on fire: check the cable");
  // A C function registered without a name raises errors without fn.
  CHECK(s.error_field("unnamed()", "fn") == "(nil)");
  CHECK(s.error_field("unnamed()", "message") == "disk on fire: check the cable");
}

TEST_CASE("a failure's kind crosses as the error table's code and cause, never as text (issue 53)") {
  State s;
  reg(s, "open", rlx::lua::guarded<throws_coded>, "rlx.db.open");
  reg(s, "list", rlx::lua::guarded<refuses_chip>, "rlx.counters.list");
  reg(s, "boom", rlx::lua::guarded<throws_runtime_error>, "rlx.boom");
  CHECK(s.error_field("open()", "code") == "SQLITE_READONLY");
  CHECK(s.error_field("open()", "cause") == "database 'x.db' is read-only (not writable)");
  CHECK(s.error_field("open()", "message") ==
        "database 'x.db' is read-only (not writable); open it with readonly=true");
  CHECK(s.run("local _, e = pcall(open) assert(e.usage == nil)") == "");
  CHECK(s.error_field("list{chip = 'XYZ1'}", "code") == "unknown_chip");
  CHECK(s.run("local _, e = pcall(list, {chip = 'XYZ1'}) assert(e.usage == true)") == "");
  CHECK(s.error_field("boom()", "code") == "(nil)");
  CHECK(s.error_field("boom()", "cause") == "(nil)");
}

TEST_CASE("register_module names each native rlx.<module>.<field> unless it names its public name") {
  State s;
  lua_newtable(s.L);
  lua_newtable(s.L);
  lua_setfield(s.L, -2, "_core");
  lua_setglobal(s.L, "rlx");
  rlx::lua::register_module(s.L, "thing",
                            {{"boom", rlx::lua::guarded<throws_runtime_error>},
                             {"train", rlx::lua::guarded<train_like>, "rlx.train"}});
  CHECK(s.run("rlx._core.thing.boom()") == "test.lua:1: rlx.thing.boom: disk on fire: check the cable");
  CHECK(s.run("rlx._core.thing.train{}") == "test.lua:1: rlx.train: option 'model' is required (a string)");
}

TEST_CASE("Ctrl-C inside a binding becomes exit 130") {
  State s;
  reg(s, "interrupted", rlx::lua::guarded<throws_interrupted>, "rlx.interrupted");
  CHECK(s.error_field("interrupted()", "exit_code") == "130");
  CHECK(s.error_field("interrupted()", "message") == "rlx: interrupted");
  CHECK(s.error_field("interrupted()", "fn") == "(nil)");  // an exit is no function's failure
}

TEST_CASE("a Lua error inside a callback is re-raised unchanged (Rethrow)") {
  State s;
  reg(s, "call_protected", rlx::lua::guarded<calls_protected>);
  CHECK(s.error_field("call_protected(function() error({exit_code = 130, message = 'stop'}) end)", "exit_code") ==
        "130");
  CHECK(s.run("call_protected(function() error('plain', 0) end)") == "plain");
}

TEST_CASE("options: values, defaults and exact error messages") {
  State s;
  reg(s, "train", rlx::lua::guarded<train_like>, "rlx.train");
  CHECK(s.run("local b, m = train{model='resnet18'}\nassert(b == 32 and m == 'resnet18')") == "");
  CHECK(s.run("local b = train{model='x', batch=4}\nassert(b == 4)") == "");
  CHECK(s.run("train{model='x', bacth=4}") ==
        "test.lua:1: rlx.train: unknown option 'bacth' (valid options: batch, iters, model)");
  CHECK(s.run("train{model='x', batch=0}") == "test.lua:1: rlx.train: option 'batch' must be an integer >= 1, got 0");
  CHECK(s.run("train{model='x', batch=2.5}") ==
        "test.lua:1: rlx.train: option 'batch' must be an integer >= 1, got 2.5");
  CHECK(s.run("train{model='x', batch='4'}") ==
        "test.lua:1: rlx.train: option 'batch' must be an integer >= 1, got \"4\"");
  CHECK(s.run("train{}") == "test.lua:1: rlx.train: option 'model' is required (a string)");
  CHECK(s.run("train(5)") == "test.lua:1: rlx.train: expected a table of options, got number");
  CHECK(s.run("train{model='x', [1]=2}") ==
        "test.lua:1: rlx.train: option keys must be names, got 1 (valid options: batch, iters, model)");
}

TEST_CASE("destructors run when a Lua error unwinds through C++ frames") {
  State s;
  reg(s, "raises", raises_with_live_object);
  reg(s, "calls", calls_back_into_lua);
  g_destroyed = 0;
  CHECK(s.run("raises()").find("lua error across C++ frames") != std::string::npos);
  CHECK(g_destroyed == 1);
  CHECK(s.run("calls(function() error('inner') end)").find("inner") != std::string::npos);
  CHECK(g_destroyed == 2);
}

TEST_CASE("json and Lua tables convert both ways") {
  State s;
  nlohmann::json j = {{"name", "resnet18"}, {"batch", 32}, {"ratio", 0.5}, {"ok", true},
                      {"samples", {0.25, 0.5}}, {"nested", {{"a", nlohmann::json::array()}}}};
  rlx::lua::push_json(s.L, j);
  lua_setglobal(s.L, "t");
  CHECK(s.run("assert(t.name == 'resnet18' and t.batch == 32 and t.ratio == 0.5 and t.ok == true)\n"
              "assert(#t.samples == 2 and t.samples[2] == 0.5)") == "");
  lua_getglobal(s.L, "t");
  nlohmann::json back = rlx::lua::to_json(s.L, -1);
  lua_pop(s.L, 1);
  CHECK(back["name"] == "resnet18");
  CHECK(back["batch"] == 32);
  CHECK(back["samples"][1] == 0.5);
  CHECK(s.run("f = function() end") == "");
  lua_getglobal(s.L, "f");
  CHECK_THROWS_WITH(rlx::lua::to_json(s.L, -1, "option 'f'"),
                    "option 'f': cannot convert a function to data");
  CHECK_THROWS_WITH(rlx::lua::to_json(s.L, -1), "cannot convert a function to data");
  lua_pop(s.L, 1);
}
