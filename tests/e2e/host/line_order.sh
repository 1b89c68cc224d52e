#!/usr/bin/env bash
# line_order.sh RLX: the commands that run for long (run, -e, scripts) write stdout line by line,
# so a log of `rlx run study.lua > log 2>&1` (or `| tee`) has a study's plan (stdout) where it was
# printed among the progress lines (stderr), not at the end when stdout's buffer filled.
set -u
RLX=$1
dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT
code='print("plan: first"); io.stderr:write("[1/2] second\n"); print("third"); io.stderr:write("[2/2] fourth\n")'
echo "$code" >"$dir/order.lua"
want=$'plan: first\n[1/2] second\nthird\n[2/2] fourth'
"$RLX" run "$dir/order.lua" >"$dir/run.log" 2>&1 || { echo "FAIL: run exit $?"; exit 1; }
[ "$(cat "$dir/run.log")" = "$want" ] || { echo "FAIL: run log:"; cat "$dir/run.log"; exit 1; }
"$RLX" -e "$code" 2>&1 | cat >"$dir/pipe.log"
[ "$(cat "$dir/pipe.log")" = "$want" ] || { echo "FAIL: -e through a pipe:"; cat "$dir/pipe.log"; exit 1; }
echo ok
