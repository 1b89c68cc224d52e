#!/usr/bin/env bash
# interrupted_retry.sh RLX: issue 35 item 6, an interrupted retry erased the crash history (data
# loss). A slot's process is killed with kill -9 (its death recorded, attempt 1); the rerun retries
# it ("attempt 2: the previous one was killed by SIGKILL") and is interrupted with Ctrl-C (SIGINT)
# while training it. The claim is withdrawn, but the slot's row goes back to crashed with its
# death: the next run is attempt 2 again, and max_attempts still counts that death.
set -u
RLX=$1
T="$RLX_TEST_TMP/reliability-interrupted-retry"
rm -rf "$T"
mkdir -p "$T"
fail() { echo "FAIL: $*"; exit 1; }
DB="$T/retry.db"
X=test_m1_fp32_bs2_run1
sweep=("$RLX" run tests/e2e/store/sweep.lua --set db="$DB")

"${sweep[@]}" --set die_label=$X --set die_how=kill >/dev/null 2>"$T/err1"
[ $? = 137 ] || fail "the first sweep: $(cat "$T/err1")"
"${sweep[@]}" --set spin_label=$X >/dev/null 2>"$T/err2" &
pid=$!
for _ in $(seq 1 600); do grep -q "^training $X" "$T/err2" && break; sleep 0.1; done
grep -q "^training $X" "$T/err2" || { kill -9 $pid; fail "the retry did not start: $(cat "$T/err2")"; }
kill -INT $pid
wait $pid
rc=$?
[ $rc = 130 ] || fail "the interrupted retry exited $rc: $(cat "$T/err2")"
row=$("$RLX" -e "local r = rlx.db.open('$DB', {readonly = true}):first([[SELECT status, attempt, deaths FROM runs
  WHERE label = '$X']]) print(r.status, r.attempt, #rlx.json.decode(r.deaths), rlx.json.decode(r.deaths)[1].signal_name)")
[ "$row" = "$(printf 'crashed\t1\t1\tSIGKILL')" ] || fail "the slot after the interrupted retry: $row"
"${sweep[@]}" --dry-run >"$T/plan" 2>&1 || fail "dry run: $(cat "$T/plan")"
grep -q "$X  *retry (attempt 2: the previous one was killed by SIGKILL" "$T/plan" || fail "the plan: $(cat "$T/plan")"
# It dies again: with max_attempts = 2 (the default) the slot stops, its two deaths kept.
"${sweep[@]}" --set die_label=$X --set die_how=kill >/dev/null 2>"$T/err3"
[ $? = 137 ] || fail "the third sweep: $(cat "$T/err3")"
"${sweep[@]}" >"$T/out4" 2>"$T/err4" || fail "the fourth sweep: $(cat "$T/err4")"
grep -q "$X: its process died 2 time(s), max_attempts = 2" "$T/err4" || fail "not stopped: $(cat "$T/err4")"
echo ok
