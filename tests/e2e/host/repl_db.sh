#!/usr/bin/env bash
# repl_db.sh RLX: `rlx repl --db PATH` opens the database as `db` and its only study as `study`;
# a missing file is an error that names it, and nothing is created.
set -euo pipefail
RLX=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
T="$RLX_TEST_TMP/host-repl-db"
rm -rf "$T"; mkdir -p "$T"
# A study with two stored runs from a fake trainer (no LibTorch training needed).
"$RLX" -e "local s = rlx.study{name = 'explore', db = '$T/s.db'}
  s:sweep{models = 'resnet18', batch = {2, 4}, iters = 1, trainer = function(o)
    return {ok = true, images_per_s = 10 * o.batch, seconds = 0.1, samples = {0.1}, iter_s = {mean = 0.1, sd = 0,
      median = 0.1, min = 0.1, max = 0.1, p5 = 0.1, p95 = 0.1}} end}" >/dev/null
got=$(printf 'db:first("SELECT count(*) AS n FROM runs").n\nstudy.name\n#study:runs{}\n' | "$RLX" repl --db "$T/s.db")
[ "$got" = $'2\n"explore"\n2' ] || fail "repl --db printed: $got"
set +e
err=$(echo 'print(1)' | "$RLX" repl --db "$T/missing.db" 2>&1 >/dev/null)
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "missing db: exit $rc"
case "$err" in "rlx repl: --db $T/missing.db: no database at '$T/missing.db' (check the path)") ;;
  *) fail "missing db: $err" ;; esac
[ ! -e "$T/missing.db" ] || fail "missing db was created"
echo "repl --db ok"
