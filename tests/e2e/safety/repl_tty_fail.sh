#!/usr/bin/env bash
# repl_tty_fail.sh RLX: at a terminal, rlx.fail(N, msg) is reported and the prompt goes on (the
# session and its globals are kept; Ctrl-D ends it, status 0). Runs the repl on a pseudo-terminal
# with script(1); skipped (77) without it.
set -uo pipefail
RLX=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v script >/dev/null || { echo "skip: no script(1) for a pseudo-terminal"; exit 77; }
T="$RLX_TEST_TMP/safety-repl-tty"
rm -rf "$T"; mkdir -p "$T"
# The lines are typed once the prompt is up (input typed earlier could be flushed when line editing
# starts); script sends Ctrl-D at the end of its input.
out=$( (sleep 2; printf 'x = 41\nrlx.fail(4, "four")\nprint(x + 1)\n') | HOME="$T" TERM=dumb script -qec "$RLX repl" /dev/null)
rc=$?
out=$(printf '%s' "$out" | tr -d '\r')
[ "$rc" = 0 ] || fail "exit $rc at a terminal, expected 0; output:
$out"
printf '%s\n' "$out" | grep -qx 'four' || fail "no 'four' line:
$out"
printf '%s\n' "$out" | grep -qx '42' || fail "the session did not go on after rlx.fail:
$out"
echo ok
