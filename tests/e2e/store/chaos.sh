#!/usr/bin/env bash
# chaos.sh RLX [ROUNDS]: kill -9 a small sweep at random moments (default 20 times: while it
# starts, claims, trains or commits), resuming each time with retry_crashed, then finish it.
# Afterwards every slot holds exactly one ok run, PRAGMA integrity_check is ok, no claim is left
# running or crashed, and no child row (samples, counters, complexity, roofline points) is an orphan.
set -euo pipefail
RLX=$1
ROUNDS=${2:-20}
T="$RLX_TEST_TMP/store-e2e-chaos"
rm -rf "$T"
mkdir -p "$T"
DB="$T/chaos.db"
fail() { echo "FAIL: $*" >&2; exit 1; }
RANDOM=17  # reproducible kill times
killed=0
for round in $(seq 1 "$ROUNDS"); do
  "$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set spin_ms=40 --set retry_crashed=1 >/dev/null 2>>"$T/err" &
  pid=$!
  # 0 to 1.5 s: rlx's start, opening and migrating, claims, training and commits all get hit.
  sleep "$(( RANDOM % 16 / 10 )).$(( RANDOM % 10 ))"
  if kill -9 "$pid" 2>/dev/null; then killed=$((killed + 1)); fi
  wait "$pid" 2>/dev/null || true
  got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB" 2>/dev/null || echo "no database yet")
  case "$got" in "no database yet"|*"orphans=0 envs="*"integrity=ok"*) ;; *) fail "round $round: $got" ;; esac
done
out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set retry_crashed=1 2>>"$T/err") || fail "resume: $(tail "$T/err")"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=8 failed=0 samples=24 orphans=0 envs=1 integrity=ok" ] || fail "after $killed kills and a resume: $got"
orphans=$("$RLX" -e "
  local db = rlx.db.open('$DB', {readonly = true})
  local n = 0
  for _, t in ipairs({'samples', 'counters', 'complexity', 'roofline_points'}) do
    n = n + db:first('SELECT count(*) AS n FROM ' .. t .. ' WHERE run_id NOT IN (SELECT id FROM runs)').n
  end
  local slots = db:first('SELECT count(*) AS n, count(DISTINCT label) AS d FROM runs')
  print(n, slots.n, slots.d, #db:query('PRAGMA foreign_key_check'))")
[ "$orphans" = "$(printf '0\t8\t8\t0')" ] || fail "orphans, runs, distinct slots, foreign key problems: $orphans"
[ "$killed" -ge 3 ] || fail "only $killed of $ROUNDS kills hit a running sweep"
echo "chaos ok: $killed kills"
