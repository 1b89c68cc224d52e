#!/usr/bin/env bash
# A report of a database with counters imported from an Nsight Compute CSV (issue 13 item 4):
# rlx import-ncu attaches the fixture's totals to one run; §6.3 compares them with the run's
# analytic estimate. The fixture (tests/fixtures/ncu/two_processes.csv) sums to 8,215,506 FLOP and
# 10,407,000 DRAM bytes (rlx import-ncu prints both): AI 8215506 / 10407000 = 0.79. The run is
# resnet18, fp32, batch 16 at 32x32: rlx.model.summary's 3,554,539,260 FLOP and 410,794,816 bytes per
# iteration, AI 8.65. No iteration count is stored
# with an imported CSV, so the per-iteration cells are '-'.
#   imported.sh RLX TMPDIR
set -euo pipefail
rlx=$1
d=$2/report_imported
rm -rf "$d" && mkdir -p "$d"
"$rlx" run tests/e2e/report/make_dbs.lua --set dir="$d" >/dev/null 2>&1
"$rlx" import-ncu tests/fixtures/ncu/two_processes.csv --run envA_resnet18_fp32_bs16_run1 --db "$d/a.db" >/dev/null
"$rlx" report "$d/a.db" --out "$d/out" --quiet 2>/dev/null
md=$d/out/report.md
row='| `envA_resnet18_fp32_bs16_run1` | ncu | 3.555 | - | - | 0.4108 | - | - | 8.65 | 0.79 |'
grep -qF -- "$row" "$md" || { echo "FAIL: no row $row"; grep -A4 '^### 6.3' "$md"; exit 1; }
if grep -qF 'no hardware counters' "$md"; then echo "FAIL: the report says there are no counters"; exit 1; fi
grep -qF -- '- `ncu:derived: dram_bytes`' "$md" || { echo "FAIL: Appendix D lacks the imported counters"; exit 1; }
echo "imported counters ok"
