#!/usr/bin/env bash
# torch_compile.sh: rlx next to a torch.compile'd Python loop (issue 51), what a user of 2026 tries
# for speed: bench/train_loop.py --compile (inductor's C++ code for the CPU) with rlx's settings (the
# memory layout rlx's calibration chose, glibc as rlx sets it), the same torch as rlx's build
# (.venv, bench/python.sh), beside rlx and the same loop in eager mode, at 224x224, interleaved round
# by round. The warm-up steps include the compilation: its wall time is printed as compile_s (the
# first round compiles from nothing; later rounds may reuse inductor's cache in /tmp).
#
#   bench/torch_compile.sh RLX [ROUNDS=2]
#   MODELS="resnet50 mobilenet_v2" BATCH=16 bench/torch_compile.sh build/rlx 2
# Knobs: MODELS (default "resnet50 vgg16 mobilenet_v2"), BATCH (16), PRECISION (fp32), ITERS (3),
# WARMUP (2: the compile happens in the first), THREADS (2), LR (0.01, as bench/train_224.sh).
set -euo pipefail
rlx=${1:?usage: torch_compile.sh RLX [ROUNDS]}; rounds=${2:-2}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/python.sh"
models=${MODELS:-resnet50 vgg16 mobilenet_v2}; batch=${BATCH:-16}; precision=${PRECISION:-fp32}
iters=${ITERS:-3}; warmup=${WARMUP:-2}; threads=${THREADS:-2}; lr=${LR:-0.01}
field() { tr -d '\n' | sed -n "s/.*\"$1\": *\"\{0,1\}\([^\",}]*\).*/\1/p" | head -1; }
echo "torch $("$PY" -c 'import torch; print(torch.__version__)'); rlx $("$rlx" version | sed -n 's/^LibTorch *//p')"
echo "batch=$batch precision=$precision input=224 iters=$iters warmup=$warmup threads=$threads"
declare -A best compile
for r in $(seq 1 "$rounds"); do
  for m in $models; do
    j=$("$rlx" train --model "$m" --batch-size "$batch" --precision "$precision" --input 224 --warmup-iters "$warmup" \
      --iters "$iters" --threads "$threads" --lr "$lr" --device cpu --json 2>/dev/null)
    ips=$(field images_per_s <<<"$j"); fmt=$(field memory_format <<<"$j")
    echo "round $r $m rlx: $ips images/s ($fmt)"
    awk -v x="$ips" -v y="${best[rlx $m]:-0}" 'BEGIN{exit !(x > y)}' && best[rlx $m]=$ips
    for tool in eager compiled; do
      extra=(); [ "$tool" = compiled ] && extra=(--compile)
      j=$("$PY" "$here/train_loop.py" --model "$m" --batch "$batch" --precision "$precision" --input 224 \
        --iters "$iters" --warmup "$warmup" --threads "$threads" --lr "$lr" --memory-format "${fmt:-contiguous}" \
        --malloc rlx "${extra[@]}" 2>/tmp/torch_compile.err) || { echo "round $r $m $tool: failed ($(tail -n 1 /tmp/torch_compile.err))"; continue; }
      ips=$(field images_per_s <<<"$j")
      echo "round $r $m python $tool: $ips images/s$([ "$tool" = compiled ] && echo ", compile_s $(field compile_s <<<"$j")")"
      awk -v x="$ips" -v y="${best[$tool $m]:-0}" 'BEGIN{exit !(x > y)}' && best[$tool $m]=$ips
      [ "$tool" = compiled ] && [ -z "${compile[$m]:-}" ] && compile[$m]=$(field compile_s <<<"$j")
    done
  done
done
echo
echo "| model | rlx img/s | Python eager img/s | Python torch.compile img/s | rlx / eager | rlx / compiled | first compile s |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for m in $models; do
  awk -v m="$m" -v a="${best[rlx $m]:-0}" -v e="${best[eager $m]:-0}" -v c="${best[compiled $m]:-0}" -v s="${compile[$m]:--}" \
    'BEGIN{printf "| %s | %.2f | %.2f | %.2f | %s | %s | %s |\n", m, a, e, c, (e > 0 ? sprintf("%.2fx", a / e) : "-"),
      (c > 0 ? sprintf("%.2fx", a / c) : "-"), s}'
done
