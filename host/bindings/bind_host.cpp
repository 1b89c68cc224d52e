// bind_host.cpp: rlx._core.host: what this binary is (versions of rlx and every library it was
// built with, whether CUDA and CUPTI support are compiled in), which Lua modules and reference
// pages (docs/lua-api, for help()) it embeds, JSON text <-> Lua values (rlx.json, the one JSON
// codec), and the pieces of lua_bind.h that Lua modules share with the bindings: the caller's
// position, the structured error metatable and the option checker (rlx.options).
#include <cairo.h>
#include <fmt/format.h>
#include <sqlite3.h>
#include <chrono>

#include "embedded_docs.h"
#include "embedded_scripts.h"
#include "lua_bind.h"
#include "registry.h"
#include "rlx_build_info.h"

extern "C" {
#include <luajit.h>
}

#ifdef RLX_HAVE_CUPTI
#include <cuda.h>
#include <cupti_version.h>
#endif

#include "platform/platform.h"
#include "set_args.h"
#include "startup/startup.h"
#include "libtorch/tensor_library.h"
#include "train/trainer.h"
#include "util/child_process.h"
#include "util/interrupt.h"

namespace rlx::bindings {
namespace {

// versions() -> what this binary was built with; loads nothing (`rlx report` asks for the rlx
// version alone).
int versions(lua_State* L) {
  nlohmann::json v = {
      {"rlx", RLX_VERSION},
      {"torch", RLX_TORCH_VERSION},  // from LibTorch's headers at configure time (rlx_build_info.h)
      {"luajit", LUAJIT_VERSION},
      {"lua", LUA_RELEASE},
      {"sqlite", sqlite3_libversion()},
      {"cairo", cairo_version_string()},
      {"fmt", fmt::format("{}.{}.{}", FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100)},
      {"compiler", RLX_COMPILER},
      {"build_type", RLX_BUILD_TYPE},
      {"torch_cuda", RLX_TORCH_CUDA != 0},
      // The architecture, the vector ISA the kernels use and an emulator (engine/platform).
      {"arch", platform::arch_name()},
      {"isa", platform::isa_text(platform::cpu_features())},
      {"emulation", platform::emulation().kind.empty() ? nlohmann::json(nullptr)
                                                       : nlohmann::json(platform::emulation().kind)},
  };
#ifdef RLX_HAVE_CUPTI
  v["cuda"] = fmt::format("{}.{}", CUDA_VERSION / 1000, CUDA_VERSION % 1000 / 10);
  v["cupti"] = fmt::format("{}", CUPTI_API_VERSION);
#endif
  lua::push_json(L, v);
  return 1;
}

// runtime() -> {startup, tuning, blas, cudnn, framework}: what the training libraries run with in this
// process. Loads them first (engine/libtorch/tensor_library.h), so the start-up's choices for them
// are made and the BLAS is there to describe.
int runtime(lua_State* L) {
  const startup::TensorLibrary& lib = startup::tensor_library();
  const startup::Startup& start = startup::current();
  std::vector<std::string> tuning = startup::tuning_notes(start);
  tuning.emplace_back(lib.optimizer_note());
  const nlohmann::json s = startup::to_json(start);
  nlohmann::json v = {
      {"tuning", tuning},
      // What this process chose when it started, as fields (engine/startup/startup.h); each run's
      // result records the same ("startup"). Its OpenMP waiting is chosen from the load, so the
      // environment's id leaves it out.
      {"startup", s},
  };
  v["blas"] = s["blas"];
  for (const char* k : {"threads_choice", "threads_environment"}) v["blas"].erase(k);
  // The cuDNN the training uses (LibTorch's own), only in a CUDA build: rlx.env.capture records it.
  if (const std::string cudnn = lib.cudnn_version(); !cudnn.empty()) v["cudnn"] = cudnn;
  // The framework as data (issue 51): part of every environment and its id.
  v["framework"] = lib.framework();
  lua::push_json(L, v);
  return 1;
}

int modules(lua_State* L) {
  lua_newtable(L);
  int i = 1;
  for (const auto& s : host::embedded_scripts()) {
    lua_pushstring(L, s.module);
    lua_rawseti(L, -2, i++);
  }
  return 1;
}

// docs() -> {{path =, text =}, ...}: the Lua API reference pages embedded at build time.
int docs(lua_State* L) {
  lua_newtable(L);
  int i = 1;
  for (const auto& d : host::embedded_docs()) {
    lua_createtable(L, 0, 2);
    lua_pushstring(L, d.path);
    lua_setfield(L, -2, "path");
    lua_pushlstring(L, d.text, d.size);
    lua_setfield(L, -2, "text");
    lua_rawseti(L, -2, i++);
  }
  return 1;
}

// The most spaces per level json_encode takes (rlx.json checks it first, with the same limit):
// nlohmann's dump grows its indent buffer only once, so an indent over 1024 wrote heap bytes.
constexpr double kMaxJsonIndent = 64;

// json_encode(value [, indent]): any Lua value without functions, as JSON text.
int json_encode(lua_State* L) {
  int indent = -1;
  if (lua_isnumber(L, 2)) {
    const double n = lua_tonumber(L, 2);
    if (!(n >= 0 && n <= kMaxJsonIndent) || n != static_cast<int>(n))
      throw lua::Error(
          fmt::format("the indent (argument 2) must be an integer from 0 to {} (spaces per level) or "
                      "nil (one line), got {}",
                      kMaxJsonIndent, n));
    indent = static_cast<int>(n);
  }
  const std::string text = lua::encode_json(L, 1, indent);
  lua_pushlstring(L, text.data(), text.size());
  return 1;
}

// json_decode(text): the Lua value; a parse error names the byte offset.
int json_decode(lua_State* L) {
  lua::decode_json(L, 1);
  return 1;
}

// where() -> "file:line" of the first caller outside rlx's own modules (lua_bind.h), or nil.
int where(lua_State* L) {
  std::string w = lua::caller_where(L);
  if (w.size() < 2) return 0;
  lua_pushlstring(L, w.data(), w.size() - 2);
  return 1;
}

// error_metatable() -> the metatable structured errors share (its __tostring is in C++).
int error_metatable(lua_State* L) {
  lua::push_error_metatable(L);
  return 1;
}

// exit_ok() -> the value that, raised, ends the program with status 0 (lua_bind.h push_exit_ok).
int exit_ok(lua_State* L) {
  lua::push_exit_ok(L);
  return 1;
}

// run(argv) -> exit status (128 + signal when a signal ended the child): the program argv[1] with
// the arguments argv[2..], no shell; Ctrl-C, SIGTERM and SIGHUP of rlx end it too, and then raise
// the interrupt here (util/child_process.h).
int run(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  std::vector<std::string> argv;
  for (int i = 1;; ++i) {
    lua_rawgeti(L, 1, i);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      break;
    }
    if (lua_type(L, -1) != LUA_TSTRING)
      throw lua::Error("argument " + std::to_string(i) + " of the command must be a string");
    argv.emplace_back(lua_tostring(L, -1));
    lua_pop(L, 1);
  }
  if (argv.empty()) throw lua::Error("the command is empty: give {program, arguments...}");
  const int status = util::run_child(argv);
  util::check_interrupt();
  lua_pushinteger(L, status);
  return 1;
}

// check_set("key=value") -> nil, or why `--set key=value` is refused (as rlx run refuses it).
int check_set(lua_State* L) {
  const std::vector<std::string> args = {"--set", lua::check_string(L, 1)};
  size_t i = 0;
  host::SetPairs pairs;
  std::string err;
  if (host::take_set_arg(args, i, pairs, err)) return 0;
  lua_pushlstring(L, err.data(), err.size());
  return 1;
}

// monotonic() -> seconds on a monotonic clock (differences time a run or a budget; the origin means
// nothing). rlx's one clock for durations (it used to sit in the database table).
int monotonic(lua_State* L) {
  auto t = std::chrono::steady_clock::now().time_since_epoch();
  lua_pushnumber(L, std::chrono::duration<double>(t).count());
  return 1;
}

// json_null() -> rlx.json.null, the value that encodes as JSON null (a NULL light userdata).
int json_null(lua_State* L) {
  lua_pushlightuserdata(L, nullptr);
  return 1;
}

// parse_decimal("2.5") -> 2.5, or nil for text that is no plain decimal number ("0x10", "inf",
// "1e999", " 5"): the one reader of numbers typed on a command line, --set and the CLI flags alike.
int parse_decimal(lua_State* L) {
  double v = 0;
  if (!host::parse_number(lua::check_string(L, 1), &v)) return 0;
  lua_pushnumber(L, v);
  return 1;
}

}  // namespace

void open_host(lua_State* L) {
  lua::register_module(L, "host",
                       {{"versions", lua::guarded<versions>},
                        {"runtime", lua::guarded<runtime>},
                        {"modules", lua::guarded<modules>},
                        {"docs", lua::guarded<docs>},
                        {"json_encode", lua::guarded<json_encode>, "rlx.json.encode"},
                        {"json_decode", lua::guarded<json_decode>, "rlx.json.decode"},
                        {"where", lua::guarded<where>},
                        {"error_metatable", lua::guarded<error_metatable>},
                        {"exit_ok", lua::guarded<exit_ok>},
                        {"check_options", lua::guarded<lua::check_options>, "rlx.options.check"},
                        {"option_requirement", lua::guarded<lua::option_requirement>},
                        {"run", lua::guarded<run>},
                        {"check_set", lua::guarded<check_set>},
                        {"parse_decimal", lua::guarded<parse_decimal>},
                        {"json_null", lua::guarded<json_null>},
                        {"monotonic", lua::guarded<monotonic>}});
}

}  // namespace rlx::bindings
