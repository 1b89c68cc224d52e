// lua_host.cpp: creating the Lua state, loading rlx's modules, running chunks with tracebacks.
// See lua_host.h for the startup order. Error values: a table whose exit_code is 1-255 (rlx.fail,
// usage errors 2, Ctrl-C 130) is a deliberate exit printed as its message, one line, without a
// traceback; every other value (a string, a structured error {fn, message, where}, any table or
// other value) is a script error: printed readably with a traceback, exit status 1.
#include "lua_host.h"

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

extern "C" {
#include <lauxlib.h>
#include <luajit.h>
#include <lualib.h>
}

#include "bindings/lua_bind.h"
#include "bindings/registry.h"
#include "embedded_scripts.h"
#include "util/printable.h"
#include "util/text_file.h"

namespace rlx::host {

namespace {

// A script rlx runs is read whole: 64 MiB is far beyond any study script (a model table with a
// layer per line is a few KB), and bounds a file that is not one.
constexpr uint64_t kMaxScriptBytes = uint64_t{64} << 20;

const char* scripts_dir() {
  const char* d = std::getenv("RLX_SCRIPTS_DIR");
  return (d && *d) ? d : nullptr;
}

const EmbeddedScript* find_embedded(const std::string& module) {
  for (const auto& s : embedded_scripts())
    if (module == s.module) return &s;
  return nullptr;
}

// Loads the source of embedded module s from RLX_SCRIPTS_DIR when set, else from the embedded copy;
// the chunk name is the file's path in the source tree. Pushes the chunk or the load error.
// Under RLX_SCRIPTS_DIR the file is read by the one rule for a user's files (util/text_file.h):
// luaL_loadfile waited forever on a FIFO (issue 56 item 4); a file that is not a regular one is a
// lua::Error of one line.
int load_source(lua_State* L, const EmbeddedScript& s) {
  if (const char* dir = scripts_dir()) {
    // RLX_SCRIPTS_DIR is the scripts/ directory of a source tree; chunk names stay real paths.
    const std::string path = std::string(dir) + "/" + (s.path + std::strlen("scripts/"));
    std::string source;
    try {
      source = util::read_user_file(path, "the module file", kMaxScriptBytes);
    } catch (const util::UserFileError& e) {
      throw lua::Error(std::string("RLX_SCRIPTS_DIR: ") + e.what());
    }
    return luaL_loadbuffer(L, source.data(), source.size(), ("@" + path).c_str());
  }
  const std::string chunk = std::string("@") + s.path;
  return luaL_loadbuffer(L, s.source, s.size, chunk.c_str());
}

// The fix every RLX_SCRIPTS_DIR problem names.
constexpr const char* kScriptsDirFix =
    "set it to the scripts/ directory of an rlx source tree, or unset it to use the built-in modules";

// Why RLX_SCRIPTS_DIR=dir cannot give the module file rel ("rlx/init.lua"), one line with the fix;
// "" when the file is there.
std::string scripts_dir_problem(const std::string& dir, const std::string& rel) {
  std::error_code ec;
  const std::string path = dir + "/" + rel;
  std::string why;
  if (!std::filesystem::exists(dir, ec))
    why = "no such directory";
  else if (!std::filesystem::is_directory(dir, ec))
    why = "it is a file, not a directory";
  else if (!std::filesystem::exists(path, ec))
    why = "no file " + path;
  else {
    // A FIFO or a device there would block the loader or never end: refused by the user-file rule.
    try {
      util::check_user_file(path, "the module file");
      return "";
    } catch (const util::UserFileError& e) {
      return "RLX_SCRIPTS_DIR='" + dir + "': " + e.what() + "; " + kScriptsDirFix;
    }
  }
  return "RLX_SCRIPTS_DIR='" + dir + "' has no " + rel + " (" + why + "): " + kScriptsDirFix;
}

// package.preload loader, registered with the module name as its name (lua::push_native): loads
// and runs the module. Runs under guarded, and no C++ object is alive when an error is raised: a
// file missing under RLX_SCRIPTS_DIR (one line: what is missing and the fix), a syntax error
// (Rethrow), or the module's own error.
int preload_loader(lua_State* L) {
  const EmbeddedScript* s = find_embedded(lua::fn_name(L));
  if (!s) throw lua::Error("no such embedded module");
  if (const char* dir = scripts_dir()) {
    const std::string problem = scripts_dir_problem(dir, s->path + std::strlen("scripts/"));
    if (!problem.empty()) throw lua::Error(problem);
  }
  if (load_source(L, *s) != 0) throw lua::Rethrow();  // the loader's message is on the stack
  lua_pushstring(L, s->module);
  lua_call(L, 1, 1);  // the module's own error unwinds from where it happened (for the traceback)
  return 1;
}

void register_preloads(lua_State* L) {
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  for (const auto& s : embedded_scripts()) {
    lua::push_native(L, lua::guarded<preload_loader>, s.module);
    lua_setfield(L, -2, s.module);
  }
  lua_pop(L, 2);
}

// Whether the error value at idx is rlx.errors.exit_ok()'s (lua::push_exit_ok): status 0, silent.
bool is_exit_ok(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return false;
  idx = lua::abs_index(L, idx);
  lua::push_exit_ok(L);
  const bool same = lua_rawequal(L, idx, -1);
  lua_pop(L, 1);
  return same;
}

// Whether the error value at idx is a deliberate exit: a table whose exit_code is an integer from
// 1 to 255 (rlx.fail, usage errors, Ctrl-C), printed as one line without a traceback, or exit_ok.
bool is_exit(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return false;
  if (is_exit_ok(L, idx)) return true;
  lua_getfield(L, idx, "exit_code");
  double code = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
  lua_pop(L, 1);
  return code >= 1 && code <= 255 && code == static_cast<int>(code);
}

// Pushes a readable text for any error value: strings as they are, tables through __tostring,
// else their message field, else rlx.inspect; other values by type.
void push_error_text(lua_State* L, int idx) {
  idx = lua::abs_index(L, idx);
  if (lua_type(L, idx) == LUA_TSTRING || lua_type(L, idx) == LUA_TNUMBER) {
    lua_pushstring(L, lua_tostring(L, idx));
    return;
  }
  // __tostring runs protected: one that fails was "error in error handling", the real error lost
  // (issue 25 finding 11).
  if (luaL_getmetafield(L, idx, "__tostring")) {
    lua_pushvalue(L, idx);
    if (lua_pcall(L, 1, 1, 0) == 0 && lua_type(L, -1) == LUA_TSTRING) return;
    const char* why = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "it returned no string";
    lua_pushfstring(L, "(an error object whose __tostring failed: %s)", why);
    lua_remove(L, -2);
    return;
  }
  if (lua_type(L, idx) == LUA_TTABLE) {
    lua_getfield(L, idx, "message");
    if (lua_type(L, -1) == LUA_TSTRING) return;
    lua_pop(L, 1);
    lua_getglobal(L, "rlx");
    if (lua_type(L, -1) == LUA_TTABLE) {
      lua_getfield(L, -1, "inspect");
      lua_remove(L, -2);
      lua_pushvalue(L, idx);
      if (lua_pcall(L, 1, 1, 0) == 0 && lua_type(L, -1) == LUA_TSTRING) {
        lua_pushfstring(L, "error object: %s", lua_tostring(L, -1));
        lua_remove(L, -2);
        return;
      }
    }
    lua_pop(L, 1);
  }
  lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, idx));
}

