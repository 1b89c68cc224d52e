#!/usr/bin/env bash
# gpu_vs_pytorch.sh RLX OUTDIR [ROUNDS=3]: rlx.train on CUDA against a plain Python CUDA loop
# (bench/gpu_train_loop.py: torchvision model, channels_last, 224x224 synthetic, SGD lr 0.01
# momentum 0.9 weight decay 1e-4, TF32 off, each step timed with CUDA events and synchronized as
# rlx does), issue 46's cases: ResNet-50 amp and bf16, MobileNetV2 amp, batch 64 (CASES=...).
# rlx: eager and cuda_graphs (bench/gpu_vs_pytorch.lua); Python: foreach SGD (PyTorch's CUDA
# default), per-parameter SGD, and whole-step CUDA graphs. Rounds are interleaved, one process
# per tool per round (rlx first in odd rounds, Python first in even ones), so a drifting machine
# does not favour one side; the table (bench/gpu_vs_pytorch_table.lua) gives each median images/s
# over the rounds and the within-round ratios with their range. Run it with nothing else on the
# machine: a launch-bound GPU step waits on its host thread (docs/gpu.md).
# Output: the table on stdout and in OUTDIR/gpu_vs_pytorch.md, every row in
# OUTDIR/gpu_vs_pytorch.jsonl, each process's log. About 45 s a round on an H100-class GPU.
# RLX_GPU_TEST_DEVICE=cpu: a dry run of the script (rlx on the CPU at tiny shapes, where
# cuda_graphs is refused; the Python loop only where python3 has torch and a GPU).
set -uo pipefail
RLX=$(realpath "${1:?usage: gpu_vs_pytorch.sh RLX OUTDIR [ROUNDS]}")
mkdir -p "${2:?usage: gpu_vs_pytorch.sh RLX OUTDIR [ROUNDS]}"
OUTDIR=$(realpath "$2")
ROUNDS=${3:-${RLX_BENCH_ROUNDS:-3}}
HERE=$(cd "$(dirname "$0")" && pwd)
PY=${RLX_PYTHON:-python3}
DEVICE=${RLX_GPU_TEST_DEVICE:-cuda}
CASES=${CASES:-resnet50:amp:64,resnet50:bf16:64,mobilenet_v2:amp:64}
INPUT=224 WARMUP=5 ITERS=30
if [ "$DEVICE" = cpu ]; then CASES=${DRY_CASES:-resnet18:fp32:2} INPUT=32 WARMUP=1 ITERS=2; fi
# The libraries scripts/gpu/build-and-test.sh unpacked, when this runs on its own afterwards.
[ -d /tmp/rlx-deps/usr/lib/x86_64-linux-gnu ] && export LD_LIBRARY_PATH="/tmp/rlx-deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
JSONL=$OUTDIR/gpu_vs_pytorch.jsonl
: >"$JSONL"
python_ok=0
if "$PY" -c 'import torch, torchvision, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  python_ok=1
  "$PY" -c 'import torch, torchvision; print("python:", torch.__version__, "torchvision", torchvision.__version__, torch.cuda.get_device_name(0))'
else
  echo "SKIP the Python loop: $PY has no torch with a visible GPU, or no torchvision"
fi
echo "rlx: $("$RLX" version | head -n 1); cases $CASES, ${INPUT}x${INPUT}, $WARMUP warm-up + $ITERS timed steps, $ROUNDS rounds"

side_rlx() {
  "$RLX" run "$HERE/gpu_vs_pytorch.lua" --set cases="$CASES" --set device="$DEVICE" --set input="$INPUT" \
    --set warmup="$WARMUP" --set iters="$ITERS" --set round="$1" >"$OUTDIR/rlx_round$1.jsonl" 2>"$OUTDIR/rlx_round$1.log"
  echo "  rlx round $1 exit $?"
  cat "$OUTDIR/rlx_round$1.jsonl" >>"$JSONL"
}
side_python() {
  [ "$python_ok" = 1 ] || return 0
  PYTHONUNBUFFERED=1 "$PY" "$HERE/gpu_train_loop.py" --cases "$CASES" --input "$INPUT" --warmup "$WARMUP" \
    --iters "$ITERS" --round "$1" >"$OUTDIR/python_round$1.jsonl" 2>"$OUTDIR/python_round$1.log"
  echo "  python round $1 exit $?"
  cat "$OUTDIR/python_round$1.jsonl" >>"$JSONL"
}
# Under scripts/gpu/build-and-test.sh (RLX_STEP_DEADLINE: seconds this script may take), a round is
# started only when one more as long as the slowest so far still ends 20 s before the deadline,
# so the table of the rounds done is always written.
START=$(date +%s)
slowest=0
for r in $(seq 1 "$ROUNDS"); do
  if [ -n "${RLX_STEP_DEADLINE:-}" ] && [ $(($(date +%s) - START + slowest + 20)) -gt "$RLX_STEP_DEADLINE" ]; then
    echo "round $r not started: the deadline leaves too little time (a round took ${slowest}s)"
    break
  fi
  t0=$(date +%s)
  echo "round $r ($(date -u +%H:%M:%S))"
  if ((r % 2)); then side_rlx "$r"; side_python "$r"; else side_python "$r"; side_rlx "$r"; fi
  took=$(($(date +%s) - t0))
  [ "$took" -gt "$slowest" ] && slowest=$took
done
"$RLX" run "$HERE/gpu_vs_pytorch_table.lua" --set jsonl="$JSONL" --set md="$OUTDIR/gpu_vs_pytorch.md"
echo "== gpu_vs_pytorch: $ROUNDS round(s), the table in $OUTDIR/gpu_vs_pytorch.md"
