#!/usr/bin/env bash
# concurrent.sh RLX: two processes sweep into one new database at the same time (one creates and
# migrates it while the other waits on the lock); both finish and all 16 runs are there.
set -euo pipefail
RLX=$1
T="$RLX_TEST_TMP/store-e2e-concurrent"
rm -rf "$T"
mkdir -p "$T"
DB="$T/both.db"
fail() { echo "FAIL: $*" >&2; exit 1; }
"$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set study=a --set spin_ms=20 >"$T/a.out" 2>"$T/a.err" &
pa=$!
"$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set study=b --set spin_ms=20 >"$T/b.out" 2>"$T/b.err" &
pb=$!
wait $pa || fail "process a: $(cat "$T/a.err")"
wait $pb || fail "process b: $(cat "$T/b.err")"
[ "$(cat "$T/a.out")" = "ran 8 skipped 0 ok 8 failed 0" ] || fail "a: $(cat "$T/a.out")"
[ "$(cat "$T/b.out")" = "ran 8 skipped 0 ok 8 failed 0" ] || fail "b: $(cat "$T/b.out")"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=16 failed=0 samples=48 orphans=0 envs=1 integrity=ok" ] || fail "counts: $got"
echo "concurrent ok"
