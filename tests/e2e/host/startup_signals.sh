#!/usr/bin/env bash
# startup_signals.sh RLX: the signal handlers come before any work that can take time (issue 48
# item 11). A background job of this (non-interactive) script inherits SIGINT ignored, as the shell
# arranges; rlx handles it all the same (docs/cli.md, "Signals"). The SIGINT is sent as soon as the
# process has its handler (its SigCgt in /proc), so it lands during the start-up: before Lua runs
# or while LibTorch loads, which takes most of a second. Supervised (the parent forwards it) and
# not; both end with 130 and "rlx: interrupted", and the script never gets to print.
set -u
RLX=$1
tmp=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/sigstart.XXXXXX")
pid=""
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/*; do echo "--- $f"; cat "$f"; done; exit 1; }
# mask NAME PID: the hex signal mask NAME (SigIgn, SigCgt) of process PID, "" when it is gone.
mask() { sed -n "s/^$1:[[:space:]]*//p" "/proc/$2/status" 2>/dev/null; }
has_sigint() { [ -n "$1" ] && (((16#$1 & 2) != 0)); }

sleep 30 &
probe=$!
has_sigint "$(mask SigIgn "$probe")" || echo "note: this shell does not ignore SIGINT for background jobs"
kill "$probe"

for supervise in 1 0; do
  RLX_SUPERVISE=$supervise "$RLX" -e 'rlx.devices() print("loaded") while true do end' >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  for _ in $(seq 2000); do has_sigint "$(mask SigCgt "$pid")" && break; sleep 0.005; done
  has_sigint "$(mask SigCgt "$pid")" || fail "RLX_SUPERVISE=$supervise: no SIGINT handler"
  kill -INT "$pid"
  for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && fail "RLX_SUPERVISE=$supervise: still running 60 s after a SIGINT during its start-up"
  wait "$pid"; code=$?; pid=""
  [ "$code" = 130 ] || fail "RLX_SUPERVISE=$supervise: exit status $code, expected 130"
  [ "$(cat "$tmp/err")" = "rlx: interrupted" ] || fail "RLX_SUPERVISE=$supervise: stderr $(cat "$tmp/err")"
  [ -s "$tmp/out" ] && fail "RLX_SUPERVISE=$supervise: the script ran on"
done
echo ok
