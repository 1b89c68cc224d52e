// child_process.h: running another program and waiting for it so that an interrupt of rlx
// (Ctrl-C, SIGTERM, SIGHUP) ends it too (issue 25 finding 9: `rlx submit` killed by SIGTERM left
// its planning child running at 100 % CPU, and its plan file in /tmp). os.execute waits in
// system(), which neither passes the signal on nor returns before the child ends.
#pragma once

#include <string>
#include <vector>

namespace rlx::util {

// Runs argv[0] (searched in PATH) with argv, stdin from /dev/null, stdout and stderr inherited.
// While it runs, an interrupt of this process (util/interrupt.h) sent by another process is passed
// on to the child once (one from the terminal reached the child already: it is in the same
// foreground process group). Returns the exit status, or 128 + the signal that ended the child; an
// argv that cannot be run gives 127 with the reason on stderr. The caller checks interrupted()
// afterwards: the child was asked to stop, and rlx stops too.
int run_child(const std::vector<std::string>& argv);

}  // namespace rlx::util
