# tests/gpu/default_study.sh RLX OUTDIR: the default study on a GPU, as the README runs it, with
# a budget that fits a device call: `rlx run experiments/all.lua --set devices=cuda --set
# budget=3m`. Unlike study_cuda.sh (the smoke scale: fixed iterations, no plan), this is the
# default scale's whole path on CUDA: calibrate every model and precision here (the memory layout
# and seconds per image, issue 30 and 33), measure the peaks, plan against the budget, run at the
# quality protocol (timed until the 95 % CI is within ±2 %), report. The checks: exit 0, one plan
# line, the closing "done in X; the plan estimated Y" line (printed with the plan's miss), at least
# one run stored and every stored run ok on cuda, a calibration stored for the cuda device, and
# report.md written. STUDY_BUDGET (default 3m) and STUDY_TIMEOUT override. RLX_GPU_TEST_DEVICE=cpu:
# the plan only (`--dry-run`, devices=cpu).
set -uo pipefail
source "$(dirname "$0")/common.bash"

KIND=${DEVICE%%:*}
DIR="$OUTDIR/default"
DB="$DIR/gpu-default.db"
FIG="$DIR/figures"
rm -rf "$DIR"
mkdir -p "$DIR"
BUDGET=${STUDY_BUDGET:-3m}
ARGS=(--set devices="$KIND" --set name=gpu-default --set db="$DB" --set figures="$FIG" --set budget="$BUDGET")
[ "$DRY" = 1 ] && ARGS+=(--dry-run)
LOG="$DIR/all.log"
run_study "$DIR" "$DB" "${ARGS[@]}"
rc=$STUDY_RC t0=$STUDY_T0 t1=$STUDY_T1
grep -E '^(plan|calibrat|peaks|done|rlx.study)' "$LOG" | cut -c1-400
if [ $rc -eq 0 ]; then pass "rlx run experiments/all.lua exited 0 ($(elapsed "$t0" "$t1") s)"
else fail "rlx run experiments/all.lua exited $rc ($(elapsed "$t0" "$t1") s; 124 = timeout); see $LOG"; fi
plan=$(grep -cE '^plan: [0-9]+ runs' "$LOG" || true)
[ "$plan" -ge 1 ] && pass "a plan line ($plan)" || fail "no 'plan: N runs' line in $LOG"
if [ "$DRY" = 1 ]; then
  echo "SKIP database, calibration and report checks (dry run)"
else
  done_line=$(grep -E '^done in ' "$LOG" | tail -n 1)
  [ -n "$done_line" ] && pass "the closing line: $done_line" || fail "no 'done in' line in $LOG"
  q() { "$RLX" -e "local db = rlx.db.open('$DB', {readonly = true}); local r = db:first([[$1]]); print(r and r.n or 'none')" 2>&1; }
  n_runs=$(q "SELECT count(*) AS n FROM runs")
  n_bad=$(q "SELECT count(*) AS n FROM runs WHERE status != 'ok' OR device NOT LIKE 'cuda%'")
  n_cal=$(q "SELECT count(*) AS n FROM calibrations WHERE device LIKE 'cuda%'")
  [[ "$n_runs" =~ ^[0-9]+$ ]] && [ "$n_runs" -ge 1 ] && pass "runs stored ($n_runs)" || fail "runs stored: $n_runs"
  [ "$n_bad" = 0 ] && pass "every stored run ok on cuda" || fail "runs not ok or not on cuda: $n_bad"
  [[ "$n_cal" =~ ^[0-9]+$ ]] && [ "$n_cal" -ge 1 ] && pass "cuda calibrations stored ($n_cal)" || fail "cuda calibrations: $n_cal"
  grep -E '^calibrate: ' "$LOG" | head -n 12
  [ -s "$DIR/report.md" ] && pass "report.md written" || fail "no $DIR/report.md"
fi
echo "produced under $DIR:"
(cd "$DIR" && find . -type f -printf '  %p %s bytes\n' | sort)
finish default_study
