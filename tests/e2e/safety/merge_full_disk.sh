#!/usr/bin/env bash
# merge_full_disk.sh RLX FIXTURES: `rlx merge` on a disk that fills up. A file size limit
# (ulimit -f, with SIGXFSZ ignored so a write past it fails instead of killing rlx) stands in for
# a full disk. A new OUT.db is built under a temporary name and renamed only once every input is
# in: on failure nothing is left (an old rlx left a 0-byte OUT.db); an existing OUT.db takes an
# input all or nothing. Each failure is one line that says what to do.
set -euo pipefail
RLX=$1
F=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
T="$RLX_TEST_TMP/safety-merge-full"
rm -rf "$T"; mkdir -p "$T"; cd "$T"
limited() {  # limited KB CMD...: runs CMD with files limited to KB kilobytes; prints stderr
  local kb=$1; shift
  ( trap '' XFSZ; ulimit -f "$kb"; "$@" ) 2>&1 >/dev/null
}
runs() { "$RLX" -e "local c = rlx.db.open('$1', {readonly = true}) print(c:count_runs().n) c:close()"; }

# 1. A new OUT.db on a full disk: exit 1, one line with the fix, no OUT.db and no temporary file.
set +e
err=$(limited 64 "$RLX" merge NEW.db "$F/epyc-2c-study.db")
rc=$?
set -e
[ "$rc" = 1 ] || fail "new OUT: exit $rc"
[ "$err" = "rlx merge: database 'NEW.db': disk I/O error (free space on the disk that holds 'NEW.db', or give an OUT.db on another disk); NEW.db was not created" ] ||
  fail "new OUT said: $err"
[ -z "$(ls -A)" ] || fail "new OUT left files: $(ls -A)"

# 2. Two inputs into a new OUT.db: all or nothing as well (the second one cannot fit).
set +e
err=$(limited 200 "$RLX" merge NEW.db "$F/epyc-2c-b-study.db" "$F/epyc-2c-study.db")
rc=$?
set -e
[ "$rc" = 1 ] || fail "new OUT, two inputs: exit $rc"
case "$err" in "rlx merge: "*"(free space on the disk that holds 'NEW.db', or give an OUT.db on another disk)"*"; NEW.db was not created") ;;
  *) fail "new OUT, two inputs said: $err" ;; esac
[ -z "$(ls -A)" ] || fail "new OUT, two inputs left files: $(ls -A)"

# 3. With room, the new OUT.db appears whole, with nothing beside it.
"$RLX" merge --quiet A.db "$F/epyc-2c-study.db"
[ "$(ls -A)" = A.db ] || fail "a merge left: $(ls -A)"
[ "$(runs A.db)" = 27 ] || fail "A.db holds $(runs A.db) runs"
"$RLX" merge --quiet OUT.db "$F/epyc-2c-b-study.db"
rm -f A.db-wal A.db-shm OUT.db-wal OUT.db-shm  # left by the read-only checks (SQLite's WAL index)
before=$(sha256sum <OUT.db)

# 4. An existing OUT.db that cannot take an input (schema 7, so the copy happens in the merge's
#    transaction): unchanged, and the message says what it holds and what to do.
set +e
err=$(limited 140 "$RLX" merge OUT.db A.db)
rc=$?
set -e
[ "$rc" = 1 ] || fail "existing OUT: exit $rc"
[ "$err" = "rlx merge: database 'OUT.db': disk I/O error (free space on the disk that holds 'OUT.db', or give an OUT.db on another disk); OUT.db holds what it held; not merged: A.db" ] ||
  fail "existing OUT said: $err"
[ "$(sha256sum <OUT.db)" = "$before" ] || fail "the failed merge changed OUT.db"
[ "$(runs OUT.db)" = 6 ] || fail "OUT.db holds $(runs OUT.db) runs after the failed merge"
"$RLX" merge --quiet OUT.db A.db
[ "$(runs OUT.db)" = 33 ] || fail "OUT.db holds $(runs OUT.db) runs after the merge"
echo ok
