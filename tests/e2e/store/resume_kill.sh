#!/usr/bin/env bash
# resume_kill.sh RLX [real]: a sweep SIGKILLed while training its 5th run keeps exactly its 4
# finished runs; the 5th's claim is marked crashed by the rlx process that supervised the killed
# one, with the cause (SIGKILL, not the OOM killer). The same command run again then completes the
# study (issue 25): it retries the crashed slot (attempt 2, its death kept) and trains the other 3.
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
grep -q "rlx: test_.*_run[12]: process [0-9]* was killed by SIGKILL (not the OOM killer: .*) while training it; marked crashed in $DB" "$T/err1" \
  || fail "the supervisor's line: $(cat "$T/err1")"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=4 failed=0 samples=$((4 * ITERS)) orphans=0 envs=1 integrity=ok crashed=1" ] || fail "after kill: $got"
death=$("$RLX" -e "local r = rlx.db.open('$DB', {readonly = true}):first([[SELECT deaths, error FROM runs WHERE status = 'crashed']])
  local d = rlx.json.decode(r.deaths) print(#d, d[1].attempt, d[1].cause, d[1].signal, d[1].signal_name, d[1].oom) print(r.error)")
echo "$death" | head -1 | grep -qx "$(printf '1\t1\tsignal\t9\tSIGKILL\tfalse')" || fail "the death: $death"
echo "$death" | tail -1 | grep -q "^crashed: process [0-9]* on host .* was killed by SIGKILL (not the OOM killer" || fail "error: $death"

out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set iters=$ITERS "${EXTRA[@]}" 2>"$T/err2")
[ "$out" = "ran 4 skipped 4 ok 4 failed 0" ] || fail "rerun: $out $(cat "$T/err2")"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=8 failed=0 samples=$((8 * ITERS)) orphans=0 envs=1 integrity=ok" ] || fail "after rerun: $got"
retried=$("$RLX" -e "local r = rlx.db.open('$DB', {readonly = true}):first([[SELECT attempt, deaths FROM runs WHERE deaths IS NOT NULL]])
  print(r.attempt, #rlx.json.decode(r.deaths))")
[ "$retried" = "$(printf '2\t1')" ] || fail "the retried slot is attempt 2 and keeps its 1 death, got $retried"

out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set iters=$ITERS "${EXTRA[@]}")
[ "$out" = "ran 0 skipped 8 ok 0 failed 0" ] || fail "second rerun: $out"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=8 failed=0 samples=$((8 * ITERS)) orphans=0 envs=1 integrity=ok" ] || fail "after second rerun: $got"

out=$("$RLX" run tests/e2e/store/sweep.lua --dry-run --set db="$DB" --set iters=$ITERS "${EXTRA[@]}")
echo "$out" | grep -q "dry run: 0 to run, 8 skipped; nothing to run" || fail "dry run: $out"
echo "resume ok"
