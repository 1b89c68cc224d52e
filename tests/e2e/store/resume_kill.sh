#!/usr/bin/env bash
# resume_kill.sh RLX [real]: a sweep SIGKILLed when its 5th run starts keeps exactly its 4 finished
# runs (no partial run, no orphan samples, integrity ok); the rerun completes only the missing 4.
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
[ "$got" = "ok=4 failed=0 samples=$((4 * ITERS)) orphans=0 envs=1 integrity=ok" ] || fail "after kill: $got"

out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set iters=$ITERS "${EXTRA[@]}")
[ "$out" = "ran 4 skipped 4 ok 4 failed 0" ] || fail "rerun: $out"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=8 failed=0 samples=$((8 * ITERS)) orphans=0 envs=1 integrity=ok" ] || fail "after rerun: $got"

out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set iters=$ITERS "${EXTRA[@]}")
[ "$out" = "ran 0 skipped 8 ok 0 failed 0" ] || fail "second rerun: $out"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=8 failed=0 samples=$((8 * ITERS)) orphans=0 envs=1 integrity=ok" ] || fail "after second rerun: $got"

out=$("$RLX" run tests/e2e/store/sweep.lua --dry-run --set db="$DB" --set iters=$ITERS "${EXTRA[@]}")
echo "$out" | grep -q "dry run: 0 to run, 8 skipped; nothing to run" || fail "dry run: $out"
echo "resume ok"