// Whether the error value at idx is an rlx refusal: a structured error with its function's name
// (`fn`), raised by a native or errors.raise. Its text already names the caller's line, the
// problem and the fix; a traceback would only show rlx's own frames (issue 35 item 11), so it is
// printed as one line unless RLX_TRACEBACK=1 asks for the traceback.
bool is_refusal(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE) return false;
  lua_getfield(L, idx, "fn");
  const bool named = lua_type(L, -1) == LUA_TSTRING;
  lua_pop(L, 1);
  const char* want = std::getenv("RLX_TRACEBACK");
  return named && !(want && std::strcmp(want, "1") == 0);
}

// Message handler: leaves deliberate exits (see is_exit) untouched; turns an rlx refusal into its
// one line, and every other error value into readable text with a traceback appended.
int traceback_handler(lua_State* L) {
  if (is_exit(L, 1)) return 1;
  push_error_text(L, 1);
  if (is_refusal(L, 1)) return 1;
  // LuaJIT's "stack overflow" names no line: add the innermost Lua line that overflowed, and the
  // usual cause (issue 25 finding 11).
  if (std::strcmp(lua_tostring(L, -1), "stack overflow") == 0) {
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar); ++level) {
      if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
        lua_pushfstring(L, "%s:%d: stack overflow (a function that calls itself without end?)", ar.short_src,
                        ar.currentline);
        lua_remove(L, -2);
        break;
      }
    }
  }
  // luaL_traceback exists in LuaJIT 2.1; it needs stack room, which a stack overflow may not leave.
  if (lua_checkstack(L, LUA_MINSTACK)) luaL_traceback(L, L, lua_tostring(L, -1), 1);
  return 1;
}

// The one lua_State of the process, for the SIGINT callback (see lua_host.h).
std::atomic<lua_State*> g_state{nullptr};

