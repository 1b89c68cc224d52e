#!/bin/bash
# Issue 55: causes from the data (tests/e2e/report/causes.lua, worked by hand there), on copies of the
# H200, EPYC and Zen 5 fixtures. Usage: causes.sh RLX TMP
set -euo pipefail
rlx=$1
d=$2/report_causes
rm -rf "$d"
mkdir -p "$d"
for f in h200-default-study epyc-2c-study epyc-zen5-study; do cp "tests/fixtures/studies/$f.db" "$d/"; done
out=$(RLX_TEST_TMP="$d" "$rlx" run tests/e2e/report/causes.lua --set h200="$d/h200-default-study.db" \
  --set epyc="$d/epyc-2c-study.db" --set zen5="$d/epyc-zen5-study.db") || { echo "$out"; exit 1; }
echo "$out"
n=$(grep -c '^ok' <<< "$out")
[ "$n" -eq 19 ] || { echo "FAIL: $n of 19 checks ok"; exit 1; }
echo "causes ok"
