#!/usr/bin/env bash
# claims.sh RLX: two sweeps of the same study at once split the slots (each trained exactly once,
# the other process reports "being trained by process ..."), and a run that finishes while another
# process holds the write lock longer than the busy timeout waits for it and is stored.
set -euo pipefail
RLX=$1
T="$RLX_TEST_TMP/store-e2e-claims"
rm -rf "$T"
mkdir -p "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
DB="$T/same.db"
"$RLX" -e "rlx.db.open('$DB'):close()"
for p in a b; do
  "$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set spin_ms=300 --set calls="$T/calls" >"$T/$p.out" 2>"$T/$p.err" &
  eval "pid_$p=\$!"
done
wait "$pid_a" || fail "process a: $(cat "$T/a.err")"
wait "$pid_b" || fail "process b: $(cat "$T/b.err")"
[ "$(wc -l <"$T/calls")" -eq 8 ] || fail "8 trainings expected in all: $(sort "$T/calls" | uniq -c)"
[ "$(sort -u "$T/calls" | wc -l)" -eq 8 ] || fail "a slot was trained twice: $(sort "$T/calls" | uniq -c)"
ran=$(( $(sed -n 's/^ran \([0-9]*\) .*/\1/p' "$T/a.out") + $(sed -n 's/^ran \([0-9]*\) .*/\1/p' "$T/b.out") ))
[ "$ran" -eq 8 ] || fail "the two sweeps ran $ran slots: $(cat "$T/a.out" "$T/b.out")"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=8 failed=0 samples=24 orphans=0 envs=1 integrity=ok" ] || fail "same study: $got"

DB="$T/lock.db"
out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set lock_at=3 --set rlx="$RLX" --set busy_ms=300 2>"$T/lock.err") \
  || fail "the sweep failed under a held lock: $(cat "$T/lock.err")"
[ "$out" = "ran 8 skipped 0 ok 8 failed 0" ] || fail "lock: $out"
grep -q "is locked by another process (.* s so far); waiting for it so that the run is not lost" "$T/lock.err" \
  || fail "no waiting note: $(cat "$T/lock.err")"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=8 failed=0 samples=24 orphans=0 envs=1 integrity=ok" ] || fail "after the lock: $got"
echo "claims ok"
