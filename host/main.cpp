// main.cpp: the rlx command line. Subcommands implemented here are the ones that set up the Lua
// state itself (run, -e, repl, version, help); every other subcommand `rlx NAME ...` is the Lua
// module scripts/rlx/cli/NAME.lua (dashes become underscores), whose main(...) gets the arguments.
// Exit codes: 0 success, 1 script error, 2 usage error.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "lua_bind.h"
#include "lua_host.h"
#include "repl.h"
#include "set_args.h"
#include "startup/startup.h"
#include "libtorch/tensor_library.h"
#include "supervise.h"
#include "util/interrupt.h"
#include "util/printable.h"

using rlx::host::kExitOk;
using rlx::host::kExitUsage;
using rlx::host::LuaHost;

namespace {

const char* kUsage = R"(usage: rlx <command> [options]

Run DNN performance studies written in Lua.

Commands:
  run FILE.lua [--set k=v]... [--dry-run] [-- ARGS]   run a Lua script
  -e 'CODE' [--set k=v]...                           run a line of Lua
  repl [--set k=v]... [--db PATH [--write]]          interactive Lua with rlx loaded (--db read-only)
  help [COMMAND]                                     this text, or a command's help
)";

struct Common {
  std::vector<std::pair<std::string, std::string>> params;
  bool dry_run = false;
  bool help = false;
};

int usage_error(const std::string& msg, const char* cmd = nullptr) {
  std::cerr << "rlx: " << rlx::util::printable(msg) << "\n";
  std::cerr << "Try 'rlx " << (cmd ? std::string(cmd) + " --help" : std::string("--help")) << "'.\n";
  return kExitUsage;
}

