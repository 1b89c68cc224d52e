#!/usr/bin/env bash
# blas_kernel.sh: issue 22's figures, before and after rlx's OpenBLAS core choice, interleaved round
# by round so both see the same machine load:
#   1. the core OpenBLAS runs, as OPENBLAS_VERBOSE=2 prints it ("Core: ...") and `rlx version` states
#      it: "before" = RLX_BLAS_AUTO=0 (OpenBLAS's own choice), "after" = rlx's default;
#   2. GEMM fp32 (n = 2048, THREADS threads): rlx's gemm_fp32 peak before and after, next to Python's
#      torch.mm (bench/torch_mm.py) with OPENBLAS_CORETYPE unset, SKYLAKEX and HASWELL (each only
#      when the CPU's flags allow it); target: rlx after >= 0.95x the best torch.mm;
#   3. VGG-16 fp32 training, synthetic data, before and after: 32x32 at batch 64 (the fully
#      connected layers, i.e. the BLAS, dominate) and 224x224 at batch 16 (convolutions in oneDNN).
# Prints every round and the OPENBLAS_VERBOSE=2 lines of each configuration, then a summary table
# for docs/benchmarks.md. Timing only on an idle machine; ~10 min with the defaults.
#   bench/blas_kernel.sh RLX [ROUNDS=3] [THREADS=2] [ITERS=5] [WARMUP=2]
set -euo pipefail
rlx=${1:?usage: blas_kernel.sh RLX [ROUNDS] [THREADS] [ITERS] [WARMUP]}
rounds=${2:-3}; threads=${3:-2}; iters=${4:-5}; warmup=${5:-2}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/python.sh"
NICE=${NICE:-}
field() { tr -d '\n' | sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" | head -1; }
max() { awk -v x="$1" -v y="$2" 'BEGIN{print (x > y) ? x : y}'; }
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
has() { for f in "$@"; do [[ " $flags " == *" $f "* ]] || return 1; done; }
coretypes=("")
has avx512f avx512bw avx512vl avx512dq avx2 fma && coretypes+=(SKYLAKEX)
has avx avx2 fma && coretypes+=(HASWELL)

echo "== OpenBLAS core (OPENBLAS_VERBOSE=2) and rlx version's BLAS line"
echo "-- before (RLX_BLAS_AUTO=0):"
RLX_BLAS_AUTO=0 OPENBLAS_VERBOSE=2 "$rlx" version 2>&1 | grep -E '^(Core:|BLAS)'
echo "-- after (rlx's choice):"
OPENBLAS_VERBOSE=2 "$rlx" version 2>&1 | grep -E '^(Core:|BLAS)'
for ct in "${coretypes[@]}"; do
  echo "-- torch.mm with OPENBLAS_CORETYPE=${ct:-<unset>}:"
  env ${ct:+OPENBLAS_CORETYPE=$ct} OPENBLAS_VERBOSE=2 "$PY" "$here/torch_mm.py" "$threads" 256 1 2>&1 |
    grep '^Core:' || echo "(no Core: line)"
done

gemm_rlx() {  # extra env for rlx ("" or RLX_BLAS_AUTO=0)
  env $1 $NICE "$rlx" -e "print(rlx.peaks.measure{only = 'gemm_fp32', threads = $threads, remeasure = 0}.gemm_fp32_gflops)"
}
echo
echo "== GEMM fp32, n=2048, $threads threads (best of 5 repeats per round)"
best_before=0; best_after=0; declare -A best_torch
for ct in "${coretypes[@]}"; do best_torch[${ct:-unset}]=0; done
for r in $(seq 1 "$rounds"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  b=$(gemm_rlx RLX_BLAS_AUTO=0); a=$(gemm_rlx "")
  best_before=$(max "$b" "$best_before"); best_after=$(max "$a" "$best_after")
  line=$(printf "round %d: rlx before %.1f, after %.1f" "$r" "$b" "$a")
  for ct in "${coretypes[@]}"; do
    t=$(env ${ct:+OPENBLAS_CORETYPE=$ct} $NICE "$PY" "$here/torch_mm.py" "$threads" 2048 5 | field gflops)
    best_torch[${ct:-unset}]=$(max "$t" "${best_torch[${ct:-unset}]}")
    line+=$(printf " | torch.mm %s %.1f" "${ct:-unset}" "$t")
  done
  echo "$line GFLOP/s | load $load"
done
best_t=0; best_ct="unset"
for k in "${!best_torch[@]}"; do
  if awk -v x="${best_torch[$k]}" -v y="$best_t" 'BEGIN{exit !(x > y)}'; then best_t=${best_torch[$k]}; best_ct=$k; fi
done

train() {  # extra env, input, batch -> images/s
  env $1 $NICE "$rlx" train --model vgg16 --precision fp32 --batch-size "$3" --input "$2" --iters "$iters" \
    --warmup-iters "$warmup" --threads "$threads" --lr 0.01 --device cpu --json | field images_per_s
}
echo
echo "== VGG-16 fp32 training, synthetic, $threads threads, $warmup warm-up + $iters timed iterations"
declare -A vgg
for case in "32 64" "224 16"; do
  read -r input batch <<<"$case"
  vgg[$input,before]=0; vgg[$input,after]=0
  for r in $(seq 1 "$rounds"); do
    load=$(cut -d' ' -f1 /proc/loadavg)
    b=$(train RLX_BLAS_AUTO=0 "$input" "$batch"); a=$(train "" "$input" "$batch")
    vgg[$input,before]=$(max "$b" "${vgg[$input,before]}"); vgg[$input,after]=$(max "$a" "${vgg[$input,after]}")
    printf "%sx%s batch %s round %d: before %.2f img/s, after %.2f img/s | load %s\n" "$input" "$input" "$batch" "$r" \
      "$b" "$a" "$load"
  done
done

echo
echo "| measurement | before (RLX_BLAS_AUTO=0) | after | after / before | reference |"
echo "|---|---|---|---|---|"
awk -v b="$best_before" -v a="$best_after" -v t="$best_t" -v c="$best_ct" 'BEGIN{printf "| GEMM fp32 n=2048 (GFLOP/s) | %.1f | %.1f | %.2fx | torch.mm best (OPENBLAS_CORETYPE=%s) %.1f: after / torch %.3f (target >= 0.95) |\n", b, a, a / b, c, t, a / t}'
for ct in "${coretypes[@]}"; do
  printf "| torch.mm, OPENBLAS_CORETYPE=%s (GFLOP/s) | | | | %.1f |\n" "${ct:-unset}" "${best_torch[${ct:-unset}]}"
done
for input in 32 224; do
  awk -v i="$input" -v b="${vgg[$input,before]}" -v a="${vgg[$input,after]}" 'BEGIN{printf "| VGG-16 fp32 %sx%s (img/s) | %.2f | %.2f | %.2fx | |\n", i, i, b, a, a / b}'
done
