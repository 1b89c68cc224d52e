#!/usr/bin/env python3
"""subreaper.py RLX DB LABEL: issue 35 item 1 with real processes. This process becomes a child
subreaper (PR_SET_CHILD_SUBREAPER) and starts `rlx run tests/e2e/store/sweep.lua` whose slot LABEL
trains forever. Once it trains, the supervising rlx (the parent) gets kill -9; its child, killed by
PR_SET_PDEATHSIG, is re-parented here and left unreaped: a zombie, as it is for about a second
under init. While it is one, the same sweep runs again; its output, stderr and exit status are
printed, then the zombie is reaped. Exit 0 when the steps worked (the test judges the output)."""
import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def state_of(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            line = f.read()
    except OSError:
        return "gone"
    return line[line.rindex(")") + 2]


def main():
    rlx, db, label = sys.argv[1:4]
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        print("prctl(PR_SET_CHILD_SUBREAPER) failed", file=sys.stderr)
        return 1
    sweep = [rlx, "run", "tests/e2e/store/sweep.lua", "--set", f"db={db}"]
    parent = subprocess.Popen(sweep + ["--set", f"spin_label={label}"], stderr=subprocess.PIPE, text=True)
    for line in parent.stderr:
        if line.startswith("training "):
            break
    children = open(f"/proc/{parent.pid}/task/{parent.pid}/children").read().split()
    if len(children) != 1:
        print(f"expected one child of the supervising rlx, got {children}", file=sys.stderr)
        return 1
    child = int(children[0])
    parent.kill()
    parent.wait()
    for _ in range(5000):
        if state_of(child) == "Z":
            break
        time.sleep(0.001)
    print(f"child state before the rerun: {state_of(child)}")
    again = subprocess.run(sweep, capture_output=True, text=True)
    print(f"rerun exit {again.returncode}")
    print(f"rerun stdout: {again.stdout.strip()}")
    print(f"rerun stderr: {again.stderr.strip()}")
    print(f"child state after the rerun: {state_of(child)}")
    os.waitpid(child, 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
