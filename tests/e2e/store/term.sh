#!/usr/bin/env bash
# term.sh RLX: SIGTERM and SIGHUP withdraw the claim of the slot being trained, as Ctrl-C does,
# and say so (issue 25 finding 2: `timeout`, an ssh drop, a service stop and a Slurm time limit
# used to leave a `running` claim that the next sweep called a crash). Also with rlx's supervising
# parent turned off (RLX_SUPERVISE=0: the signal reaches the working process itself), under
# `timeout` (the signal goes to the whole process group), and when storing a trained run fails (a
# full disk): the claim is withdrawn, not left behind. The same command then completes the study.
set -euo pipefail
RLX=$1
T="$RLX_TEST_TMP/store-e2e-term"
rm -rf "$T"
mkdir -p "$T"
DB="$T/term.db"
SLOT=test_m1_fp32_bs4_run1
fail() { echo "FAIL: $*" >&2; exit 1; }
pid=""
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; true' EXIT
state() { "$RLX" run tests/e2e/store/check_db.lua --set db="$DB"; }

# Starts the sweep with SLOT spinning forever, waits until SLOT trains, sends $1 to rlx, and
# checks the exit status ($2) and the withdrawal line ($3: how the signal is named).
stop_with() {
  local sig=$1 want=$2 named=$3
  : >"$T/err"
  "$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set spin_label=$SLOT >/dev/null 2>"$T/err" &
  pid=$!
  for _ in $(seq 600); do grep -q "training $SLOT" "$T/err" && break; sleep 0.1; done
  grep -q "training $SLOT" "$T/err" || fail "$sig: the slot did not start: $(cat "$T/err")"
  kill "-$sig" "$pid"
  set +e
  wait "$pid"
  rc=$?
  set -e
  pid=""
  [ "$rc" -eq "$want" ] || fail "$sig: exit $rc, expected $want: $(cat "$T/err")"
  grep -q "^$SLOT: not finished ($named); nothing of it was stored and its claim was withdrawn, so the same command trains it again$" "$T/err" \
    || fail "$sig: no withdrawal line: $(cat "$T/err")"
  got=$(state)
  [ "$got" = "ok=1 failed=0 samples=3 orphans=0 envs=1 integrity=ok" ] || fail "$sig: left $got"
}

stop_with TERM 143 "stopped by SIGTERM"
grep -q "^rlx: stopped by SIGTERM$" "$T/err" || fail "TERM: the exit line: $(cat "$T/err")"
stop_with HUP 129 "stopped by SIGHUP (the terminal or the ssh session closed)"
RLX_SUPERVISE=0 stop_with TERM 143 "stopped by SIGTERM"

# timeout sends SIGTERM to rlx and to its process group: one withdrawal, exit 124 (timeout's).
set +e
timeout 3 "$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set spin_label=$SLOT >/dev/null 2>"$T/err"
rc=$?
set -e
[ "$rc" -eq 124 ] || fail "timeout: exit $rc: $(cat "$T/err")"
[ "$(grep -c "^$SLOT: not finished (stopped by SIGTERM)" "$T/err")" = 1 ] || fail "timeout: $(cat "$T/err")"
got=$(state)
[ "$got" = "ok=1 failed=0 samples=3 orphans=0 envs=1 integrity=ok" ] || fail "timeout: left $got"

# Storing the trained run fails: exit 1, the claim withdrawn.
set +e
"$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set store_fails=$SLOT >/dev/null 2>"$T/err"
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "store fails: exit $rc: $(cat "$T/err")"
grep -q "^$SLOT: trained, but storing it failed; nothing of it was stored and its claim was withdrawn" "$T/err" \
  || fail "store fails: $(cat "$T/err")"
grep -q "database or disk is full (simulated)" "$T/err" || fail "store fails: the cause: $(cat "$T/err")"
got=$(state)
[ "$got" = "ok=1 failed=0 samples=3 orphans=0 envs=1 integrity=ok" ] || fail "store fails: left $got"

out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" 2>/dev/null)
[ "$out" = "ran 7 skipped 1 ok 7 failed 0" ] || fail "the same command: $out"
echo "term ok"
