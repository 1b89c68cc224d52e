#!/usr/bin/env bash
# resume_kill.sh RLX [real]: a sweep SIGKILLed while training its 5th run keeps exactly its 4
# finished runs and the 5th's `running` claim (no partial run, no orphan samples, integrity ok).
# The rerun finds the claim's process gone, marks the slot crashed, skips it (as after the OOM
# killer) and completes the other 3; a rerun with retry_crashed trains the crashed slot.
# With "real", the runs train for real through rlx.train (tiny models and inputs).
set -euo pipefail
RLX=$1
REAL=${2:-}
T="$RLX_TEST_TMP/store-e2e-kill${REAL:+-real}"
rm -rf "$T"
mkdir -p "$T"
DB="$T/kill.db"
ITERS=3
EXTRA=()
if [ -n "$REAL" ]; then EXTRA=(--set real=1); ITERS=2; fi
fail() { echo "FAIL: $*" >&2; exit 1; }

set +e
"$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set kill_at=5 --set iters=$ITERS "${EXTRA[@]}" 2>"$T/err1"
rc=$?
set -e
[ "$rc" -eq 137 ] || fail "expected the first sweep to die of SIGKILL (137), got $rc: $(cat "$T/err1")"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=4 failed=0 samples=$((4 * ITERS)) orphans=0 envs=1 integrity=ok running=1" ] || fail "after kill: $got"

out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set iters=$ITERS "${EXTRA[@]}" 2>"$T/err2")
[ "$out" = "ran 3 skipped 4 ok 3 failed 0 crashed 1" ] || fail "rerun: $out"
grep -q "crashed: process [0-9]* on host .* stopped while training" "$T/err2" || fail "crash warning: $(cat "$T/err2")"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=7 failed=0 samples=$((7 * ITERS)) orphans=0 envs=1 integrity=ok crashed=1" ] || fail "after rerun: $got"

out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set iters=$ITERS --set retry_crashed=1 "${EXTRA[@]}")
[ "$out" = "ran 1 skipped 7 ok 1 failed 0" ] || fail "retry crashed: $out"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=8 failed=0 samples=$((8 * ITERS)) orphans=0 envs=1 integrity=ok" ] || fail "after retry: $got"
attempt=$("$RLX" -e "print(rlx.db.open('$DB', {readonly = true}):first([[SELECT max(attempt) AS a FROM runs]]).a)")
[ "$attempt" = "2" ] || fail "the retried slot is attempt 2, got $attempt"

out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set iters=$ITERS "${EXTRA[@]}")
[ "$out" = "ran 0 skipped 8 ok 0 failed 0" ] || fail "second rerun: $out"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=8 failed=0 samples=$((8 * ITERS)) orphans=0 envs=1 integrity=ok" ] || fail "after second rerun: $got"

out=$("$RLX" run tests/e2e/store/sweep.lua --dry-run --set db="$DB" --set iters=$ITERS "${EXTRA[@]}")
echo "$out" | grep -q "dry run: 0 to run, 8 skipped; nothing to run" || fail "dry run: $out"
echo "resume ok"
