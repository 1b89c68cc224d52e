#!/usr/bin/env bash
# huge_pages.sh: rlx train with and without transparent huge pages for its heap (RLX_HUGE_PAGES=1,
# docs/training.md "Huge pages"), each model's two runs back to back, the order alternating between
# rounds (huge pages second in odd rounds, first in even ones), so only ratios within a round are
# read on a drifting machine. The layout is the one this machine's calibration chose for the model
# (asked once per model before the rounds, without huge pages: a batch-2 step of `rlx train` with
# --memory-format auto), then given to every run, so no calibration probe runs inside the
# comparison. Prints per run images/s, user CPU seconds and page faults of the timed iterations,
# and per round the ratio.
#
#   bench/huge_pages.sh RLX [ROUNDS=3] [ITERS=4] [WARMUP=2] [BATCH=16]
#   MODELS="resnet50 vgg16 mobilenet_v2" bench/huge_pages.sh build/rlx 3
#   INPUT=64 bench/huge_pages.sh build/rlx 2      (small inputs; default 224)
set -euo pipefail
source "$(dirname "$0")/_ab_rounds.sh"
rlx=${1:?usage: huge_pages.sh RLX [ROUNDS] [ITERS] [WARMUP] [BATCH]}
rounds=${2:-3}; iters=${3:-4}; warmup=${4:-2}; batch=${5:-16}
echo "kernel: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo 'no THP')"
declare -A layouts=()
for m in ${MODELS:-resnet50 vgg16 mobilenet_v2}; do
  layouts[$m]=$(env -u GLIBC_TUNABLES -u RLX_STARTUP RLX_HUGE_PAGES=0 "$rlx" train --model "$m" --batch-size 2 \
    --input "${INPUT:-224}" --iters 1 --warmup-iters 0 --threads 2 --lr 0.01 --device cpu --json 2>/dev/null |
    tr -d '\n' | sed -n 's/.*"memory_format": *"\([a-z_]*\)".*/\1/p' | head -1)
  echo "layout $m: ${layouts[$m]} (rlx's calibration here)"
done
layout() { echo "${layouts[$1]}"; }
field() { tr -d '\n' | sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" | head -1; }
one() {  # MODEL huge|small -> images/s
  local out
  out=$(env -u GLIBC_TUNABLES -u RLX_STARTUP RLX_HUGE_PAGES=$([ "$2" = huge ] && echo 1 || echo 0) "$rlx" train \
    --model "$1" --batch-size "$batch" --input "${INPUT:-224}" --iters "$iters" --warmup-iters "$warmup" --threads 2 --lr 0.01 \
    --device cpu --memory-format "$(layout "$1")" --json 2>/dev/null)
  printf "  %-12s %-5s %8.2f img/s  user %7.1f s  faults %7s\n" "$1" "$2" "$(field images_per_s <<<"$out")" \
    "$(field user_s <<<"$out")" "$(field page_faults <<<"$out")" >&2
  field images_per_s <<<"$out"
}
ab_rounds "$rounds" small huge
