#!/usr/bin/env bash
# cli.sh RLX: rlx export (one CSV row per run, parseable), rlx merge (union, idempotent) and
# rlx runs, on two databases written as two different environments ("machines").
set -euo pipefail
RLX=$1
T="$RLX_TEST_TMP/store-e2e-cli"
rm -rf "$T"
mkdir -p "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
"$RLX" run tests/e2e/store/sweep.lua --set db="$T/a.db" --set label=machine-a >/dev/null
"$RLX" run tests/e2e/store/sweep.lua --set db="$T/b.db" --set label=machine-b >/dev/null

"$RLX" export "$T/a.db" --csv "$T/a.csv" --json "$T/a.json" 2>/dev/null
[ "$(wc -l <"$T/a.csv")" -eq 9 ] || fail "CSV should have a header and 8 rows: $(cat "$T/a.csv")"
# Seed 000's metrics.csv header (the kit's run_train.py), then rlx's columns.
head -1 "$T/a.csv" | grep -q '^timestamp,hostname,arch,backend,device_name,batch_size,warmup_iters,measured_iters,precision,lr,momentum,weight_decay,elapsed_sec,images_per_sec,images_processed,data_root,label,torch_version,channels_last,grad_accum_steps,deterministic,cudnn_benchmark,status,error,study,env,run,run_id,device,' \
  || fail "CSV header: $(head -1 "$T/a.csv")"
grep -q ',machine-a_m1_fp32_bs2_run1,' "$T/a.csv" || fail "CSV row label"
if command -v python3 >/dev/null; then
  python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1]))); assert len(r)==8, len(r); assert r[0]['images_per_sec']=='200', r[0]['images_per_sec']; assert r[0]['backend']=='cpu', r[0]['backend']" "$T/a.csv" \
    || fail "python csv could not read the export"
fi
grep -q '"samples"' "$T/a.json" || fail "JSON export lacks samples"

for round in 1 2; do
  "$RLX" merge "$T/out.db" "$T/a.db" "$T/b.db" >"$T/merge$round.out"
  got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$T/out.db")
  [ "$got" = "ok=16 failed=0 samples=48 orphans=0 envs=2 integrity=ok" ] || fail "merge round $round: $got"
done
grep -q "out.db: 16 runs in all (0 new)" "$T/merge2.out" || fail "second merge added runs: $(cat "$T/merge2.out")"

"$RLX" runs "$T/out.db" --model m2 --env machine-b >"$T/runs.out"
grep -q "^machine-b_m2_fp32_bs4_run2 *ok" "$T/runs.out" || fail "rlx runs: $(cat "$T/runs.out")"
grep -q "^4 runs (4 ok, 0 not ok)" "$T/runs.out" || fail "rlx runs count: $(cat "$T/runs.out")"
"$RLX" runs "$T/out.db" --summary >"$T/summary.out"
# Two repeats at 200 images/s each: SD 0, so the 95 % CI of the mean is 200-200 (±0.0 %), to three
# significant digits as the report's Table 2 prints it (issue 32: one builder); no roofline point.
grep -qF "| machine-a | m1 | fp32 | 2 | 2 | 200 ± 0 | 200–200 (±0.0 %) | - | - | - |" "$T/summary.out" ||
  fail "summary: $(cat "$T/summary.out")"
[ "$(grep -c '^| machine-' "$T/summary.out")" -eq 8 ] || fail "summary rows: $(cat "$T/summary.out")"
echo "cli ok"
