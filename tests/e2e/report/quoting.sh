#!/usr/bin/env bash
# quoting.sh RLX TMPDIR: every command a report prints can be pasted into a shell (issue 25 finding
# 4). A study named a`touch PWNED`b, a database path and a --data path with spaces, a quote and
# backticks: each `rlx ...` line of report.md (code spans and the bash block) is run by bash with
# `rlx` standing for a function that records its arguments. Nothing else runs (no PWNED file), and
# the arguments are the study's own values, whole.
set -euo pipefail
RLX=$1
d=$2/report_quoting
rm -rf "$d" && mkdir -p "$d"
fail() { echo "FAIL: $*"; exit 1; }
db=$("$RLX" run tests/e2e/report/hostile_names.lua --set dir="$d" 2>"$d/err") || fail "making the study: $(cat "$d/err")"
"$RLX" report "$db" --out "$d/rep" --quiet || fail "report"
# Every command: the lines of fenced blocks that start with rlx, and inline code spans that do.
perl -ne 'BEGIN { $in = 0 }
  if (/^(`{3,})/) { $in = !$in; next }
  if ($in) { print if /^rlx /; next }
  while (/(`+) ?(rlx .*?) ?\1(?!`)/g) { print "$2\n" }' "$d/rep/report.md" >"$d/commands"
n=$(wc -l <"$d/commands")
[ "$n" -ge 5 ] || fail "only $n commands found: $(cat "$d/commands")"
grep -q '^rlx train ' "$d/commands" && grep -q '^rlx report ' "$d/commands" && grep -q '^rlx runs ' "$d/commands" ||
  fail "commands missing: $(cat "$d/commands")"
cd "$d"
i=0
while IFS= read -r cmd; do
  i=$((i + 1))
  bash -c 'rlx() { printf "%s\n" "$@" >"'"$d"'/args.'"$i"'"; }; '"$cmd" || fail "command $i failed: $cmd"
  [ -f "$d/args.$i" ] || fail "command $i did not call rlx: $cmd"
done <"$d/commands"
[ ! -e "$d/PWNED" ] && [ ! -e "$d/rep/PWNED" ] || fail "a pasted command ran touch"
# The study, the database and the data path arrive as single, whole arguments.
grep -qxF 'a`touch PWNED`b' "$d"/args.* || fail "no command passes the study name whole"
grep -qxF "$db" "$d"/args.* || fail "no command passes the database path whole"
grep -qxF "$d/my data" "$d"/args.* || fail "no rlx train line passes the --data path whole"
echo ok
