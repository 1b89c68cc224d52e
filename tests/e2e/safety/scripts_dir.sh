#!/usr/bin/env bash
# scripts_dir.sh RLX: a bad RLX_SCRIPTS_DIR is one line naming the variable, what is missing and the
# fix, exit 1 (an old rlx printed the loader's C stack traceback and "rlx: rlx: the built-in
# module 'rlx' failed to load").
set -uo pipefail
RLX=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
T="$RLX_TEST_TMP/safety-scripts-dir"
rm -rf "$T"; mkdir -p "$T/empty/rlx" "$T/partial"
: >"$T/file"
cp -r "$RLX_SOURCE_DIR/scripts/rlx" "$T/partial/rlx"
rm "$T/partial/rlx/stats.lua"
FIX="set it to the scripts/ directory of an rlx source tree, or unset it to use the built-in modules"
check() {  # check DIR CODE WANT: RLX_SCRIPTS_DIR=DIR rlx -e CODE prints WANT on stderr, exit 1
  local err rc
  err=$(RLX_SCRIPTS_DIR="$1" "$RLX" -e "$2" 2>&1 >/dev/null); rc=$?
  [ "$rc" = 1 ] || fail "RLX_SCRIPTS_DIR=$1: exit $rc"
  [ "$err" = "$3" ] || fail "RLX_SCRIPTS_DIR=$1 said:
$err
--- want:
$3"
}
check /nonexist 1 "rlx: RLX_SCRIPTS_DIR='/nonexist' has no rlx/init.lua (no such directory): $FIX"
check "$T/file" 1 "rlx: RLX_SCRIPTS_DIR='$T/file' has no rlx/init.lua (it is a file, not a directory): $FIX"
check "$T/empty" 1 "rlx: RLX_SCRIPTS_DIR='$T/empty' has no rlx/init.lua (no file $T/empty/rlx/init.lua): $FIX"
# A module missing from an otherwise good directory: the same line, where it was needed.
err=$(RLX_SCRIPTS_DIR="$T/partial" "$RLX" -e 'print(rlx.stats.mean({1}))' 2>&1 >/dev/null)
case "$err" in *"rlx.stats: RLX_SCRIPTS_DIR='$T/partial' has no rlx/stats.lua (no file $T/partial/rlx/stats.lua): $FIX") ;;
  *) fail "missing module said: $err" ;; esac
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "missing module: more than one line: $err"
echo ok
