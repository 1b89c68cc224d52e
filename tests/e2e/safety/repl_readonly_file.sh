#!/usr/bin/env bash
# repl_readonly_file.sh RLX FIXTURE: a database this user cannot write (the file 0444 in a 0555
# directory) opens in `rlx repl --db` and answers queries; --write says to leave it out. Root writes
# anything, so as root the repl runs as nobody (setpriv); skipped (77) when that is not possible.
set -euo pipefail
RLX=$1
FIXTURE=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
T="$RLX_TEST_TMP/safety-repl-readonly-file"
chmod -R u+w "$T" 2>/dev/null || true
rm -rf "$T"; mkdir -p "$T/ro"
cp "$FIXTURE" "$T/ro/s.db"
chmod 0444 "$T/ro/s.db"; chmod 0555 "$T/ro"
trap 'chmod -R u+w "$T"' EXIT
as_user=()
if [ "$(id -u)" = 0 ]; then
  command -v setpriv >/dev/null || { echo "skip: root and no setpriv to drop privileges"; exit 77; }
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$T")
  "${as_user[@]}" test -r "$T/ro/s.db" -a -x "$RLX" || { echo "skip: nobody cannot reach $T or $RLX"; exit 77; }
fi
"${as_user[@]}" test ! -w "$T/ro/s.db" || { echo "skip: the file is writable anyway"; exit 77; }
before=$(sha256sum <"$T/ro/s.db")
got=$(cd "$T" && printf '%s\n' 'db:first("SELECT count(*) AS n FROM runs").n' '#study:runs{}' \
  | "${as_user[@]}" "$RLX" repl --db ro/s.db)
[ "$got" = $'27\n27' ] || fail "read-only file: printed $got"
set +e
err=$(cd "$T" && printf 'return 1\n' | "${as_user[@]}" "$RLX" repl --write --db ro/s.db 2>&1 >/dev/null)
rc=$?
set -e
[ "$rc" = 1 ] || fail "--write on a read-only file: exit $rc"
[ "$err" = "rlx repl: --db ro/s.db: 'ro/s.db' is read-only for this user (the file or its directory 'ro' is not writable: attempt to write a readonly database); leave out --write to query it" ] ||
  fail "--write on a read-only file said: $err"
[ "$(sha256sum <"$T/ro/s.db")" = "$before" ] || fail "the read-only file changed"
echo ok
