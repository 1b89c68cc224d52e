#!/usr/bin/env bash
# The seed kit's formula on rlx's export against the report's Table 1 (train_factor.lua; issue 45).
#   train_factor.sh RLX TMPDIR
set -euo pipefail
rlx=$1
d=$2/report_train_factor
rm -rf "$d" && mkdir -p "$d"
cp tests/fixtures/studies/epyc-2c-study.db "$d/epyc.db"
"$rlx" export "$d/epyc.db" --layout seed --out "$d/kit" > /dev/null
"$rlx" report "$d/epyc.db" --out "$d/report" --quiet
"$rlx" run tests/e2e/report/train_factor.lua --set kit="$d/kit" --set report="$d/report/report.md"
