#!/usr/bin/env bash
# torch_upgrade.sh: the upgrade's effect (issue 51). rlx built against the pinned PyPI LibTorch next to
# rlx built against another LibTorch (Debian 12's 1.13 by default, through RLX_TORCH_DIR: the way any
# other LibTorch is built), at the seed's scale, 224x224, interleaved round by round (the order
# alternates), best round of each. Per model, batch and precision it prints images/s of both, the
# ratio new/old, the memory layout each build's calibration chose, and each one's share of the
# machine's FP32 FMA peak (images/s x the model's analytic training FLOPs per image, `rlx models
# --json`, over PEAK_GFLOPS, e.g. the fp32_fma_gflops of `rlx peaks`).
#
#   bench/torch_upgrade.sh NEW_RLX OLD_RLX [ROUNDS=2]
#   PEAK_GFLOPS=491 bench/torch_upgrade.sh build/rlx build-113/rlx 2
# Builds OLD_RLX first when it is missing and OLD_TORCH_DIR (default /usr: Debian's libtorch-dev,
# which this installs with apt when absent) is given: RLX_TORCH_DIR=... RLX_BUILD_DIR=build-113.
# Knobs: MODELS (default "resnet50 vgg16 mobilenet_v2"), BATCHES ("16 64"), PRECISIONS ("fp32 bf16";
# bf16 only where the CPU has avx512_bf16 or amx_bf16), WARMUP (2), ITERS (3), THREADS (2), LR (0.01:
# VGG-16 without batch norm diverges at 0.1 on synthetic data; the rate does not change a step's work).
set -euo pipefail
new=${1:?usage: torch_upgrade.sh NEW_RLX OLD_RLX [ROUNDS]}; old=${2:?old rlx}; rounds=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
models=${MODELS:-resnet50 vgg16 mobilenet_v2}; batches=${BATCHES:-16 64}
warmup=${WARMUP:-2}; iters=${ITERS:-3}; threads=${THREADS:-2}; lr=${LR:-0.01}
precisions=${PRECISIONS:-fp32}
if [ -z "${PRECISIONS:-}" ] && grep -qwE 'avx512_bf16|amx_bf16' /proc/cpuinfo; then precisions="fp32 bf16"; fi

if [ ! -x "$old" ]; then
  dir=$(dirname "$old")
  torch_dir=${OLD_TORCH_DIR:-/usr}
  if [ "$torch_dir" = /usr ] && ! dpkg-query -W -f='${Status}' libtorch-dev 2>/dev/null | grep -q "install ok installed"; then
    apt-get install -y -q --no-install-recommends libtorch-dev >/dev/null
  fi
  echo "building $old against $torch_dir" >&2
  (cd "$here/.." && RLX_TORCH_DIR=$torch_dir RLX_BUILD_DIR=$dir RLX_CMAKE_ARGS="-DRLX_BUILD_TESTS=OFF" \
    scripts/setup.sh >&2)
fi

field() { tr -d '\n' | sed -n "s/.*\"$1\": *\"\{0,1\}\([^\",}]*\).*/\1/p" | head -1; }
flops_per_image() { "$new" models "$1" --input 224 --batch 1 --json | tr -d '\n' |
  sed -n 's/.*"train_flops": *\([0-9.eE+]*\).*/\1/p' | head -1; }
run() {  # RLX MODEL BATCH PRECISION -> "images_per_s memory_format"
  local j
  j=$("$1" train --model "$2" --batch-size "$3" --precision "$4" --input 224 --warmup-iters "$warmup" \
    --iters "$iters" --threads "$threads" --lr "$lr" --device cpu --json 2>/dev/null) || { echo "failed -"; return; }
  echo "$(field images_per_s <<<"$j") $(field memory_format <<<"$j")"
}
echo "new: $("$new" version | sed -n 's/^Framework *//p')"
echo "old: $("$old" version | sed -n 's/^Framework *//p;s/^LibTorch *//p' | head -1)"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A best layout
for r in $(seq 1 "$rounds"); do
  for m in $models; do for b in $batches; do for p in $precisions; do
    order="new old"; [ $((r % 2)) = 0 ] && order="old new"
    for which in $order; do
      bin=$new; [ "$which" = old ] && bin=$old
      read -r ips fmt < <(run "$bin" "$m" "$b" "$p")
      key="$which $m $b $p"
      echo "round $r $key: $ips images/s ($fmt)"
      if [ "$ips" != failed ] && awk -v x="$ips" -v y="${best[$key]:-0}" 'BEGIN{exit !(x > y)}'; then
        best[$key]=$ips layout[$key]=$fmt
      fi
    done
  done; done; done
done
echo
echo "best of $rounds rounds, images/s (memory layout); share of PEAK_GFLOPS=${PEAK_GFLOPS:-unset} FP32 FMA"
printf '%-13s %5s %-5s %22s %22s %7s %8s %8s\n' model batch prec new old new/old new%peak old%peak
for m in $models; do
  f=$(flops_per_image "$m")
  for b in $batches; do for p in $precisions; do
    n=${best["new $m $b $p"]:-0} o=${best["old $m $b $p"]:-0}
    awk -v m="$m" -v b="$b" -v p="$p" -v n="$n" -v o="$o" -v ln="${layout["new $m $b $p"]:--}" \
      -v lo="${layout["old $m $b $p"]:--}" -v f="$f" -v peak="${PEAK_GFLOPS:-0}" 'BEGIN{
      sn = (peak > 0) ? sprintf("%.1f%%", 100 * n * f / 1e9 / peak) : "-"
      so = (peak > 0) ? sprintf("%.1f%%", 100 * o * f / 1e9 / peak) : "-"
      printf "%-13s %5s %-5s %10.2f %-11s %10.2f %-11s %7s %8s %8s\n", m, b, p, n, "(" ln ")", o, "(" lo ")",
        (o > 0 ? sprintf("%.2fx", n / o) : "-"), sn, so }'
  done; done
done
