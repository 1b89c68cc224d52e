// repl.cpp: reads lines, hands them to rlx._repl.eval (scripts/rlx/_repl.lua) and keeps reading
// while it answers "incomplete". On a terminal it uses libedit for line editing, persistent
// history (~/.rlx_history) and Tab completion of rlx.* names, fields and methods (completion asks
// rlx._repl.complete, on this same thread). Results are printed by rlx._repl.eval: lists of records
// as tables (rlx.show), `?name` as that function's documentation (rlx.help). With stdin not a
// terminal it reads plain lines and prints no prompts; the exit status is then 1 if any chunk
// failed, so `... | rlx repl` can be used in scripts, and a deliberate exit (rlx.fail) ends it
// with its status, as it ends a script (at a terminal it is reported and the prompt goes on).
// Ctrl-C during an evaluation stops it (the Lua interrupt hook, lua_host.h) and returns to the
// prompt with the globals kept; Ctrl-C at the prompt discards the line being typed.
#include "repl.h"

#include <unistd.h>

#include <cerrno>
#include <csignal>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

extern "C" {
#include <editline/readline.h>
#include <lauxlib.h>
}

#include "util/interrupt.h"

namespace rlx::host {

namespace {

LuaHost* g_host = nullptr;  // completion callbacks have no user pointer
std::vector<std::string> g_matches;
bool g_prompt_interrupted = false;  // Ctrl-C at the prompt: discard the line being typed

// libedit's character reader: a Ctrl-C at the prompt interrupts read() (SIGINT is installed
// without SA_RESTART in the REPL) and ends the line, which the loop then discards.
int read_char(FILE*) {
  for (;;) {
    unsigned char c = 0;
    ssize_t n = read(STDIN_FILENO, &c, 1);
    if (n == 1) return c;
    if (n < 0 && errno == EINTR) {
      if (!util::interrupted()) continue;
      g_prompt_interrupted = true;
      return '\n';
    }
    return EOF;
  }
}

// SIGINT must interrupt a blocking read at the prompt instead of restarting it.
void sigint_without_restart() {
  struct sigaction sa {};
  if (sigaction(SIGINT, nullptr, &sa) == 0) {
    sa.sa_flags &= ~SA_RESTART;
    sigaction(SIGINT, &sa, nullptr);
  }
}

// After an evaluation or a prompt: the Ctrl-C has been handled, so neither the flag (polled by
// C++ loops) nor a pending Lua hook may carry over to the next line.
void forget_interrupt(lua_State* L) {
  lua_sethook(L, nullptr, 0, 0);
  util::clear_interrupt();
}

// Calls rlx._repl.<fn>(arg) and returns its first result as a string ("" on error).
std::string call_repl(LuaHost& host, const char* fn, const std::string& arg) {
  lua_State* L = host.state();
  lua_getglobal(L, "require");
  lua_pushstring(L, "rlx._repl");
  if (host.pcall_report(1, 1) != kExitOk) return "error";
  lua_getfield(L, -1, fn);
  lua_remove(L, -2);
  lua_pushlstring(L, arg.data(), arg.size());
  if (host.pcall_report(1, 1) != kExitOk) return "error";
  std::string out = lua_tostring(L, -1) ? lua_tostring(L, -1) : "";
  lua_pop(L, 1);
  return out;
}

char* completion_generator(const char*, int state) {
  if (state < 0 || static_cast<size_t>(state) >= g_matches.size()) return nullptr;
  return strdup(g_matches[static_cast<size_t>(state)].c_str());
}

char** complete(const char* text, int, int) {
  rl_attempted_completion_over = 1;
  // A Lua name is usually followed by '.', ':', '(' or '{', never a space: add nothing.
  rl_completion_append_character = '\0';
  g_matches.clear();
  if (!g_host) return nullptr;
  // rlx._repl.complete returns the candidates joined by newlines.
  std::string all = call_repl(*g_host, "complete", text);
  size_t pos = 0;
  while (pos < all.size()) {
    size_t nl = all.find('\n', pos);
    if (nl == std::string::npos) nl = all.size();
    if (nl > pos) g_matches.push_back(all.substr(pos, nl - pos));
    pos = nl + 1;
  }
  if (g_matches.empty()) return nullptr;
  return rl_completion_matches(text, completion_generator);
}

std::string history_path() {
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.rlx_history";
}

}  // namespace

int run_repl(LuaHost& host, bool write_db) {
  const bool tty = isatty(STDIN_FILENO);
  g_host = &host;
  std::string hist = history_path();
  if (tty) {
    rl_readline_name = const_cast<char*>("rlx");
    rl_basic_word_break_characters = const_cast<char*>(" \t\n\"\\'`@$><=;|&{(,+-*/%^#~[]");
    rl_attempted_completion_function = complete;
    rl_catch_signals = 0;
    rl_getc_function = read_char;
    sigint_without_restart();
    using_history();
    read_history(hist.c_str());
    std::cout << "rlx repl: Lua with rlx loaded; help() lists the tables, ?rlx.train shows a function's "
                 "docs, Tab completes, Ctrl-D exits\n";
  }
  // `rlx repl --db PATH`: open the database (and its study) as globals before the first line.
  // Read-only unless --write (rlx._repl.start's mode words).
  const std::string mode = std::string(tty ? "tty" : "") + (write_db ? " write" : "");
  if (call_repl(host, "start", mode) == "error") {
    g_host = nullptr;
    return kExitScriptError;
  }
  std::string buffer;
  bool any_error = false;
  for (;;) {
    std::string line;
    if (tty) {
      char* raw = readline(buffer.empty() ? "rlx> " : "...> ");
      if (!raw) {
        std::cout << "\n";
        break;
      }
      line = raw;
      free(raw);
      if (util::interrupt_must_end()) {  // SIGTERM, SIGHUP at the prompt: the REPL ends (below)
        std::cerr << "\nrlx: stopped by " << util::interrupt_signal_text(util::interrupt_signal()) << "\n";
        break;
      }
      if (g_prompt_interrupted) {  // Ctrl-C at the prompt clears the line (and any continuation)
        g_prompt_interrupted = false;
        forget_interrupt(host.state());
        buffer.clear();
        continue;
      }
    } else if (!std::getline(std::cin, line)) {
      break;
    }
    buffer += (buffer.empty() ? "" : "\n") + line;
    if (buffer.find_first_not_of(" \t") == std::string::npos) {
      buffer.clear();
      continue;
    }
    std::string status = call_repl(host, "eval", buffer);
    if (util::interrupt_must_end()) break;  // SIGTERM, SIGHUP end the REPL, not the evaluation only
    const bool interrupted = util::interrupted();
    forget_interrupt(host.state());  // Ctrl-C during evaluation ends it, back at the prompt
    if (status == "incomplete") continue;
    // "exit N": a deliberate exit with input from a pipe ends the repl with status N; Ctrl-C's
    // exit error (130) only stopped this evaluation.
    if (status.rfind("exit ", 0) == 0 && !interrupted) {
      g_host = nullptr;
      return std::atoi(status.c_str() + 5);
    }
    if (tty) {
      add_history(buffer.c_str());
      write_history(hist.c_str());
    }
    if (status != "ok") any_error = true;
    buffer.clear();
    std::cout.flush();
  }
  if (util::interrupt_must_end()) {  // the evaluation printed why, or the prompt did
    g_host = nullptr;
    return util::interrupt_exit_code();
  }
  if (!buffer.empty()) {
    // Input ended inside an unfinished statement: report it as the compiler does.
    call_repl(host, "finish", buffer);
    any_error = true;
  }
  g_host = nullptr;
  return (!tty && any_error) ? kExitScriptError : kExitOk;
}

}  // namespace rlx::host
