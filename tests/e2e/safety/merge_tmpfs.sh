#!/usr/bin/env bash
# merge_tmpfs.sh RLX FIXTURE: `rlx merge NEW.db IN.db` on a really full disk (a 100 KiB tmpfs in
# a private mount namespace): SQLite's "database or disk is full", the fix, and no NEW.db left (an
# old rlx left a 0-byte one). Skipped (77) where no tmpfs can be mounted.
set -uo pipefail
RLX=$1
FIXTURE=$2
T="$RLX_TEST_TMP/safety-merge-tmpfs"
rm -rf "$T"; mkdir -p "$T/disk"
run() {
  unshare "$@" sh -c 'mount -t tmpfs -o size=100k tmpfs "$1" || exit 77
    cd "$1" && "$2" merge NEW.db "$3" 2>"$1/../err"; echo "rc=$?" >"$1/../rc"; ls -A >"$1/../left"' \
    sh "$T/disk" "$RLX" "$FIXTURE" 2>/dev/null
}
run -m || run -rm || { echo "skip: cannot mount a tmpfs here"; exit 77; }
[ -f "$T/rc" ] || { echo "skip: cannot mount a tmpfs here"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(cat "$T/rc")" = rc=1 ] || fail "$(cat "$T/rc")"
[ "$(cat "$T/err")" = "rlx merge: database 'NEW.db': database or disk is full (free space on the disk that holds 'NEW.db', or give an OUT.db on another disk); NEW.db was not created" ] ||
  fail "said: $(cat "$T/err")"
[ ! -s "$T/left" ] || fail "left on the disk: $(cat "$T/left")"
echo ok
