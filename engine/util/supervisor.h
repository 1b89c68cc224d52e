// supervisor.h: the rest of the program runs in a child process, and the parent waits for it, so
// that a death the dying process cannot report itself is still seen with its cause (issue 25).
//
// A sweep claims a slot in the database before it trains it (store/claims.cpp). When the process
// then dies, the claim stays `running`; the next sweep finds its process gone and calls the slot
// crashed. What killed it is known only to the process's parent: the exit status (a signal such
// as SIGKILL or SIGSEGV, or an exit code from an exit() deep in a library or an os.exit in a
// trainer), and, with the memory cgroup's oom_kill count read before and after, whether that
// SIGKILL was the kernel's OOM killer. So `rlx run` forks once at start, before any thread, library
// state or Lua exists: the child does the work, the parent only waits and forwards signals.
//
//   - The child is told what it claimed through a pipe (tell_supervisor: one line per message);
//     after the child ends the parent hands the lines and the exit status to on_end, which records
//     the death over the claims that are still `running` (host/supervise.cpp).
//   - Signals sent to the parent alone (kill PID, a Python Popen.terminate, `timeout --foreground`)
//     are forwarded to the child: INT, TERM, HUP, QUIT, USR1, USR2. A signal from the terminal
//     (Ctrl-C, Ctrl-\) already reaches both, being sent to the foreground process group, and is
//     not forwarded again.
//   - The child gets SIGKILL when the parent dies (PR_SET_PDEATHSIG), so `kill -9 PID` of the
//     parent still ends the work as before.
//   - The parent exits as the child did: the same exit code, or the same signal re-raised (without
//     a core dump of its own), so callers see one process.
// RLX_SUPERVISE=0 runs without a parent (a debugger, a profiler attaching by pid); a failed fork
// does the same.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

namespace rlx::util {

// How the child ended.
struct ChildEnd {
  pid_t pid = 0;
  bool exited = false;  // exit(code) or a return from main
  int exit_code = 0;    // when exited
  int signal = 0;       // when killed by a signal
  bool core_dumped = false;
  std::vector<std::string> messages;  // the lines the child sent with tell_supervisor, in order
};

// In the child: returns at once (with RLX_SUPERVISE=0 or when fork fails, this process simply
// goes on unsupervised). In the parent: waits for the child, calls on_end(end) and exits as the
// child did; never returns. Call it before any thread exists.
void supervise(const std::function<void(const ChildEnd&)>& on_end);

// True in a child that has a supervising parent.
bool supervised();

// Sends one line (no newline in it) to the supervising parent; a no-op without one. Never blocks:
// a full pipe drops the line.
void tell_supervisor(const std::string& line);

// "SIGKILL", "SIGSEGV", ...; "signal N" for others.
std::string signal_name(int signal);

}  // namespace rlx::util
