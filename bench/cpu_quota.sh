#!/usr/bin/env bash
# cpu_quota.sh: training inside a real cgroup CPU quota (as `docker run --cpus=Q` sets one), where
# the affinity mask keeps every CPU but the group is throttled once it has used Q CPUs' time in a
# period. Per model, each round runs, back to back in an order that alternates between rounds:
#   rlx       rlx train with its default threads: the mask's CPUs capped by the quota, rounded up
#             (engine/util/cpu_quota.h)
#   rlx-all   rlx train --threads <mask's CPUs>: the default before the cap
#   py        bench/train_loop.py with one thread per CPU of the mask, as libgomp (and so PyTorch)
#             sizes its team: it does not read quotas
#   py-q      bench/train_loop.py with rlx's capped count (the Python loop tuned by hand)
# All in the same layout (LAYOUT, default channels_last) so only the thread count differs. Prints
# images/s per run, each tool's best round and rlx's ratio to each (docs/benchmarks.md, "A cgroup
# CPU quota"). Needs root and a cgroup v1 cpu controller or a v2 group that delegates `cpu`.
#
#   bench/cpu_quota.sh RLX [ROUNDS=3] [ITERS=4] [WARMUP=2] [BATCH=16]
#   QUOTA=1 MODELS="resnet50 mobilenet_v2" INPUT=224 bench/cpu_quota.sh build/rlx 2 3 2
set -euo pipefail
rlx=${1:?usage: cpu_quota.sh RLX [ROUNDS] [ITERS] [WARMUP] [BATCH]}
rounds=${2:-3}; iters=${3:-4}; warmup=${4:-2}; batch=${5:-16}
quota=${QUOTA:-1}; input=${INPUT:-224}; layout=${LAYOUT:-channels_last}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/python.sh"
mask=$(env -u OMP_NUM_THREADS nproc)
period=100000
v1=/sys/fs/cgroup/cpu$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3 }' /proc/self/cgroup)
if [ -w "$v1/cpu.cfs_quota_us" ]; then
  parent=$v1
  group=${v1%/}/rlx-bench-quota-$$
  mkdir "$group"
  echo "$period" >"$group/cpu.cfs_period_us"
  awk -v q="$quota" -v p="$period" 'BEGIN{printf "%d\n", q * p}' >"$group/cpu.cfs_quota_us"
else
  parent=/sys/fs/cgroup$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
  group=${parent%/}/rlx-bench-quota-$$
  mkdir "$group"
  awk -v q="$quota" -v p="$period" 'BEGIN{printf "%d %d\n", q * p, p}' >"$group/cpu.max"
fi
# Out of the group before removing it (a group with a process in it cannot be removed).
trap 'echo $$ >"$parent/cgroup.procs"; rmdir "$group"' EXIT
echo $$ >"$group/cgroup.procs"  # this shell and every run it starts
capped=$("$rlx" -e 'print(rlx.env.usable_cpus())')
field() { tr -d '\n' | sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" | head -1; }
one() {  # MODEL TOOL -> images/s
  local out
  case $2 in
    rlx) out=$("$rlx" train --model "$1" --batch-size "$batch" --input "$input" --iters "$iters" \
      --warmup-iters "$warmup" --memory-format "$layout" --lr 0.01 --device cpu --json 2>/dev/null) ;;
    rlx-all) out=$("$rlx" train --model "$1" --batch-size "$batch" --input "$input" --iters "$iters" \
      --warmup-iters "$warmup" --memory-format "$layout" --lr 0.01 --device cpu --threads "$mask" --json 2>/dev/null) ;;
    py | py-q) out=$("$PY" "$here/train_loop.py" --model "$1" --batch "$batch" --input "$input" \
      --iters "$iters" --warmup "$warmup" --memory-format "$layout" --lr 0.01 \
      --threads "$([ "$2" = py ] && echo "$mask" || echo "$capped")") ;;
  esac
  printf "  %-12s %-8s %8.2f img/s  threads %s\n" "$1" "$2" "$(field images_per_s <<<"$out")" \
    "$(field threads <<<"$out")" >&2
  field images_per_s <<<"$out"
}
echo "quota $quota CPUs ($group), mask $mask CPUs, rlx's default threads $capped; input ${input}x$input batch $batch" \
  "layout $layout, $warmup warm-up + $iters timed steps, $rounds rounds"
tools=(rlx rlx-all py py-q)
for m in ${MODELS:-resnet50 mobilenet_v2}; do
  declare -A best=()
  for r in $(seq 1 "$rounds"); do
    order=("${tools[@]}")
    ((r % 2)) || order=(py-q py rlx-all rlx)
    for t in "${order[@]}"; do
      x=$(one "$m" "$t")
      best[$t]=$(awk -v a="${best[$t]:-0}" -v b="$x" 'BEGIN{print (b > a) ? b : a}')
    done
  done 2>&1
  printf "%s best:" "$m"
  for t in "${tools[@]}"; do printf " %s %.2f" "$t" "${best[$t]}"; done
  printf "; rlx / rlx-all %.2f, rlx / py %.2f, rlx / py-q %.2f\n" \
    "$(awk -v a="${best[rlx]}" -v b="${best[rlx-all]}" 'BEGIN{print a / b}')" \
    "$(awk -v a="${best[rlx]}" -v b="${best[py]}" 'BEGIN{print a / b}')" \
    "$(awk -v a="${best[rlx]}" -v b="${best[py-q]}" 'BEGIN{print a / b}')"
  unset best
done
