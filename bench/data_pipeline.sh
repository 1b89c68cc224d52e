#!/usr/bin/env bash
# data_pipeline.sh: rlx's JPEG ImageFolder loader next to torchvision's ImageFolder + DataLoader
# (PIL), same images, same transforms (random resized crop to 224, flip, normalize), same batch
# and workers, interleaved round by round. It first generates the images (bench/make_jpegs.py,
# ImageNet-like sizes) unless ROOT already holds them.
#
# rlx is measured through rlx.train with bench/data_probe_model.lua (average pool + linear: the
# step costs next to nothing) and one intra-op thread, so images/s is the loader's rate; workers
# = 0 decodes on the training thread (one worker's rate). torchvision through
# bench/torchvision_loader.py (workers = 0: the main process decodes). Per worker = images/s /
# max(1, workers). Then one real run at 224x224: ResNet-50 (batch 16) on the same folder with
# WORKERS loader threads, and the data wait as a share of the step time (data_wait_s / seconds).
#
#   bench/data_pipeline.sh RLX [ROOT=/tmp/rlx-jpeg-bench] [ROUNDS=2] [BATCHES=40] [WORKERS="0 2"]
set -euo pipefail
rlx=${1:?usage: data_pipeline.sh RLX [ROOT] [ROUNDS] [BATCHES] [WORKERS]}
root=${2:-/tmp/rlx-jpeg-bench}; rounds=${3:-2}; batches=${4:-40}; workers_list=${5:-0 2}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/python.sh"
NICE=${NICE:-}
field() { tr -d '\n' | sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" | head -1; }
[ -d "$root/train" ] || "$PY" "$here/make_jpegs.py" "$root" 2000 10

printf "%-8s %7s %5s %14s %16s %s\n" tool workers round "images/s" "per worker" "load"
for w in $workers_list; do
  best_r=0; best_t=0
  for r in $(seq 1 "$rounds"); do
    load=$(cut -d' ' -f1 /proc/loadavg)
    a=$($NICE "$rlx" train --model "$here/data_probe_model.lua" --data "$root" --workers "$w" --batch-size 16 \
          --iters "$batches" --warmup-iters 2 --threads 1 --device cpu --json)
    ai=$(field images_per_s <<<"$a")
    b=$($NICE "$PY" "$here/torchvision_loader.py" "$root" --workers "$w" --batch 16 --batches "$batches")
    bi=$(field images_per_s <<<"$b")
    n=$(( w > 0 ? w : 1 ))
    printf "%-8s %7d %5d %14.1f %16.1f %s\n" rlx "$w" "$r" "$ai" "$(awk -v x="$ai" -v n="$n" 'BEGIN{print x / n}')" "$load"
    printf "%-8s %7d %5d %14.1f %16.1f\n" torchvision "$w" "$r" "$bi" "$(awk -v x="$bi" -v n="$n" 'BEGIN{print x / n}')"
    best_r=$(awk -v x="$ai" -v y="$best_r" 'BEGIN{print (x > y) ? x : y}')
    best_t=$(awk -v x="$bi" -v y="$best_t" 'BEGIN{print (x > y) ? x : y}')
  done
  awk -v w="$w" -v a="$best_r" -v b="$best_t" \
    'BEGIN{n = w > 0 ? w : 1; printf "best, %d workers: rlx %.1f img/s (%.1f per worker), torchvision %.1f (%.1f per worker), ratio %.2f\n", w, a, a / n, b, b / n, a / b}'
done

rw=${WORKERS:-2}
j=$($NICE "$rlx" train --model resnet50 --data "$root" --workers "$rw" --batch-size 16 --input 224 --iters 3 \
      --warmup-iters 1 --threads 2 --device cpu --json)
awk -v w="$(field data_wait_s <<<"$j")" -v s="$(field seconds <<<"$j")" -v i="$(field images_per_s <<<"$j")" -v n="$rw" \
  'BEGIN{printf "resnet50 224x224 batch 16, %d loader threads: %.2f img/s, data wait %.3f s of %.2f s (%.1f%% of step time)\n", n, i, w, s, 100 * w / s}'
