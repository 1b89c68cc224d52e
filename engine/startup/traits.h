// traits.h: what each rlx command needs from the start of the process, in one table that
// host/main.cpp (the start-up choices, stdout's buffering) and host/supervise.cpp (the waiting
// parent) both read, so no list of command names is written twice (issue 47).
#pragma once

#include <string_view>

namespace rlx::startup {

struct CommandTraits {
  // Trains or times work on the CPU (a study, `rlx train`, `rlx peaks`): the start-up chooses how
  // OpenMP threads wait and whether the heap is in huge pages for it (startup.h).
  bool trains = false;
  // Runs sweeps in a child process whose death the waiting parent records over its claims
  // (host/supervise.h).
  bool supervised = false;
  // Prints a plan and progress for a long time: stdout is line-buffered, so `> log 2>&1` or
  // `| tee` shows each line when it is made, in order with stderr.
  bool line_buffered = false;
};

// The traits of the command `name` (argv[1]: "run", "-e", "train", ...); a command that is not in
// the table (help, runs, report, ...) has none.
CommandTraits traits_of(std::string_view name);

}  // namespace rlx::startup
