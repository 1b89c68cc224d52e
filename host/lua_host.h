// lua_host.h: owns the single lua_State of the process (main thread only) and runs code in it.
//
// Startup: open the standard libraries, create the global `rlx` with `rlx._core` holding every
// native binding, register each embedded module in package.preload (or, when RLX_SCRIPTS_DIR
// names a directory, a loader that reads scripts/rlx/... from there so edits need no rebuild),
// then require("rlx"), which builds the public tables from the natives.
// Errors: every chunk runs under a message handler that appends a traceback; run_* print
// "file:line: message" and the traceback to stderr and return the exit code the CLI uses (1 for
// any script error; a deliberate exit's own code, 1-255, printed as one line). Ctrl-C: on_sigint
// below stops running Lua code with exit 130; C++ loops poll util::interrupted().
#pragma once

#include <string>
#include <vector>

#include "set_args.h"

extern "C" {
#include <lua.h>
}

namespace rlx::host {

enum ExitCode { kExitOk = 0, kExitScriptError = 1, kExitUsage = 2, kExitInterrupted = 130 };

class LuaHost {
 public:
  // Creates the state and loads rlx (see the startup order above); throws if that fails.
  LuaHost();
  ~LuaHost();
  LuaHost(const LuaHost&) = delete;
  LuaHost& operator=(const LuaHost&) = delete;

  lua_State* state() { return L_; }
  // `--set k=v` pairs: rlx.params (values that parse as numbers become numbers) and rlx.params_text.
  void set_params(const std::vector<std::pair<std::string, std::string>>& params);
  void set_flag(const char* name, bool value);  // rlx.flags.<name>, e.g. dry_run
  void set_args(const std::string& script, const std::vector<std::string>& args);

  int run_file(const std::string& path);
  int run_string(const std::string& code, const std::string& chunkname);
  // Calls require(module).main(args...) for CLI subcommands implemented in Lua.
  int run_module_main(const std::string& module, const std::vector<std::string>& args);
  // Runs the function on top of the stack with nargs arguments under the traceback handler;
  // on error prints it and returns the exit code, leaving nothing on the stack. nresults as
  // lua_pcall. rlx.errors.exit_ok() returns kExitOk with nresults nils, as if nothing was returned.
  int pcall_report(int nargs, int nresults);

  // Whether a module of that name is embedded in the binary (RLX_SCRIPTS_DIR replaces the source
  // of embedded modules only: it adds none).
  bool has_module(const std::string& module) const;

 private:
  lua_State* L_;
};

// parse_number and the typing of --set values: set_args.h.

// The SIGINT callback (util::install_sigint_handler): async-signal-safe; sets a Lua debug hook on
// the live state that raises {exit_code = 130, message = "rlx: interrupted"} at the next
// instruction, as the standalone lua interpreter does.
void on_sigint();

}  // namespace rlx::host
