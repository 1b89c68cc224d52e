#!/usr/bin/env bash
# omp_wait.sh: how libgomp's waiting at barriers changes a training step, idle and time-shared.
# LibTorch's CPU kernels run in OpenMP parallel regions; at each region's end a thread that is done
# waits for the others, spinning GOMP_SPINCOUNT times before it sleeps in the kernel. libgomp reads
# the policy when it is loaded, so each setting is its own process. Per model and round, each
# setting trains in turn (2 threads, synthetic data), first on the idle machine, then with BUSY
# processes spinning beside it (the machine shared with other work, e.g. a build or a second job):
#   default   libgomp's own (spin 300,000 times, then sleep), given as GOMP_SPINCOUNT=300000 so that
#             rlx keeps it (with no variable set rlx chooses itself on a shared machine)
#   short     GOMP_SPINCOUNT=SHORT (default 10000: 0.27 ms of spinning on a Zen 3 EPYC, then sleep)
#   passive   OMP_WAIT_POLICY=PASSIVE (sleep at once)
#   rlx       no variable: what rlx chooses from the load at start (docs/training.md, "OpenMP
#             waiting"): libgomp's default when idle, a spin of 0.27 ms timed on this core when shared
# The layout is channels_last for all (the calibration would probe again under load).
# It prints images/s per run and each setting's best round per regime.
#   bench/omp_wait.sh RLX [ROUNDS=2] [BATCH=16] [INPUT=224] [BUSY=2]
#   MODELS="mobilenet_v2 resnet50" SHORT=10000 REGIMES="idle shared" bench/omp_wait.sh build/rlx 2
set -euo pipefail
rlx=${1:?usage: omp_wait.sh RLX [ROUNDS] [BATCH] [INPUT] [BUSY]}
rounds=${2:-2}; batch=${3:-16}; input=${4:-224}; busy=${5:-2}
models=${MODELS:-mobilenet_v2 resnet50}; short=${SHORT:-10000}; regimes=${REGIMES:-idle shared}
field() { tr -d '\n' | sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" | head -1; }
run() {  # MODEL SETTING
  local -a envs=(env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT)
  case "$2" in
    default) envs+=(GOMP_SPINCOUNT=300000) ;;
    short) envs+=(GOMP_SPINCOUNT="$short") ;;
    passive) envs+=(OMP_WAIT_POLICY=PASSIVE) ;;
  esac
  "${envs[@]}" "$rlx" train --model "$1" --batch-size "$batch" --input "$input" --iters 4 --warmup-iters 2 \
    --threads 2 --lr 0.01 --device cpu --memory-format channels_last --json 2>/dev/null | field images_per_s
}
spinners=()
start_busy() { for _ in $(seq 1 "$busy"); do (while :; do :; done) & spinners+=($!); done; }
stop_busy() { kill "${spinners[@]}" 2>/dev/null || true; wait "${spinners[@]}" 2>/dev/null || true; spinners=(); }
trap stop_busy EXIT
echo "batch=$batch input=${input}x$input threads=2 short=GOMP_SPINCOUNT=$short busy=$busy rounds=$rounds"
echo "columns: | model | regime | default (300000) | short ($short) | passive | rlx's choice |"
for model in $models; do
  for regime in $regimes; do
    declare -A best=([default]=0 [short]=0 [passive]=0 [rlx]=0)
    for r in $(seq 1 "$rounds"); do
      [ "$regime" = shared ] && start_busy
      for s in default short passive rlx; do
        v=$(run "$model" "$s"); echo "  $model $regime round $r $s: $v img/s"
        best[$s]=$(awk -v x="$v" -v y="${best[$s]}" 'BEGIN{print (x > y) ? x : y}')
      done
      [ "$regime" = shared ] && stop_busy
    done
    echo "| $model | $regime | ${best[default]} | ${best[short]} | ${best[passive]} | ${best[rlx]} |"
  done
done
