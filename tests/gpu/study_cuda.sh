#!/usr/bin/env bash
# tests/gpu/study_cuda.sh RLX OUTDIR: the whole study pipeline on a GPU, end to end, as a user runs
# it: `rlx run experiments/all.lua --set scale=smoke --set devices=cuda` with the database and the
# figures under OUTDIR/study/. That measures and stores the CUDA peaks (quick), runs
# experiments/cuda.lua's sweep (resnet50, vgg16, mobilenet_v2 x batch 64/128/256 x fp32/amp x 2
# repeats, 32x32 synthetic images, CUPTI counters on), stores runs, counters and roofline points,
# and draws every figure. The smoke scale's single measured iteration is too few for CUPTI (one
# pass per measured iteration, 5 passes on GH100), so `--set warmup=1 --set iters=6` overrides it
# (STUDY_WARMUP / STUDY_ITERS); without it every run would store counters unavailable and only
# estimated roofline points. The CPU is left out (devices=cuda): the CPU sweep is for CPU machines.
# Then tests/gpu/study_check.lua checks the database (all 36 runs ok and on cuda, amp runs ok,
# CUPTI counters and measured roofline points for every run, peaks stored) and the figures (at
# least six), and the produced files are listed. A few minutes on an H100 (limit STUDY_TIMEOUT,
# 230 s). Exit status 1 when any check failed. RLX_GPU_TEST_DEVICE=cpu: a dry run (`--dry-run`,
# devices=cpu: the plan only, nothing trained; database checks print SKIP).
set -uo pipefail
source "$(dirname "$0")/common.bash"

KIND=${DEVICE%%:*}
DIR="$OUTDIR/study"
DB="$DIR/gpu-smoke.db"
FIG="$DIR/figures"
rm -rf "$DIR"
mkdir -p "$DIR"
ARGS=(--set scale=smoke --set devices="$KIND" --set name=gpu-smoke --set db="$DB" --set figures="$FIG"
      --set warmup="${STUDY_WARMUP:-1}" --set iters="${STUDY_ITERS:-6}")
[ "$DRY" = 1 ] && ARGS+=(--dry-run)
LOG="$DIR/all.log"
echo "cd $REPO && $RLX run experiments/all.lua ${ARGS[*]}" | tee "$DIR/command.txt"
t0=$(now)
(cd "$REPO" && timeout "${STUDY_TIMEOUT:-230}" "$RLX" run experiments/all.lua "${ARGS[@]}") >"$LOG" 2>&1
rc=$?
t1=$(now)
grep -vE '^\[[0-9]+/[0-9]+\]' "$LOG" | tail -n 14
if [ $rc -eq 0 ]; then pass "rlx run experiments/all.lua exited 0 ($(elapsed "$t0" "$t1") s)"
else fail "rlx run experiments/all.lua exited $rc ($(elapsed "$t0" "$t1") s; 124 = timeout); see $LOG"; fi
warn=$(grep -ciE 'warning|failed' "$LOG" || true)
echo "lines with 'warning' or 'failed' in the log: $warn"

CHECK_ARGS=(--set db="$DB" --set figures="$FIG" --set kind="$KIND")
[ "$DRY" = 1 ] && CHECK_ARGS+=(--set dry=true)
"$RLX" run "$GPU_TESTS/study_check.lua" "${CHECK_ARGS[@]}" >"$DIR/check.log" 2>&1
crc=$?
cat "$DIR/check.log"
count_log "$DIR/check.log"
[ $crc -eq 0 ] || fail "study_check.lua exited $crc"

echo "produced under $DIR:"
(cd "$DIR" && find . -type f -printf '  %p %s bytes\n' | sort)
finish study_cuda
