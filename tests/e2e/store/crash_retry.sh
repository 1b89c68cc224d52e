#!/usr/bin/env bash
# crash_retry.sh RLX: bounded retry of crashed slots (issue 25). A slot whose process dies every
# time it trains (SIGSEGV here) is retried once by the same command (max_attempts = 2: the first
# try and one retry), then left alone with its cause while the rest of the study completes; the
# plan (dry run) and `rlx status` show the attempts and what the next sweep does. max_attempts = 3
# gives it a third try (os.exit(3) in the trainer: its exit status is recorded), and retry_crashed
# retries it regardless; the finished run keeps its attempt number and every death.
set -euo pipefail
RLX=$1
T="$RLX_TEST_TMP/store-e2e-crash-retry"
rm -rf "$T"
mkdir -p "$T"
DB="$T/c.db"
SLOT=test_m1_fp32_bs2_run1
fail() { echo "FAIL: $*" >&2; exit 1; }
sweep() { "$RLX" run tests/e2e/store/sweep.lua --set db="$DB" "$@"; }

# 1. The first slot of the sweep dies: exit 139 (SIGSEGV, as the shell reports it), cause recorded.
set +e
sweep --set die_label=$SLOT --set die_how=segv >"$T/out1" 2>"$T/err1"
rc=$?
set -e
[ "$rc" -eq 139 ] || fail "first sweep: exit $rc, expected 139: $(cat "$T/err1")"
grep -q "^rlx: $SLOT: process [0-9]* was killed by SIGSEGV while training it; marked crashed in $DB" "$T/err1" \
  || fail "first death: $(cat "$T/err1")"

# 2. The plan retries it.
plan=$(sweep --dry-run)
echo "$plan" | grep -Eq "^ +1  $SLOT +retry \(attempt 2: the previous one was killed by SIGSEGV\)" || fail "plan 1: $plan"
echo "$plan" | grep -q "dry run: 8 to run, 0 skipped" || fail "plan 1 counts: $plan"

# 3. The same command retries it; it dies again.
set +e
sweep --set die_label=$SLOT --set die_how=segv >"$T/out2" 2>"$T/err2"
rc=$?
set -e
[ "$rc" -eq 139 ] || fail "second sweep: exit $rc, expected 139"

# 4. rlx status: attempt 2, not retried, why.
"$RLX" status "$DB" >"$T/status"
grep -q "^$DB: 1 runs stored: 0 ok, 0 failed, 1 crashed, 0 running$" "$T/status" || fail "status: $(cat "$T/status")"
grep -q "^  crashed  $SLOT: attempt 2; not retried: its process died 2 time(s), max_attempts = 2 (last: was killed by SIGSEGV); give max_attempts = 3 or retry_crashed = true to try again$" "$T/status" \
  || fail "status line: $(cat "$T/status")"

# 5. The third run leaves it and completes the rest, saying why.
out=$(sweep --set die_label=$SLOT --set die_how=segv 2>"$T/err3")
[ "$out" = "ran 7 skipped 0 ok 7 failed 0 crashed 1" ] || fail "third sweep: $out $(cat "$T/err3")"
grep -q "rlx.study: 1 slot(s) not retried after their process died: $SLOT: its process died 2 time(s), max_attempts = 2 (last: was killed by SIGSEGV)" "$T/err3" \
  || fail "third sweep's warning: $(cat "$T/err3")"
plan=$(sweep --dry-run)
echo "$plan" | grep -Eq "^ +1  $SLOT +skip \(crashed, not retried: its process died 2 time\(s\), max_attempts = 2" || fail "plan 2: $plan"
echo "$plan" | grep -q "dry run: 0 to run, 8 skipped; nothing to run" || fail "plan 2 counts: $plan"

# 6. max_attempts = 3: a third try, which calls os.exit(3) in the trainer.
set +e
sweep --set die_label=$SLOT --set die_how=exit3 --set max_attempts=3 >/dev/null 2>"$T/err4"
rc=$?
set -e
[ "$rc" -eq 3 ] || fail "third try: exit $rc, expected 3: $(cat "$T/err4")"
grep -q "^rlx: $SLOT: process [0-9]* exited with status 3 while training it" "$T/err4" || fail "exit death: $(cat "$T/err4")"
out=$(sweep --set max_attempts=3 2>/dev/null)
[ "$out" = "ran 0 skipped 7 ok 0 failed 0 crashed 1" ] || fail "after 3 deaths with max_attempts = 3: $out"

# 7. retry_crashed retries it regardless; the ok run keeps attempt 4 and the three deaths.
out=$(sweep --set retry_crashed=1 2>/dev/null)
[ "$out" = "ran 1 skipped 7 ok 1 failed 0" ] || fail "retry_crashed: $out"
got=$("$RLX" -e "local r = rlx.db.open('$DB', {readonly = true}):first([[SELECT status, attempt, deaths FROM runs WHERE label = '$SLOT']])
  local d = rlx.json.decode(r.deaths)
  print(r.status, r.attempt, #d, d[1].signal_name, d[2].signal_name, d[3].cause, d[3].exit_code, d[1].attempt, d[3].attempt)")
[ "$got" = "$(printf 'ok\t4\t3\tSIGSEGV\tSIGSEGV\texit\t3\t1\t3')" ] || fail "the finished run: $got"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=8 failed=0 samples=24 orphans=0 envs=1 integrity=ok" ] || fail "at the end: $got"

# 8. Without the supervising parent (RLX_SUPERVISE=0) the next claim finds the death: its cause is
#    unknown, the slot is retried, and the warning gives no advice to use retry_crashed while it
#    retries (finding 11: it said "rerun with retry_crashed" while retrying).
DB2="$T/c2.db"
set +e
RLX_SUPERVISE=0 "$RLX" run tests/e2e/store/sweep.lua --set db="$DB2" --set die_label=$SLOT --set die_how=kill >/dev/null 2>&1
rc=$?
set -e
[ "$rc" -eq 137 ] || fail "unsupervised kill: exit $rc"
out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB2" --set retry_crashed=1 2>"$T/err5")
[ "$out" = "ran 8 skipped 0 ok 8 failed 0" ] || fail "after an unsupervised kill: $out"
grep -q "^rlx.study: $SLOT: crashed: process [0-9]* on host .* stopped and nothing recorded how" "$T/err5" ||
  fail "the found death: $(cat "$T/err5")"
! grep -q "retry_crashed" "$T/err5" || fail "advice to use retry_crashed while retrying: $(cat "$T/err5")"
echo "crash retry ok"
