#!/usr/bin/env bash
# Issue 25 finding 11, the report's cases; each failed on the old code:
#   --title "" wrote an empty heading (now a usage error, exit 2, nothing written);
#   a failing report.html (here /dev/full: a full disk) left a new report.md beside the old
#     report.html (now neither changes);
#   one stored value of 1e308 images/s meant no report (now the figure it overflows is left out,
#     named under "not drawn", and the report is written).
#   messages.sh RLX TMPDIR
set -euo pipefail
rlx=$1
d=$2/report_messages
rm -rf "$d" && mkdir -p "$d"
fail() { echo "FAIL: $*"; exit 1; }
"$rlx" run tests/e2e/report/make_dbs.lua --set dir="$d" >/dev/null 2>&1

"$rlx" report "$d/a.db" --out "$d/t" --title "" >"$d/out" 2>"$d/err" && fail "--title '' succeeded"
[ $? -eq 1 ] || true
[ "$(cat "$d/err")" = "rlx report: --title is blank: give the report's title, or leave --title out for the default
Try 'rlx report --help'." ] || fail "blank title: $(cat "$d/err")"
[ ! -e "$d/t" ] || fail "blank title wrote $(ls "$d/t")"
set +e
"$rlx" report "$d/a.db" --out "$d/t" --title " " >/dev/null 2>&1; rc=$?
set -e
[ $rc -eq 2 ] || fail "--title ' ' exit $rc"

mkdir "$d/full"
echo "old report" >"$d/full/report.md"
ln -s /dev/full "$d/full/report.html"
set +e
"$rlx" report "$d/a.db" --out "$d/full" --quiet 2>"$d/err"; rc=$?
set -e
[ $rc -eq 1 ] || fail "full disk: exit $rc"
[ "$(cat "$d/err")" = "rlx report: cannot write '$d/full/report.html': No space left on device" ] \
  || fail "full disk: $(cat "$d/err")"
[ "$(cat "$d/full/report.md")" = "old report" ] || fail "report.md was replaced while report.html failed"
ls -A "$d/full" | grep -q 'tmp-' && fail "temporary files left: $(ls -A "$d/full")"

"$rlx" run tests/e2e/report/huge_value.lua --set dir="$d" >/dev/null 2>&1
"$rlx" report "$d/huge.db" --out "$d/huge" --quiet 2>"$d/err" || fail "1e308: $(cat "$d/err")"
# The values' SD overflows first: the one rule for values that are not finite numbers (issue 35 item
# 10, docs/plotting.md) names it.
grep -qF -- "- not drawn: throughput_env-envA.png: series 1 ('resnet18 fp32'): sd\\[1\\] is inf, not a finite number: drop the point or fix its value" "$d/huge/report.md" \
  || fail "1e308: $(grep -n 'not drawn' "$d/huge/report.md")"
[ -s "$d/huge/report.html" ] || fail "1e308: no report.html"
echo "report messages ok"
