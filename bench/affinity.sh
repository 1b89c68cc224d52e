#!/usr/bin/env bash
# affinity.sh: rlx train with libgomp's threads free (no OMP_PROC_BIND, as rlx and the Python loop
# run by default) and pinned to cores (OMP_PROC_BIND=true), each model's two runs back to back, the
# order alternating between rounds, so only ratios within a round are read on a drifting machine.
# The layout is whatever rlx's calibration chose for the model here (--memory-format auto: probed
# once per environment and kept, so after the first round no probe runs inside the comparison).
# Prints per run images/s and per round the ratio bound / free (docs/benchmarks.md, "Thread
# affinity").
#
#   bench/affinity.sh RLX [ROUNDS=4] [ITERS=4] [WARMUP=2] [BATCH=16]
#   MODELS="resnet50 vgg16 mobilenet_v2" INPUT=224 bench/affinity.sh build/rlx 4
set -euo pipefail
source "$(dirname "$0")/_ab_rounds.sh"
rlx=${1:?usage: affinity.sh RLX [ROUNDS] [ITERS] [WARMUP] [BATCH]}
rounds=${2:-4}; iters=${3:-4}; warmup=${4:-2}; batch=${5:-16}
field() { tr -d '\n' | sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" | head -1; }
one() {  # MODEL free|bound -> images/s
  local -a envs=(env -u OMP_PROC_BIND -u OMP_PLACES -u GOMP_CPU_AFFINITY)
  [ "$2" = bound ] && envs+=(OMP_PROC_BIND=true)
  local out
  out=$("${envs[@]}" "$rlx" train --model "$1" --batch-size "$batch" --input "${INPUT:-224}" --iters "$iters" \
    --warmup-iters "$warmup" --threads 2 --lr 0.01 --device cpu --json 2>/dev/null)
  printf "  %-12s %-5s %8.2f img/s  layout %s\n" "$1" "$2" "$(field images_per_s <<<"$out")" \
    "$(tr -d '\n' <<<"$out" | sed -n 's/.*"memory_format": *"\([a-z_]*\)".*/\1/p' | head -1)" >&2
  field images_per_s <<<"$out"
}
ab_rounds "$rounds" free bound
