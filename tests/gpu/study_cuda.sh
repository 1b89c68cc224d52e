# tests/gpu/study_cuda.sh RLX OUTDIR: the whole study pipeline on a GPU, end to end, as a user runs
# it: `rlx run experiments/all.lua --set devices=cuda` at the seed's 224x224 with the database, the
# figures and report.md under OUTDIR/study/. The smoke scale (no time budget, quick peaks) with
# input=224 and a small matrix that fits a device call: the three models x batch 64/128 x fp32, amp
# and bf16 x 2 repeats (the repeats give the precision speedups their CIs), 3 warm-up and 8 measured
# iterations (enough for CUPTI's passes, 5 on GH100; the counters are on in experiments/cuda.lua),
# so every roofline point is measured. STUDY_INPUT, STUDY_BATCH, STUDY_PRECISION, STUDY_REPEATS,
# STUDY_WARMUP, STUDY_ITERS override. When the study is stopped by its time limit (STUDY_TIMEOUT,
# default 330 s or what the caller's deadline leaves) the runs stored so far still get their report
# (`rlx report DB`). Then tests/gpu/study_check.lua checks the database (every run ok and on cuda,
# amp and bf16 runs ok, CUPTI counters and measured roofline points for every run, peaks stored),
# the figures (at least six) and report.md (AMP rows, precision speedups with CIs, measured
# roofline points), and the produced files are listed. Exit status 1 when any check failed.
# RLX_GPU_TEST_DEVICE=cpu: a dry run (`--dry-run`, devices=cpu: the plan only, nothing trained;
# database checks print SKIP).
set -uo pipefail
source "$(dirname "$0")/common.bash"

KIND=${DEVICE%%:*}
DIR="$OUTDIR/study"
DB="$DIR/gpu-smoke.db"
FIG="$DIR/figures"
rm -rf "$DIR"
mkdir -p "$DIR"
BATCH=${STUDY_BATCH:-64,128}
PRECISION=${STUDY_PRECISION:-fp32,amp,bf16}
REPEATS=${STUDY_REPEATS:-2}
ARGS=(--set scale=smoke --set devices="$KIND" --set name=gpu-smoke --set db="$DB" --set figures="$FIG"
      --set input="${STUDY_INPUT:-224}" --set batch="$BATCH" --set precision="$PRECISION" --set repeats="$REPEATS"
      --set warmup="${STUDY_WARMUP:-3}" --set iters="${STUDY_ITERS:-8}")
[ "$DRY" = 1 ] && ARGS+=(--dry-run)
LOG="$DIR/all.log"
run_study "$DIR" "$DB" "${ARGS[@]}"
rc=$STUDY_RC t0=$STUDY_T0 t1=$STUDY_T1
grep -vE '^\[[0-9]+/[0-9]+\]' "$LOG" | tail -n 14
if [ $rc -eq 0 ]; then pass "rlx run experiments/all.lua exited 0 ($(elapsed "$t0" "$t1") s)"
else fail "rlx run experiments/all.lua exited $rc ($(elapsed "$t0" "$t1") s; 124 = timeout); see $LOG"; fi
warn=$(grep -ciE 'warning|failed' "$LOG" || true)
echo "lines with 'warning' or 'failed' in the log: $warn"

CHECK_ARGS=(--set db="$DB" --set figures="$FIG" --set kind="$KIND" --set batch="$BATCH" --set precision="$PRECISION"
            --set repeats="$REPEATS" --set report="$DIR/report.md")
[ "$DRY" = 1 ] && CHECK_ARGS+=(--set dry=true)
"$RLX" run "$GPU_TESTS/study_check.lua" "${CHECK_ARGS[@]}" >"$DIR/check.log" 2>&1
crc=$?
cat "$DIR/check.log"
count_log "$DIR/check.log"
[ $crc -eq 0 ] || fail "study_check.lua exited $crc"

echo "produced under $DIR:"
(cd "$DIR" && find . -type f -printf '  %p %s bytes\n' | sort)
finish study_cuda
