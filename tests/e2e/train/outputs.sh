#!/usr/bin/env bash
# outputs.sh RLX MODEL: `rlx train` checks every output before it trains (issue 25): an unusable
# --log-dir or --db fails at once with one line and nothing on stdout (the summary line is printed
# only after a training), nothing created. And metrics.csv is appended to safely (finding 5): a
# file without a final newline keeps its last row whole, a link to /dev/full is refused at once
# (it was read forever for a header, at 100 % CPU), a study database there is never appended to.
set -u
rlx=$1
model=$2
T=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/outputs.XXXXXX")
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
args=(train --model "$model" --batch-size 2 --iters 1 --warmup-iters 0 --input 16 --classes 3 --threads 1)
# Permissions do not bind root: the read-only case runs as user nobody then.
as_user() { if [ "$(id -u)" -eq 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi; }

# refused WANT_STDERR ARGS...: exit 1, exactly that line on stderr, nothing on stdout (no training).
refused() {
  local want=$1
  shift
  "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" = 1 ] || fail "exit $rc for: $* ($(cat "$T/err"))"
  [ ! -s "$T/out" ] || fail "trained before failing: $(cat "$T/out")"
  [ "$(cat "$T/err")" = "$want" ] || fail "stderr: '$(cat "$T/err")', expected '$want'"
}

touch "$T/file"
refused "rlx train: --log-dir: '$T/file' is a file, not a directory: give a directory" "$rlx" "${args[@]}" --log-dir "$T/file"
refused "rlx train: --log-dir: cannot create the directory '$T/file/logs': '$T/file' is a file, not a directory" \
  "$rlx" "${args[@]}" --log-dir "$T/file/logs"
mkdir "$T/ro" && chmod 555 "$T/ro" && chmod 755 "$T"
refused "rlx train: --log-dir: cannot write in the directory '$T/ro': Permission denied" as_user "$rlx" "${args[@]}" --log-dir "$T/ro"
refused "rlx train: --db: the directory '$T/typo' does not exist (create it first, or check the path)" \
  "$rlx" "${args[@]}" --db "$T/typo/x.db"
[ ! -e "$T/typo" ] || fail "--db created its missing directory"
printf 'not a database\n' >"$T/notes.txt"
refused "rlx train: --db: '$T/notes.txt' is not an SQLite database: give the path of a study database, or a new file name" \
  "$rlx" "${args[@]}" --db "$T/notes.txt"

# metrics.csv without a final newline (its last row written by another tool): the new row goes on
# a line of its own.
"$rlx" "${args[@]}" --label old --log-dir "$T/nonl" >/dev/null 2>"$T/err" || fail "first row: $(cat "$T/err")"
truncate -s -1 "$T/nonl/metrics.csv"
old_row=$(sed -n 2p "$T/nonl/metrics.csv")
"$rlx" "${args[@]}" --label new --log-dir "$T/nonl" >/dev/null 2>"$T/err" || fail "no final newline: $(cat "$T/err")"
[ "$(wc -l <"$T/nonl/metrics.csv")" = 3 ] || fail "expected 3 lines: $(cat "$T/nonl/metrics.csv")"
[ "$(sed -n 2p "$T/nonl/metrics.csv")" = "$old_row" ] || fail "the old row was changed"
sed -n 3p "$T/nonl/metrics.csv" | grep -q ',new,' || fail "the new row: $(sed -n 3p "$T/nonl/metrics.csv")"

# metrics.csv a link to /dev/full: refused before training.
mkdir "$T/full" && ln -s /dev/full "$T/full/metrics.csv"
refused "rlx train: --log-dir: '$T/full/metrics.csv' is not a regular file (a device, FIFO or socket); rows are appended to a file" \
  "$rlx" "${args[@]}" --log-dir "$T/full"

# metrics.csv that is a study database: refused, the database unchanged.
mkdir "$T/db"
"$rlx" -e "rlx.db.open('$T/db/metrics.csv'):close()" || fail "making a database"
sum=$(md5sum <"$T/db/metrics.csv")
refused "rlx train: --log-dir: '$T/db/metrics.csv' is an SQLite database; refusing to overwrite it (choose another file name)" \
  "$rlx" "${args[@]}" --log-dir "$T/db"
[ "$(md5sum <"$T/db/metrics.csv")" = "$sum" ] || fail "the database was changed"
echo ok
