#!/usr/bin/env bash
# resume_real.sh RLX: resume_kill.sh with real training, then Ctrl-C: a sweep sent SIGINT while
# training exits 130 with only whole runs stored, and a rerun completes the matrix. Exits 77
# (skipped) when this build has no rlx.train.
set -euo pipefail
RLX=$1
if [ "$("$RLX" -e 'local mt = getmetatable(rlx.train); io.write(tostring(type(rlx.train) == "function" or (type(mt) == "table" and mt.__call ~= nil)))' 2>/dev/null)" != "true" ]; then
  echo "rlx.train is not in this build: skipped"
  exit 77
fi
bash "$(dirname "$0")/resume_kill.sh" "$RLX" real

fail() { echo "FAIL: $*" >&2; exit 1; }
T="$RLX_TEST_TMP/store-e2e-sigint"
rm -rf "$T"
mkdir -p "$T"
DB="$T/int.db"
count_ok() { "$RLX" run tests/e2e/store/check_db.lua --set db="$DB" 2>/dev/null | sed -n 's/^ok=\([0-9]*\) .*/\1/p'; }
"$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set real=1 --set iters=2 >"$T/out" 2>"$T/err" &
pid=$!
# Wait for the first stored run, then interrupt the one being trained.
for _ in $(seq 1 300); do
  [ -f "$DB" ] && [ "$(count_ok || echo 0)" -ge 1 ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.2
done
kill -INT $pid 2>/dev/null || true
set +e
wait $pid
rc=$?
set -e
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
echo "after SIGINT (exit $rc): $got"
case "$got" in *"failed=0"*"orphans=0"*"integrity=ok") ;; *) fail "after SIGINT: $got" ;; esac
if [ "$rc" -ne 0 ]; then
  [ "$rc" -eq 130 ] || fail "SIGINT should exit 130, got $rc: $(cat "$T/err")"
fi
"$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set real=1 --set iters=2 >/dev/null
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=8 failed=0 samples=16 orphans=0 envs=1 integrity=ok" ] || fail "after rerun: $got"
echo "real resume and SIGINT ok"
