#!/usr/bin/env bash
# merge_running.sh RLX: issue 35 item 9, rlx merge copied a live `running` claim: the merged
# database then showed it running, and once its process was gone `rlx status` reported a SIGKILL
# death that never happened. A claim is no result: it is not copied, and merge says so.
set -u
RLX=$1
T="$RLX_TEST_TMP/reliability-merge-running"
rm -rf "$T"
mkdir -p "$T"
fail() { echo "FAIL: $*"; exit 1; }
X=test_m1_fp32_bs2_run1
"$RLX" run tests/e2e/store/sweep.lua --set db="$T/a.db" --set spin_label=$X >/dev/null 2>"$T/a.err" &
a=$!
for _ in $(seq 1 600); do grep -q "^training $X" "$T/a.err" && break; sleep 0.1; done
grep -q "^training $X" "$T/a.err" || { kill -9 $a; fail "no live claim: $(cat "$T/a.err")"; }
"$RLX" merge "$T/out.db" "$T/a.db" >"$T/out" 2>"$T/err"
rc=$?
kill -TERM $a
wait $a
[ "$rc" = 0 ] || fail "merge: exit $rc: $(cat "$T/err")"
[ "$(cat "$T/err")" = "rlx merge: $T/a.db: 1 run(s) still being trained there not copied (a claim is no result): $X; merge again once they are stored" ] ||
  fail "merge's line: $(cat "$T/err")"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$T/out.db")
case "$got" in *running=*|*crashed=*) fail "the merged database holds a claim: $got" ;; esac
"$RLX" status "$T/out.db" >"$T/status" 2>&1 || fail "status: $(cat "$T/status")"
grep -q "SIGKILL\|crashed  \|running  " "$T/status" && fail "status of the merged database: $(cat "$T/status")"
echo ok
