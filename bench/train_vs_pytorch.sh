#!/usr/bin/env bash
# train_vs_pytorch.sh: rlx.train next to a plain Python PyTorch loop (bench/train_loop.py, Debian's
# python3-torch = the same LibTorch 1.13), same model, batch, input, threads, synthetic data and
# SGD, interleaved round by round so both see the same machine load. Per round it prints images/s
# (wall clock) and CPU seconds (user + sys) per image of the measured section; then the best
# round of each and the ratios rlx / Python (>= 1.0 means rlx is at least as fast). On a machine
# shared with other work the wall-clock figure swings with the load; CPU time per image does not.
#
# PY_ARGS adds options to the Python loop: PY_ARGS="--memory-format channels_last --malloc rlx" gives it
# rlx's settings (the like-for-like comparison of the two loops).
#
#   bench/train_vs_pytorch.sh RLX MODEL BATCH [INPUT=64] [ITERS=10] [WARMUP=2] [THREADS=2] [ROUNDS=3]
#   bench/train_vs_pytorch.sh build/rlx resnet18 16 64
set -euo pipefail
rlx=${1:?usage: train_vs_pytorch.sh RLX MODEL BATCH [INPUT] [ITERS] [WARMUP] [THREADS] [ROUNDS]}
model=${2:?model}; batch=${3:?batch}; input=${4:-64}; iters=${5:-10}; warmup=${6:-2}
threads=${7:-2}; rounds=${8:-3}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/python.sh"
# field NAME < json: the first number of "NAME": in a JSON text.
field() { tr -d '\n' | sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" | head -1; }
cpu_per_image() { awk -v u="$1" -v s="$2" -v n="$((batch * iters))" 'BEGIN{printf "%.5f", (u + s) / n}'; }

best_rlx=0; best_py=0; cpu_rlx=1e9; cpu_py=1e9
echo "model=$model batch=$batch input=${input}x${input} iters=$iters warmup=$warmup threads=$threads rounds=$rounds python: ${PY_ARGS:-defaults}"
printf "%-6s %12s %12s %16s %16s\n" round "rlx img/s" "python img/s" "rlx cpu-s/img" "python cpu-s/img"
for r in $(seq 1 "$rounds"); do
  a=$("$rlx" train --model "$model" --batch-size "$batch" --input "$input" --iters "$iters" \
        --warmup-iters "$warmup" --threads "$threads" --device cpu --json)
  b=$("$PY" "$here/train_loop.py" --model "$model" --batch "$batch" --input "$input" \
        --iters "$iters" --warmup "$warmup" --threads "$threads" ${PY_ARGS:-})
  ai=$(field images_per_s <<<"$a"); bi=$(field images_per_s <<<"$b")
  ac=$(cpu_per_image "$(field user_s <<<"$a")" "$(field sys_s <<<"$a")")
  bc=$(cpu_per_image "$(field user_s <<<"$b")" "$(field sys_s <<<"$b")")
  printf "%-6s %12.2f %12.2f %16s %16s\n" "$r" "$ai" "$bi" "$ac" "$bc"
  best_rlx=$(awk -v x="$ai" -v y="$best_rlx" 'BEGIN{print (x > y) ? x : y}')
  best_py=$(awk -v x="$bi" -v y="$best_py" 'BEGIN{print (x > y) ? x : y}')
  cpu_rlx=$(awk -v x="$ac" -v y="$cpu_rlx" 'BEGIN{print (x < y) ? x : y}')
  cpu_py=$(awk -v x="$bc" -v y="$cpu_py" 'BEGIN{print (x < y) ? x : y}')
done
printf "best   %12.2f %12.2f %16s %16s\n" "$best_rlx" "$best_py" "$cpu_rlx" "$cpu_py"
awk -v a="$best_rlx" -v b="$best_py" -v c="$cpu_rlx" -v d="$cpu_py" \
  'BEGIN{printf "ratio rlx/python: images/s %.3f, CPU efficiency (python cpu-s / rlx cpu-s) %.3f\n", a / b, d / c}'
