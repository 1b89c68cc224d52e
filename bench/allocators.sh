#!/usr/bin/env bash
# allocators.sh: page-fault churn of one rlx training run per allocator, interleaved round by round.
# Each variant trains the same model (default ResNet-50, 224x224, batch 16, 2 threads); the figures
# are those of the measured section that rlx.train reports: page faults per iteration (getrusage
# minor + major), system seconds, images/s and the peak RSS.
#   glibc-default  glibc's own thresholds (GLIBC_TUNABLES=glibc.malloc.tcache_count=7, glibc's
#                  default, is set only so that rlx, seeing the variable, leaves glibc alone)
#   glibc-32M      the settings rlx used before: mmap threshold 32 MiB, trim threshold 1 GiB
#   glibc-1G       mmap threshold 1 GiB, trim threshold 4 GiB (issue 12's experiment)
#   rlx            rlx's own setting (no mmap'd chunks in the main arena, no trimming)
#   jemalloc       Debian's libjemalloc2, preloaded, its defaults
#   tcmalloc       Debian's libtcmalloc-minimal4, preloaded, its defaults
#
#   bench/allocators.sh RLX [ROUNDS=1] [MODEL=resnet50] [BATCH=16] [ITERS=2]
set -euo pipefail
rlx=${1:?usage: allocators.sh RLX [ROUNDS] [MODEL] [BATCH] [ITERS]}
rounds=${2:-1}; model=${3:-resnet50}; batch=${4:-16}; iters=${5:-2}
lib=/usr/lib/x86_64-linux-gnu
NICE=${NICE:-}
field() { tr -d '\n' | sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" | head -1; }

variant_env() {
  case $1 in
    glibc-default) echo "GLIBC_TUNABLES=glibc.malloc.tcache_count=7" ;;
    glibc-32M) echo "MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=1073741824" ;;
    glibc-1G) echo "MALLOC_MMAP_THRESHOLD_=1073741824 MALLOC_TRIM_THRESHOLD_=4294967296" ;;
    rlx) echo "RLX_BENCH=1" ;;
    jemalloc) echo "LD_PRELOAD=$lib/libjemalloc.so.2" ;;
    tcmalloc) echo "LD_PRELOAD=$lib/libtcmalloc_minimal.so.4" ;;
  esac
}

echo "model=$model batch=$batch input=224 iters=$iters threads=2 rounds=$rounds"
printf "%-14s %5s %10s %16s %8s %12s %s\n" variant round "img/s" "faults/iter" "sys s" "max RSS MB" "load"
for r in $(seq 1 "$rounds"); do
  for v in glibc-default glibc-32M glibc-1G rlx jemalloc tcmalloc; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    # shellcheck disable=SC2046
    j=$(env $(variant_env "$v") $NICE "$rlx" train --model "$model" --batch-size "$batch" --input 224 \
          --iters "$iters" --warmup-iters 1 --threads 2 --device cpu --json)
    printf "%-14s %5d %10.2f %16.0f %8.2f %12.0f %s\n" "$v" "$r" "$(field images_per_s <<<"$j")" \
      "$(awk -v f="$(field page_faults <<<"$j")" -v n="$iters" 'BEGIN{print f / n}')" "$(field sys_s <<<"$j")" \
      "$(awk -v b="$(field max_rss_bytes <<<"$j")" 'BEGIN{print b / 1e6}')" "$load"
  done
done
