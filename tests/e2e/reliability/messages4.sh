#!/usr/bin/env bash
# messages4.sh RLX: issue 48 item 10, one command each. `rlx submit` of a script that raises printed
# rlx's internal traceback (slurm/_submit.lua's _plan_child); `rlx report` of a hand-edited
# report.md passed <script>, onerror= and javascript: links into report.html; import-kit on a full
# disk said "cannot migrate the schema ... disk I/O error" (a 200 KiB tmpfs in a private mount
# namespace; that part is skipped where none can be mounted).
set -u
RLX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$PWD
T="$RLX_TEST_TMP/reliability-messages4"
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

printf 'local x = 1\nerror("boom")\n' >bad.lua
"$RLX" submit bad.lua --dry-run >out 2>err
[ $? = 1 ] || fail "submit bad.lua: exit $?"
[ "$(cat err)" = "rlx submit: planning bad.lua failed: bad.lua:2: boom; check it with: rlx run bad.lua --dry-run" ] ||
  fail "submit bad.lua said: $(cat err)"

cat >hostile.md <<'MD'
# Report

<script>alert(1)</script>

An image <img src=x onerror="alert(2)"> and [a link](javascript:alert(3)).
MD
"$RLX" report hostile.md --out hostile.html >out 2>err || fail "report: $(cat err)"
for bad in "<script" "onerror=\"" "javascript:" "<img src=x"; do
  ! grep -qF "$bad" hostile.html || fail "report.html holds $bad"
done
grep -qF "&lt;script&gt;alert(1)&lt;/script&gt;" hostile.html || fail "the script is not shown as text"

# import-kit onto a full disk: one plain line, and the database exactly as it was.
cp -r "$SRC/tests/fixtures/kit/mac" kit
"$RLX" -e "rlx.db.open('k.db'):close()" || fail "making k.db"
run() {
  unshare "$@" sh -c 'mount -t tmpfs -o size=200k tmpfs "$1" || exit 77
    cp k.db "$1/k.db" && sum=$(md5sum <"$1/k.db")
    dd if=/dev/zero of="$1/filler" bs=1k count=1000 2>/dev/null
    "$2" import-kit kit --db "$1/k.db" 2>err.full; echo "rc=$?" >rc.full
    [ "$(md5sum <"$1/k.db")" = "$sum" ] && echo same >same.full; ls -A "$1" >left.full' sh "$T/disk" "$RLX" 2>/dev/null
}
mkdir -p disk
if { run -m || run -rm; } && [ -f rc.full ]; then
  [ "$(cat rc.full)" = rc=1 ] || fail "full disk: $(cat rc.full)"
  grep -q "^rlx import-kit: the disk that holds '$T/disk/k.db' is full (or failing): the import writes a temporary copy of the kit's runs beside it (SQLite: database or disk is full): nothing was changed in '$T/disk/k.db'; free some space on it and import again$" err.full ||
    fail "full disk said: $(cat err.full)"
  [ "$(wc -l <err.full)" = 1 ] || fail "full disk: not one line"
  [ -f same.full ] || fail "full disk: the database changed"
  [ "$(cat left.full)" = "$(printf 'filler\nk.db')" ] || fail "full disk left: $(cat left.full)"
else
  echo "skip: cannot mount a tmpfs here (the full-disk case)"
fi
echo ok
