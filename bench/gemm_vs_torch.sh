#!/usr/bin/env bash
# gemm_vs_torch.sh: rlx's GEMM fp32 peak (rlx.peaks.measure{only = "gemm_fp32"}: LibTorch mm,
# n = 2048, best of 5 repeats of ~0.2 s) next to Python's torch.mm with the same n, threads and repeats
# (bench/torch_mm.py), interleaved round by round; both go to the BLAS behind libopenblas.so.0.
# Prints each round, the thread count each reports, then the best of each and the ratio.
#   bench/gemm_vs_torch.sh RLX [ROUNDS=3] [THREADS=2]
set -euo pipefail
rlx=${1:?usage: gemm_vs_torch.sh RLX [ROUNDS] [THREADS]}
rounds=${2:-3}; threads=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/python.sh"
NICE=${NICE:-}
field() { tr -d '\n' | sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" | head -1; }
best_r=0; best_p=0
for r in $(seq 1 "$rounds"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  read -r ar at < <($NICE "$rlx" -e "local p = rlx.peaks.measure{only = 'gemm_fp32', threads = $threads}
    print(p.gemm_fp32_gflops, p.gemm_threads.gemm_fp32_gflops)")
  b=$($NICE "$PY" "$here/torch_mm.py" "$threads" 2048 5)
  br=$(field gflops <<<"$b")
  printf "round %d: rlx %.1f GFLOP/s on %s threads | torch.mm %.1f GFLOP/s on %s BLAS threads | load %s\n" \
    "$r" "$ar" "$at" "$br" "$(field blas_threads <<<"$b")" "$load"
  best_r=$(awk -v x="$ar" -v y="$best_r" 'BEGIN{print (x > y) ? x : y}')
  best_p=$(awk -v x="$br" -v y="$best_p" 'BEGIN{print (x > y) ? x : y}')
done
awk -v a="$best_r" -v b="$best_p" 'BEGIN{printf "best: rlx %.1f, torch.mm %.1f GFLOP/s, ratio %.3f\n", a, b, a / b}'
