#!/bin/bash
# Issue 55 point 6 (tests/e2e/figures55/figures.lua, every value worked by hand there), on copies of
# the Zen 5, old EPYC and H200 fixtures. Usage: check.sh RLX TMP
set -euo pipefail
rlx=$1
d=$2/figures55
rm -rf "$d"
mkdir -p "$d"
for f in epyc-zen5-study epyc-2c-study h200-default-study; do cp "tests/fixtures/studies/$f.db" "$d/"; done
"$rlx" run tests/e2e/figures55/figures.lua --set zen5="$d/epyc-zen5-study.db" --set h200="$d/h200-default-study.db" \
  --set epyc="$d/epyc-2c-study.db" --set out="$d/out"