// Debug hook set by the signal handler: stops running Lua code with the interrupt's exit error.
// A Ctrl-C is raised once, where Lua is, and the hook removed: a script may catch it with pcall.
// SIGTERM and SIGHUP must end the process (util/interrupt.h): raised once where Lua is, then at
// every instruction of code that is not rlx's own, so a user's pcall loop is stopped again at
// once while rlx's modules finish their cleanup (withdrawing a claim) and pass the error on.
void interrupt_hook(lua_State* L, lua_Debug* ar) {
  if (!util::interrupt_must_end()) {
    lua_sethook(L, nullptr, 0, 0);
  } else if (!util::note_end_raised()) {
    // Counts only: a call hook would stop rlx's own calls of C functions (string.format) too.
    lua_sethook(L, interrupt_hook, LUA_MASKCOUNT, 1);
  } else if (lua_getinfo(L, "S", ar) != 0 && lua::is_builtin_source(ar->source)) {
    return;
  }
  const util::Interrupted why(util::interrupt_signal() == 0 ? SIGINT : util::interrupt_signal());
  lua::push_error(L, "", lua::interrupt_message(why), util::interrupt_exit_code(), "");
  lua_error(L);
}

}  // namespace

void on_sigint() {
  // lua_sethook only stores a few fields: safe from a signal handler (the standalone lua does it).
  if (lua_State* L = g_state.load())
    lua_sethook(L, interrupt_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

LuaHost::LuaHost() : L_(luaL_newstate()) {
  if (!L_) throw std::runtime_error("rlx: cannot create the Lua state (out of memory)");
  luaL_openlibs(L_);
  // Lua runs in LuaJIT's interpreter: a debug hook (how Ctrl-C stops Lua, see on_sigint) never
  // fires inside a JIT-compiled loop, so with the compiler on `while true do end` could not be
  // interrupted. rlx's Lua only orchestrates (the work is in C++); a script that wants compiled
  // speed may call jit.on() and loses Ctrl-C inside its hot loops (a second Ctrl-C still ends it).
  luaJIT_setmode(L_, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_OFF);
  lua_newtable(L_);  // rlx
  lua_newtable(L_);  // rlx._core
  lua_setfield(L_, -2, "_core");
  lua_newtable(L_);
  lua_setfield(L_, -2, "params");
  lua_newtable(L_);
  lua_setfield(L_, -2, "params_text");
  lua_newtable(L_);
  lua_setfield(L_, -2, "flags");
  lua_setglobal(L_, "rlx");
  bindings::open_all(L_);
  register_preloads(L_);
  // require("rlx") builds the public API from rlx._core and returns the same global table. A bad
  // RLX_SCRIPTS_DIR is one line (main prints it after "rlx: "), not a traceback of the loader.
  const char* dir = scripts_dir();
  if (dir) {
    const std::string problem = scripts_dir_problem(dir, "rlx/init.lua");
    if (!problem.empty()) {
      lua_close(L_);
      throw std::runtime_error(problem);
    }
  }
  lua_getglobal(L_, "require");
  lua_pushstring(L_, "rlx");
  if (pcall_report(1, 0) != kExitOk) {
    lua_close(L_);
    // pcall_report printed the error; this line says whose module it was.
    throw std::runtime_error(
        dir ? "the module 'rlx' from RLX_SCRIPTS_DIR='" + std::string(dir) +
                  "' failed to load (the error above): fix it, or unset RLX_SCRIPTS_DIR to use "
                  "the built-in modules"
            : std::string("the built-in module 'rlx' failed to load (the error above)"));
  }
  g_state.store(L_);
  // A signal that came while the state was made found no state to stop: stop its first instruction.
  if (util::interrupted()) on_sigint();
}

LuaHost::~LuaHost() {
  g_state.store(nullptr);
  lua_sethook(L_, nullptr, 0, 0);  // finalizers that are Lua functions run to their end
  lua_close(L_);
}

void LuaHost::set_params(const std::vector<std::pair<std::string, std::string>>& params) {
  lua_getglobal(L_, "rlx");
  lua_getfield(L_, -1, "params");
  lua_getfield(L_, -2, "params_text");
  push_set_params(L_, -2, -1, params);
  lua_pop(L_, 3);
}

void LuaHost::set_flag(const char* name, bool value) {
  lua_getglobal(L_, "rlx");
  lua_getfield(L_, -1, "flags");
  lua_pushboolean(L_, value);
  lua_setfield(L_, -2, name);
  lua_pop(L_, 2);
}

void LuaHost::set_args(const std::string& script, const std::vector<std::string>& args) {
  lua_createtable(L_, static_cast<int>(args.size()), 1);
  lua_pushstring(L_, script.c_str());
  lua_rawseti(L_, -2, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    lua_pushstring(L_, args[i].c_str());
    lua_rawseti(L_, -2, static_cast<int>(i + 1));
  }
  lua_pushvalue(L_, -1);
  lua_setglobal(L_, "arg");
  lua_getglobal(L_, "rlx");
  lua_insert(L_, -2);
  lua_setfield(L_, -2, "args");
  lua_pop(L_, 1);
}

int LuaHost::pcall_report(int nargs, int nresults) {
  int base = lua_gettop(L_) - nargs;
  lua_pushcfunction(L_, traceback_handler);
  lua_insert(L_, base);
  int rc = lua_pcall(L_, nargs, nresults, base);
  lua_remove(L_, base);
  if (rc == 0) return kExitOk;
  // After the handler the value is a deliberate exit (a table) or readable text.
  int code = kExitScriptError;
  if (is_exit_ok(L_, -1)) {
    lua_pop(L_, 1);
    for (int i = 0; i < nresults; ++i) lua_pushnil(L_);  // as a call that returned nothing
    return kExitOk;
  }
  if (is_exit(L_, -1)) {
    lua_getfield(L_, -1, "exit_code");
    code = static_cast<int>(lua_tointeger(L_, -1));
    lua_pop(L_, 1);
    lua_getfield(L_, -1, "message");  // a deliberate exit prints its message alone
    if (lua_type(L_, -1) != LUA_TSTRING) {
      lua_pop(L_, 1);
      lua_pushfstring(L_, "rlx: exit status %d (the error gave no message)", code);
    }
  } else if (rc == LUA_ERRERR && lua_type(L_, -1) == LUA_TSTRING &&
             std::strcmp(lua_tostring(L_, -1), "stack overflow") == 0) {
    // The stack was so full that not even the message handler could run (traceback_handler).
    lua_pushstring(
        L_,
        "stack overflow (a function that calls itself without end?); the stack was too full to say "
        "where");
  } else {
    push_error_text(L_, -1);
  }
  // The message may quote a user's text (a model name, a --set value): escaped, lines kept.
  const char* m = lua_tostring(L_, -1);
  if (m && *m) std::cerr << util::printable(m, true) << "\n";
  lua_pop(L_, 2);
  return code;
}

int LuaHost::run_file(const std::string& path) {
  if (!std::filesystem::exists(path)) {
    std::cerr << "rlx: cannot open " << util::printable(path) << ": no such file\n";
    return kExitUsage;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    std::cerr << "rlx: '" << util::printable(path)
              << "' is a directory, not a script: give the path of a Lua file (rlx run FILE.lua)\n";
    return kExitUsage;
  }
  // The one rule for a user's files (util/text_file.h): `rlx run FIFO` used to wait for a writer
  // forever, and a link to /dev/zero to read until memory ran out.
  std::string source;
  try {
    source = util::read_user_file(path, "the script", kMaxScriptBytes);
  } catch (const util::UserFileError& e) {
    std::cerr << "rlx: " << util::printable(e.what()) << "\n";
    return kExitUsage;
  }
  const std::string chunkname = "@" + path;
  if (luaL_loadbuffer(L_, source.data(), source.size(), chunkname.c_str()) != 0) {
    std::cerr << util::printable(lua_tostring(L_, -1), true) << "\n";
    lua_pop(L_, 1);
    return kExitScriptError;
  }
  return pcall_report(0, 0);
}

int LuaHost::run_string(const std::string& code, const std::string& chunkname) {
  if (luaL_loadbuffer(L_, code.data(), code.size(), chunkname.c_str()) != 0) {
    std::cerr << util::printable(lua_tostring(L_, -1), true) << "\n";
    lua_pop(L_, 1);
    return kExitScriptError;
  }
  return pcall_report(0, 0);
}

bool LuaHost::has_module(const std::string& module) const {
  return find_embedded(module) != nullptr;
}

int LuaHost::run_module_main(const std::string& module, const std::vector<std::string>& args) {
  lua_getglobal(L_, "require");
  lua_pushstring(L_, module.c_str());
  if (int rc = pcall_report(1, 1); rc != kExitOk) return rc;
  lua_getfield(L_, -1, "main");
  lua_remove(L_, -2);
  for (const auto& a : args) lua_pushstring(L_, a.c_str());
  int rc = pcall_report(static_cast<int>(args.size()), 1);
  if (rc != kExitOk) return rc;
  // main may return an exit code.
  int code = lua_isnumber(L_, -1) ? static_cast<int>(lua_tointeger(L_, -1)) : kExitOk;
  lua_pop(L_, 1);
  return code;
}

}  // namespace rlx::host
