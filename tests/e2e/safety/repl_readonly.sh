#!/usr/bin/env bash
# repl_readonly.sh RLX FIXTURE: `rlx repl --db PATH` opens the database read-only: the file is not
# changed (an old rlx migrated a schema-5 copy to 7 and recorded this machine in `environments`),
# queries and the study work, writes are refused naming --write, and --write opens it for writing.
set -euo pipefail
RLX=$1
FIXTURE=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
T="$RLX_TEST_TMP/safety-repl-readonly"
rm -rf "$T"; mkdir -p "$T"
cp "$FIXTURE" "$T/copy.db"
before=$(sha256sum <"$T/copy.db")
envs() { "$RLX" -e "local c = rlx.db.open('$T/copy.db', {readonly = true}) print(c:schema_version(), c:first('SELECT count(*) AS n FROM environments').n)"; }
[ "$(envs)" = $'5\t1' ] || fail "the fixture is not the schema-5 database with one environment: $(envs)"

got=$(printf 'return 1\n' | "$RLX" repl --db "$T/copy.db")
[ "$got" = 1 ] || fail "return 1 printed: $got"
[ "$(sha256sum <"$T/copy.db")" = "$before" ] || fail "repl --db changed the database"
# A query through `db` and through `study` (the fixture's one study, 27 runs).
got=$(printf '%s\n' 'db:first("SELECT count(*) AS n FROM runs").n' 'study.name' '#study:runs{model = "resnet50"}' \
  | "$RLX" repl --db "$T/copy.db")
[ "$got" = $'27\n"p1-roofline"\n9' ] || fail "queries printed: $got"
[ "$(sha256sum <"$T/copy.db")" = "$before" ] || fail "queries changed the database"
[ "$(envs)" = $'5\t1' ] || fail "schema or environments changed: $(envs)"

# Writes are refused, one line each naming the way to write; the file stays as it was.
set +e
err=$(printf '%s\n' 'study:sweep{models = "resnet18", iters = 1}' 'db:exec("DELETE FROM runs")' \
  | "$RLX" repl --db "$T/copy.db" 2>&1 >/dev/null)
rc=$?
set -e
[ "$rc" = 1 ] || fail "refused writes: exit $rc"
want="study:sweep: rlx repl opened '$T/copy.db' read-only; to write to it start the repl with --write (rlx repl --write --db $T/copy.db)
conn:exec: database '$T/copy.db': attempt to write a readonly database (rlx repl opened '$T/copy.db' read-only; to change it start the repl with --write: rlx repl --write --db $T/copy.db)"
[ "$err" = "$want" ] || fail "refused writes said:
$err"
[ "$(sha256sum <"$T/copy.db")" = "$before" ] || fail "a refused write changed the database"

# --write opens it for writing, as rlx.study does: the schema is migrated, this machine recorded.
got=$(printf 'study.name\n' | "$RLX" repl --write --db "$T/copy.db" 2>/dev/null)
[ "$got" = '"p1-roofline"' ] || fail "--write printed: $got"
[ "$(envs | cut -f1)" = 10 ] || fail "--write did not migrate: $(envs)"

# --write without a database is a usage error.
set +e
err=$(printf 'return 1\n' | "$RLX" repl --write 2>&1 >/dev/null)
rc=$?
set -e
[ "$rc" = 2 ] || fail "--write alone: exit $rc"
[ "$err" = $'rlx: --write needs --db PATH (the database to open for writing)\nTry \'rlx repl --help\'.' ] ||
  fail "--write alone said: $err"
echo ok
