#!/usr/bin/env bash
# train_224.sh: rlx.train next to the plain Python loop (bench/train_loop.py, Debian's python3-torch
# 1.13 = the same LibTorch, oneDNN and OpenBLAS) at the seed's scale, 224x224, interleaved round by
# round so all the runs of a round see the same machine load. Per model and precision, each round
# runs:
#   rlx       rlx train with its defaults: the memory layout this machine's calibration chose for
#             the model (--memory-format auto, rlx.calibrate; probed once, outside the timed run),
#             glibc without mmap'd chunks or trimming, OpenBLAS on LibTorch's OpenMP threads
#   py        train_loop.py with PyTorch's and glibc's defaults (contiguous, glibc's mmap threshold)
#   py-cl     train_loop.py in channels_last, glibc's defaults (the other layout, for Python's best)
#   py-same   train_loop.py with rlx's settings: the layout rlx chose and --malloc rlx (the same two
#             mallopt calls rlx makes at start)
# On a shared machine, OMP_WAIT_POLICY=PASSIVE (given to all) keeps LibTorch's OpenMP threads from
# spinning while the other thread waits for a core (docs/benchmarks.md). All use the same thread
# count and whatever BLAS libblas.so.3 / libopenblas.so.0 point at. It prints images/s, CPU seconds
# (user + sys) per image, page faults per measured iteration, the step-to-step spread (CV of the
# measured iterations) and system seconds per run, the load average before each round, then each
# tool's best round and the ratios rlx / Python's best of its two layouts (defaults) and rlx /
# py-same (identical settings), by wall clock and by CPU time (Python's CPU-s per image over
# rlx's: less disturbed by other processes than the wall clock).
#
# On a machine shared with other work, NICE="nice -n -10" (as root) gives the runs priority over
# processes at the default priority, so that both tools see less of the other work.
#
#   bench/train_224.sh RLX [ROUNDS=2] [ITERS=3] [WARMUP=2] [BATCH=16] [THREADS=2]
# Two warm-up steps: the first grows both processes' heaps to their working size (tens of thousands of
# page faults in the second step when there is only one), which is start-up, not training.
#   MODELS="resnet50 vgg16 mobilenet_v2" PRECISIONS="fp32 bf16" bench/train_224.sh build/rlx 2
# Rounds alternate the order: rlx first in odd rounds, last in even ones.
# TOOLS="rlx py-same" runs only those of the four (rlx always runs: it picks the layout); the
# ratios of a tool left out print as "-". Useful to spend the rounds on the close comparison.
set -euo pipefail
rlx=${1:?usage: train_224.sh RLX [ROUNDS] [ITERS] [WARMUP] [BATCH] [THREADS]}
rounds=${2:-2}; iters=${3:-3}; warmup=${4:-2}; batch=${5:-16}; threads=${6:-2}
models=${MODELS:-resnet50 vgg16 mobilenet_v2}; precisions=${PRECISIONS:-fp32 bf16}
tools=" ${TOOLS:-rlx py py-cl py-same} "
wants() { [[ "$tools" == *" $1 "* ]]; }
# Learning rate for both tools: VGG-16 (no batch norm) diverges within five steps at rlx's default
# 0.1 on synthetic data (rlx stops the run with "the loss became nan", Python runs on); the rate
# does not change the work of a step.
lr=${LR:-0.01}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/python.sh"
NICE=${NICE:-}
# field NAME < json: the first number of "NAME": in a JSON text.
field() { tr -d '\n' | sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" | head -1; }
max() { awk -v x="$1" -v y="$2" 'BEGIN{print (x > y) ? x : y}'; }

run_rlx() {  # MODEL PRECISION
  env -u GLIBC_TUNABLES $NICE "$rlx" train --model "$1" --precision "$2" --batch-size "$batch" --input 224 \
    --iters "$iters" --warmup-iters "$warmup" --threads "$threads" --lr "$lr" --device cpu --json 2>/dev/null
}
run_py() {  # MODEL PRECISION MEMORY_FORMAT MALLOC
  env -u GLIBC_TUNABLES $NICE "$PY" "$here/train_loop.py" --model "$1" \
    --precision "$2" --memory-format "$3" --malloc "$4" --batch "$batch" --input 224 --iters "$iters" --warmup "$warmup" \
    --threads "$threads" --lr "$lr"
}
cpu_per_image() { awk -v u="$(field user_s <<<"$1")" -v s="$(field sys_s <<<"$1")" -v n="$((batch * iters))" \
  'BEGIN{printf "%.4f", (u + s) / n}'; }
# cv < json: the coefficient of variation of the "samples" array (sample SD over the mean).
cv() { tr -d '\n ' | sed -n 's/.*"samples":\[\([^]]*\)\].*/\1/p' | tr ',' '\n' |
  awk '{x[NR]=$1; s+=$1} END{if (NR<2) {print "-"; exit} m=s/NR; for(i=1;i<=NR;i++) v+=(x[i]-m)^2;
       printf "%.1f", 100*sqrt(v/(NR-1))/m}'; }
layout() { tr -d '\n' | sed -n 's/.*"memory_format": *"\([a-z_]*\)".*/\1/p' | head -1; }
row() {  # TOOL ROUND JSON
  printf "  %-8s round %d  %8.2f img/s  %8s cpu-s/img  %9.0f faults/iter  cv %5s %%  sys %6.2f s  %s\n" "$1" "$2" \
    "$(field images_per_s <<<"$3")" "$(cpu_per_image "$3")" \
    "$(awk -v f="$(field page_faults <<<"$3")" -v n="$iters" 'BEGIN{print f / n}')" "$(cv <<<"$3")" \
    "$(field sys_s <<<"$3")" "$(layout <<<"$3")"
}
min() { awk -v x="$1" -v y="$2" 'BEGIN{print (x < y) ? x : y}'; }

echo "batch=$batch input=224x224 iters=$iters warmup=$warmup threads=$threads lr=$lr rounds=$rounds; $("$rlx" version | grep -A2 Tuning | tr -s ' ' | tr '\n' ' ')"
summary=()
for model in $models; do
  for precision in $precisions; do
    echo "$model $precision"
    best_rlx=0; best_py=0; best_cl=0; best_same=0; cpu_rlx=1e9; cpu_py=1e9; cpu_cl=1e9; cpu_same=1e9; chose=""
    for r in $(seq 1 "$rounds"); do
      echo "  load before round $r: $(cut -d' ' -f1-3 /proc/loadavg)"
      # Odd rounds run rlx first, even rounds last (with the layout rlx chose in round 1), so that
      # neither tool always runs right after the other's heaviest work.
      if ((r % 2 == 1)); then a=$(run_rlx "$model" "$precision"); row rlx "$r" "$a"; fi
      [ -n "$chose" ] || chose=$(layout <<<"$a"); [ -n "$chose" ] || chose=channels_last
      b='{}'; d='{}'; c='{}'
      if wants py; then b=$(run_py "$model" "$precision" contiguous default); row py "$r" "$b"; fi
      if wants py-cl; then d=$(run_py "$model" "$precision" channels_last default); row py-cl "$r" "$d"; fi
      if wants py-same; then c=$(run_py "$model" "$precision" "$chose" rlx); row py-same "$r" "$c"; fi
      if ((r % 2 == 0)); then a=$(run_rlx "$model" "$precision"); row rlx "$r" "$a"; fi
      best_rlx=$(max "$(field images_per_s <<<"$a")" "$best_rlx")
      best_py=$(max "$(field images_per_s <<<"$b")" "$best_py")
      best_cl=$(max "$(field images_per_s <<<"$d")" "$best_cl")
      best_same=$(max "$(field images_per_s <<<"$c")" "$best_same")
      cpu_rlx=$(min "$(cpu_per_image "$a")" "$cpu_rlx")
      wants py && cpu_py=$(min "$(cpu_per_image "$b")" "$cpu_py")
      wants py-cl && cpu_cl=$(min "$(cpu_per_image "$d")" "$cpu_cl")
      wants py-same && cpu_same=$(min "$(cpu_per_image "$c")" "$cpu_same")
    done
    summary+=("$(awk -v m="$model" -v p="$precision" -v l="$chose" -v a="$best_rlx" -v b="$best_py" -v d="$best_cl" \
      -v c="$best_same" -v x="$cpu_rlx" -v y="$cpu_py" -v w="$cpu_cl" -v z="$cpu_same" \
      'function r(n, d) { return (n > 0 && n < 1e9 && d > 0 && d < 1e9) ? sprintf("%.3f", n / d) : "-" }
      BEGIN{pb = (b > d) ? b : d; pc = (y < w) ? y : w;
        printf "| %s | %s | %s | %.2f | %.2f | %.2f | %s | %s | %.2f | %s | %.4f | %.4f | %s | %s | %s |", m, p, l, a, b, d,
          r(a, b), r(a, pb), c, r(a, c), x, (pc < 1e9 ? pc : 0), r(y, x), r(pc, x), r(z, x)}')")
  done
done
echo
echo "| model | precision | rlx layout | rlx img/s | Python img/s contiguous (defaults) | Python img/s channels_last | rlx / defaults | rlx / Python's best | Python img/s (rlx's settings) | rlx / same | rlx cpu-s/img | Python's best cpu-s/img | CPU ratio (defaults / rlx) | CPU ratio (Python's best / rlx) | CPU ratio (same / rlx) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
printf "%s\n" "${summary[@]}"