void print_help(LuaHost& host) {
  std::cout << kUsage;
  // Subcommands written in Lua describe themselves with a `summary` field.
  std::string code = R"(
    local names = {}
    for _, m in ipairs(rlx._core.host.modules()) do
      local n = m:match("^rlx%.cli%.(.+)$")
      if n and not n:match("^_") then names[#names + 1] = n end
    end
    table.sort(names)
    for _, n in ipairs(names) do
      local ok, mod = pcall(require, "rlx.cli." .. n)
      if ok and type(mod) == "table" and mod.summary then
        io.write(string.format("  %-50s %s\n", (mod.synopsis or n:gsub("_", "-")), mod.summary))
      end
    end
  )";
  host.run_string(code, "=help");
  std::cout << R"(
Global:
  -h, --help      show help (also after any command: rlx models --help)
  --version       same as 'rlx version'

Environment:
  RLX_SCRIPTS_DIR  load rlx's Lua modules from this scripts/ directory instead of the copies
                   built into the binary (edit scripts/rlx/*.lua without rebuilding)
  OPENBLAS_CORETYPE, RLX_BLAS_AUTO
                   OpenBLAS's kernel set: when OpenBLAS would fall back to a generic one on a CPU
                   whose flags allow better, rlx checks the better one and sets OPENBLAS_CORETYPE
                   before it loads LibTorch; yours is always kept; RLX_BLAS_AUTO=0 turns this off
  RLX_SUPERVISE=0  run, -e and shard work in one process instead of a child whose death
                   (SIGKILL, the OOM killer, a crash) the waiting parent records for the sweep
  OMP_WAIT_POLICY, GOMP_SPINCOUNT
                   how OpenMP threads wait: when neither is set, the commands that train (run,
                   -e, shard, train, peaks, repl) sample the load for 80 ms before they load
                   LibTorch and, when other processes keep half a core or more busy, set a
                   GOMP_SPINCOUNT of about 0.27 ms of spinning, worked out from a spin timed on
                   this core (a long spin holds a core the other thread needs); yours is kept;
                   a value OpenMP would refuse is ignored with a warning, as if unset
  OMP_NUM_THREADS  the training's default threads; at most 8 per hardware thread, as --threads
  OPENBLAS_NUM_THREADS, MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_, GLIBC_TUNABLES
                   when set, rlx keeps its hands off; otherwise it keeps freed training buffers
                   in the process and runs OpenBLAS on the training's threads (OpenMP build) or
                   on 1 thread (pthreads build); 'rlx version' shows what it did
  RLX_HUGE_PAGES=1 the training heap in transparent huge pages where the kernel gives them on
                   request (madvise): the commands that train restart once with
                   GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (faster for some models, either way
                   for others: docs/training.md, "Huge pages")
  LibTorch is loaded on first use, from librlx_torch.so beside the rlx executable: commands that
  never touch a tensor start without it (docs/training.md, "Start-up").

Exit status: 0 success, 1 script error, 2 usage error, 128 + N after signal N (130 Ctrl-C,
143 SIGTERM, 129 SIGHUP: the run being trained is discarded and its claim withdrawn; SIGTERM
and SIGHUP end rlx within 2 s, a second Ctrl-C at once: docs/cli.md, "Signals").
Documentation: docs/getting-started.md, docs/cli.md, docs/lua-api.md
)";
}

int cmd_run(const std::vector<std::string>& a) {
  Common c;
  std::string file;
  std::vector<std::string> script_args;
  for (size_t i = 0; i < a.size(); ++i) {
    std::string err;
    if ((a[i] == "-h" || a[i] == "--help") && !file.empty()) {
      c.help = true;  // the script's own help: rlx.params.declare prints its parameters
    } else if (a[i] == "-h" || a[i] == "--help") {
      std::cout << "usage: rlx run FILE.lua [--set key=value]... [--dry-run] [-- script args]\n\n"
                   "Runs FILE.lua with the rlx global loaded. --set values reach the script as\n"
                   "rlx.params (numbers become numbers, true/false booleans); arguments after --\n"
                   "reach it as rlx.args (and arg). --dry-run sets rlx.flags.dry_run: study sweeps\n"
                   "list their matrix instead of running it. FILE.lua --help lists the script's\n"
                   "parameters when it declares them (rlx.params.declare).\n";
      return kExitOk;
    } else if (a[i] == "--set" || a[i].rfind("--set=", 0) == 0) {
      if (!rlx::host::take_set_arg(a, i, c.params, err)) return usage_error(err, "run");
    } else if (a[i] == "--dry-run") {
      c.dry_run = true;
    } else if (a[i] == "--") {
      script_args.assign(a.begin() + static_cast<long>(i) + 1, a.end());
      break;
    } else if (a[i].rfind("-", 0) == 0 && a[i] != "-") {
      return usage_error("unknown option '" + a[i] + "' for run", "run");
    } else if (file.empty()) {
      file = a[i];
    } else {
      script_args.push_back(a[i]);
    }
  }
  if (file.empty()) return usage_error("run needs a script: rlx run FILE.lua", "run");
  LuaHost host;
  host.set_params(c.params);
  host.set_flag("dry_run", c.dry_run);
  host.set_flag("help", c.help);
  host.set_args(file, script_args);
  if (!c.help) return host.run_file(file);
  // --help: the parameters the script declares (rlx.params.declare prints them); until it declares
  // them every action is disarmed, and a script that acts first or never declares is not run.
  if (int rc = host.run_string("require('rlx.params')._guard_help()", "=help"); rc != kExitOk) return rc;
  if (int rc = host.run_file(file); rc != kExitOk) return rc;
  return host.run_string("require('rlx.params')._help_end()", "=help");
}

int cmd_eval(const std::vector<std::string>& a) {
  Common c;
  std::string code;
  bool have_code = false;
  for (size_t i = 0; i < a.size(); ++i) {
    std::string err;
    if (a[i] == "-e") {
      if (i + 1 >= a.size()) return usage_error("-e needs a string of Lua code");
      code += (have_code ? "\n" : "") + a[++i];
      have_code = true;
    } else if (a[i] == "--set" || a[i].rfind("--set=", 0) == 0) {
      if (!rlx::host::take_set_arg(a, i, c.params, err)) return usage_error(err);
    } else {
      return usage_error("unexpected argument '" + a[i] + "' after -e");
    }
  }
  LuaHost host;
  host.set_params(c.params);
  host.set_args("-e", {});
  return host.run_string(code, "=(command line)");
}

int cmd_repl(const std::vector<std::string>& a) {
  Common c;
  bool write_db = false;
  for (size_t i = 0; i < a.size(); ++i) {
    std::string err;
    if (a[i] == "-h" || a[i] == "--help") {
      std::cout << "usage: rlx repl [--set key=value]... [--db PATH [--write]]\n\n"
                   "Interactive Lua with rlx loaded. A bare expression prints its value; tables are\n"
                   "pretty-printed; unfinished statements continue on the next line; Tab completes\n"
                   "rlx.* names; history is kept in ~/.rlx_history. --db PATH opens a database as\n"
                   "the global `db` (see rlx.db.open), and its only study as `study`, read-only: the\n"
                   "file is not changed (a read-only file works too). --write opens it for writing\n"
                   "instead (an older schema is migrated, this machine is recorded as a study does).\n"
                   "Reads stdin when it is not a terminal: then rlx.fail(N, msg) ends it with status N,\n"
                   "and it exits 1 if any chunk failed.\n";
      return kExitOk;
    } else if (a[i] == "--write") {
      write_db = true;
    } else if (a[i] == "--set" || a[i].rfind("--set=", 0) == 0) {
      if (!rlx::host::take_set_arg(a, i, c.params, err)) return usage_error(err, "repl");
    } else if (a[i] == "--db") {
      if (i + 1 >= a.size()) return usage_error("--db needs a path", "repl");
      c.params.emplace_back("db", a[++i]);
    } else {
      return usage_error("unknown argument '" + a[i] + "' for repl", "repl");
    }
  }
  const bool have_db =
      std::any_of(c.params.begin(), c.params.end(), [](const auto& p) { return p.first == "db"; });
  if (write_db && !have_db)
    return usage_error("--write needs --db PATH (the database to open for writing)", "repl");
  LuaHost host;
  host.set_params(c.params);
  host.set_args("repl", {});
  return rlx::host::run_repl(host, write_db);
}

}  // namespace

int main(int argc, char** argv) {
  // First of all, before any work that can take time (the start-up below, a restart, loading
  // LibTorch later): Ctrl-C, SIGTERM and SIGHUP set a flag and stop running Lua. A SIGINT the parent
  // left ignored (a background job of a script) is handled all the same; an ignored SIGHUP (nohup)
  // stays ignored (util/interrupt.h, docs/cli.md "Exit status").
  rlx::util::install_interrupt_handlers(rlx::host::on_sigint);
  // Then every start-up setting that must precede the work, decided from the command's traits; it
  // may start this program again (engine/startup/startup.h).
  const rlx::startup::Startup* start = nullptr;
  try {
    start = &rlx::startup::prepare_process(argc, argv);
  } catch (const rlx::util::Interrupted& e) {
    std::cerr << rlx::lua::interrupt_message(e) << "\n";
    return 128 + e.signal;
  } catch (const std::invalid_argument& e) {
    std::cerr << "rlx: " << rlx::util::printable(e.what()) << "\n";
    return kExitUsage;
  }
  // Commands that run sweeps continue in a child whose death (SIGKILL, the OOM killer, a crash)
  // the parent records over its claims (host/supervise.h); before any thread or Lua exists.
  if (argc > 1) rlx::host::supervise_command(argv[1]);
  // A study prints its plan on stdout and its progress on stderr, for half an hour: line-buffered,
  // `rlx run ... > log 2>&1` or `| tee` shows the plan when it is made and in order with the
  // progress, not when 4 KiB of stdout have piled up (a terminal is line-buffered anyway).
  if (start->traits.line_buffered) std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  // A signal during the start-up ends the process here, before any Lua runs (later ones stop Lua).
  if (rlx::util::interrupted()) {
    std::cerr << rlx::lua::interrupt_message(rlx::util::Interrupted(rlx::util::interrupt_exit_code() - 128))
              << "\n";
    return rlx::util::interrupt_exit_code();
  }
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.empty()) {
      std::cerr << kUsage;
      return kExitUsage;
    }
    const std::string cmd = args[0];
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
      LuaHost host;
      if (cmd == "help" && !rest.empty()) {
        std::string sub = rest[0];
        if (sub == "run" || sub == "repl") return sub == "run" ? cmd_run({"--help"}) : cmd_repl({"--help"});
        for (auto& ch : sub)
          if (ch == '-') ch = '_';
        if (!host.has_module("rlx.cli." + sub)) return usage_error("no such command '" + rest[0] + "'");
        return host.run_module_main("rlx.cli." + sub, {"--help"});
      }
      print_help(host);
      return kExitOk;
    }
    if (cmd == "run") return cmd_run(rest);
    // A rank of a data-parallel run, started by rlx itself (engine/train/data_parallel.h): no Lua.
    if (cmd == "_rank") return rlx::startup::tensor_library().run_rank();
    if (cmd == "-e") return cmd_eval(args);
    if (cmd == "repl") return cmd_repl(rest);
    if (cmd == "--version") return LuaHost().run_module_main("rlx.cli.version", {});
    if (cmd.rfind("-", 0) == 0) return usage_error("unknown option '" + cmd + "'");
    std::string sub = cmd;
    for (auto& ch : sub)
      if (ch == '-') ch = '_';
    LuaHost host;
    // A name that starts with "_" is a private module of cli/ (cli/_args.lua), not a command.
    if (sub.starts_with("_") || !host.has_module("rlx.cli." + sub))
      return usage_error("unknown command '" + cmd + "'");
    return host.run_module_main("rlx.cli." + sub, rest);
  } catch (const std::exception& e) {
    std::cerr << "rlx: " << rlx::util::printable(e.what(), true) << "\n";
    return rlx::host::kExitScriptError;
  }
}
