#!/usr/bin/env bash
# RLX_SCRIPTS_DIR loads rlx's Lua modules from a directory instead of the embedded copies: copy
# scripts/, change init.lua, and check the change is seen without rebuilding.
set -eu
rlx=$1
tmp=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/scripts_dir.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp -r "$RLX_SOURCE_DIR/scripts" "$tmp/scripts"
sed -i 's/^return rlx$/rlx.override_marker = 42\nreturn rlx/' "$tmp/scripts/rlx/init.lua"
out=$(RLX_SCRIPTS_DIR="$tmp/scripts" "$rlx" -e 'print(rlx.override_marker)')
[ "$out" = "42" ] || { echo "expected 42 from the overridden init.lua, got '$out'"; exit 1; }
out=$("$rlx" -e 'print(rlx.override_marker)')
[ "$out" = "nil" ] || { echo "embedded copy should not have the marker, got '$out'"; exit 1; }
# An error raised inside an overridden module names the module's real path.
printf 'error("broken module")\n' > "$tmp/scripts/rlx/_pretty.lua"
if RLX_SCRIPTS_DIR="$tmp/scripts" "$rlx" -e 'rlx.inspect({})' 2>"$tmp/err"; then
  echo "expected a failure"; exit 1
fi
grep -q "scripts/rlx/_pretty.lua:1: broken module" "$tmp/err" || { cat "$tmp/err"; exit 1; }
echo ok
