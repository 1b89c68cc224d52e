#!/usr/bin/env bash
# import_kit_rows.sh RLX [ROWS] [OUT]: issue 48 item 5, `rlx import-kit` of a metrics.csv of ROWS
# rows (default 100,000: a 7 MB CSV; tests/fixtures/kit/mac's first row repeated with a label of
# its own each, timestamps one second apart). Prints the import's wall time and peak resident
# memory (GNU time), and the rows stored. Before the fix: 114.5 s and 941 MB on a 2-core EPYC
# (import-ncu reads 200,000 rows in 1.2 s). Run it on an idle machine; the numbers go into
# docs/reliability.md.
set -eu
RLX=$1
ROWS=${2:-100000}
OUT=${3:-$(mktemp -d "${TMPDIR:-/tmp}/import-kit-rows.XXXXXX")}
SRC=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$OUT/kit" "$OUT/k.db"*
mkdir -p "$OUT/kit/logs"
awk -F, -v rows="$ROWS" 'NR == 1 { print; next }
  NR == 2 { for (i = 1; i <= rows; i++) { $1 = 1764100000 + i; $17 = "mac_resnet50_fp32_bs16_r" i; print } exit }' OFS=, \
  "$SRC/tests/fixtures/kit/mac/logs/metrics.csv" >"$OUT/kit/logs/metrics.csv"
echo "metrics.csv: $(($(wc -l <"$OUT/kit/logs/metrics.csv") - 1)) rows, $(stat -c %s "$OUT/kit/logs/metrics.csv") bytes"
/usr/bin/time -f "wall %e s, peak RSS %M KB" "$RLX" import-kit "$OUT/kit" --db "$OUT/k.db" --create --synthetic
echo "stored: $(sqlite3 "$OUT/k.db" 'SELECT count(*) FROM runs') runs"
