#!/usr/bin/env bash
# store_open.sh RLX: issue 17 items 14-17, how rlx opens database files.
#   14: a WAL database in a directory this user cannot write is readable (runs, export), and a
#       write open says the directory is not writable instead of "damaged";
#   15: rlx merge never modifies its inputs (an older schema is upgraded in a copy; a read-only
#       input merges; a zero-byte input stays zero bytes);
#   16: a zero-byte or non-rlx SQLite file is "not an rlx database", not "no such table";
#   17: import-ncu --db missing_dir/x.db refuses and creates nothing; rlx.study still makes results/.
# Permissions do not bind root, so when run as root the read-only cases run as user nobody.
set -uo pipefail
RLX=$1
T="$RLX_TEST_TMP/reliability-store-open"
rm -rf "$T"
mkdir -p "$T"
chmod 755 "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
as_other() {
  if [ "$(id -u)" -eq 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi
}
msg_tail="give the path of a study database (rlx run writes results/<study>.db)"

# 16. Zero bytes, an SQLite file without tables, an SQLite file with other tables.
: >"$T/empty.db"
sqlite3 "$T/blank.db" "CREATE TABLE t (x); DROP TABLE t;"
sqlite3 "$T/foreign.db" "CREATE TABLE t (x); CREATE TABLE u (y);"
for c in "empty.db:the file is empty (0 bytes)" "blank.db:an SQLite database with no tables" \
         "foreign.db:an SQLite database with 2 tables of its own and no rlx schema version"; do
  f=${c%%:*}; why=${c#*:}
  for cmd in runs export; do
    extra=(); [ $cmd = export ] && extra=(--csv -)
    "$RLX" $cmd "$T/$f" "${extra[@]}" >"$T/out" 2>"$T/err" && fail "rlx $cmd $f succeeded"
    want="rlx $cmd: '$T/$f' is not an rlx database: $why; $msg_tail"
    [ "$(cat "$T/err")" = "$want" ] || fail "rlx $cmd $f: $(cat "$T/err") (wanted: $want)"
  done
done
[ ! -s "$T/empty.db" ] || fail "empty.db was written"

# 17. import-ncu into a database in a missing directory: refused, nothing created.
"$RLX" import-ncu tests/fixtures/ncu/two_processes.csv --run r1 --db "$T/missing_dir/x.db" >"$T/out" 2>"$T/err" \
  && fail "import-ncu into missing_dir succeeded"
grep -qx "rlx import-ncu: no database at '$T/missing_dir/x.db' (check the path)" "$T/err" || fail "import-ncu message: $(cat "$T/err")"
[ ! -e "$T/missing_dir" ] || fail "import-ncu created $T/missing_dir"
"$RLX" import-ncu tests/fixtures/ncu/two_processes.csv --run r1 --db "$T/new.db" >"$T/out" 2>"$T/err" \
  && fail "import-ncu into a new database succeeded"
grep -q "no database at '$T/new.db'" "$T/err" || fail "import-ncu new db message: $(cat "$T/err")"
[ ! -e "$T/new.db" ] || fail "import-ncu created an empty database"
# rlx.study (rlx run) still creates results/ in a fresh directory.
mkdir -p "$T/project"
(cd "$T/project" && "$RLX" -e "rlx.study{name = 'fresh', label = 'lab'}") || fail "rlx.study in a fresh directory"
[ -s "$T/project/results/fresh.db" ] || fail "rlx.study did not create results/fresh.db"

# 15. merge reads its inputs only.
"$RLX" -e "local c = rlx.db.open('$T/v1.db', {migrate_to = 1}) c:exec(\"INSERT INTO studies VALUES ('old', 'then')\") c:close()" \
  || fail "v1 database"
"$RLX" run tests/e2e/store/sweep.lua --set db="$T/wal.db" --set label=m >/dev/null || fail "sweep"
sums() { md5sum "$T/v1.db" "$T/wal.db" "$T/empty.db"; }
before=$(sums)
"$RLX" merge "$T/out.db" "$T/v1.db" "$T/wal.db" >"$T/out" 2>"$T/err" || fail "merge: $(cat "$T/err")"
grep -q "v1.db: +0 runs, +0 environments, +1 studies" "$T/out" || fail "merge v1: $(cat "$T/out")"
grep -q "out.db: 8 runs in all (8 new)" "$T/out" || fail "merge total: $(cat "$T/out")"
[ "$(sums)" = "$before" ] || fail "merge changed an input"
[ "$(sqlite3 "$T/v1.db" "PRAGMA user_version")" = 1 ] || fail "merge upgraded the v1 input in place"
ls -A "$T" | grep -q 'merge-input' && fail "temporary copies left: $(ls -A "$T")"
"$RLX" merge "$T/out.db" "$T/empty.db" >"$T/out" 2>"$T/err" && fail "merge of a zero-byte input succeeded"
[ "$(cat "$T/err")" = "rlx merge: '$T/empty.db' is not an rlx database: the file is empty (0 bytes); $msg_tail" ] \
  || fail "merge empty: $(cat "$T/err")"
[ ! -s "$T/empty.db" ] || fail "merge wrote into the zero-byte input"

# 14 and 15 on read-only files and directories (as another user when root).
mkdir -p "$T/ro" "$T/rw"
cp "$T/wal.db" "$T/v1.db" "$T/ro/"
chmod 644 "$T/ro/"*.db
chmod 555 "$T/ro"
chmod 777 "$T/rw"
as_other "$RLX" runs "$T/ro/wal.db" >"$T/out" 2>"$T/err" || fail "runs on a read-only directory: $(cat "$T/err")"
grep -q "^8 runs (8 ok, 0 not ok)" "$T/out" || fail "runs on a read-only directory: $(cat "$T/out")"
as_other "$RLX" export "$T/ro/wal.db" --csv - >"$T/out" 2>"$T/err" || fail "export from a read-only directory: $(cat "$T/err")"
[ "$(wc -l <"$T/out")" -eq 9 ] || fail "export from a read-only directory: $(wc -l <"$T/out") lines"
as_other "$RLX" -e "rlx.db.open('$T/ro/wal.db')" >"$T/out" 2>"$T/err" && fail "a write open in a read-only directory succeeded"
grep -q "rlx.db.open: '$T/ro/wal.db' is read-only for this user (the file or its directory '$T/ro' is not writable" "$T/err" \
  || fail "write open message: $(cat "$T/err")"
grep -q "damaged\|not a usable" "$T/err" && fail "the message suggests damage: $(cat "$T/err")"
# Issue 25 finding 11: a new database in a read-only directory names the directory (it said "the
# file is not readable").
as_other "$RLX" -e "rlx.db.open('$T/ro/new.db')" >"$T/out" 2>"$T/err" && fail "a new database in a read-only directory"
grep -q "rlx.db.open: cannot create database '$T/ro/new.db': the directory '$T/ro' is not writable by this user" "$T/err" \
  || fail "new database in a read-only directory: $(cat "$T/err")"
before=$(md5sum "$T/ro/"*.db)
as_other "$RLX" merge "$T/rw/all.db" "$T/ro/v1.db" "$T/ro/wal.db" >"$T/out" 2>"$T/err" \
  || fail "merge of read-only inputs: $(cat "$T/err")"
grep -q "all.db: 8 runs in all (8 new)" "$T/out" || fail "merge of read-only inputs: $(cat "$T/out")"
[ "$(md5sum "$T/ro/"*.db)" = "$before" ] || fail "merge changed a read-only input"
ls -A "$T/ro" | grep -q -- '-wal\|-shm' && fail "files created in the read-only directory: $(ls -A "$T/ro")"
chmod 755 "$T/ro"
echo "store open ok"
