#!/usr/bin/env bash
# ddp_vs_pytorch.sh RLX [ROUNDS=2]: rlx.train{ranks = 2} against PyTorch's own DistributedDataParallel
# (bench/ddp_loop.py under the venv's torchrun: the same torch 2.15, Gloo) at 224x224, 2 ranks x 1 thread,
# batch 16 per rank, contiguous layout and rlx's glibc settings on both sides (the peer's best settings
# rlx would give it), 2 warm-up and 6 timed steps, rounds interleaved in alternating order, best round.
# Ranks float on both sides (RLX_RANK_PIN=0): torchrun does not pin. Knobs: MODELS, BATCH, ITERS.
set -euo pipefail
rlx=${1:?usage: ddp_vs_pytorch.sh RLX [ROUNDS]}; rounds=${2:-2}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/python.sh"
torchrun=$(dirname "$PY")/torchrun
models=${MODELS:-resnet50 mobilenet_v2}; batch=${BATCH:-16}; iters=${ITERS:-6}
run_rlx() {
  RLX_RANK_PIN=0 "$rlx" -e "local r = rlx.train{model = '$1', batch = $batch, ranks = 2, threads = 1, input = 224,
    warmup = 2, iters = $iters, device = 'cpu', memory_format = 'contiguous', lr = 0.01, progress = false}
    assert(r.ok, r.error) print(string.format('%.2f', r.images_per_s))"
}
run_py() {
  OMP_NUM_THREADS=1 "$torchrun" --standalone --nproc_per_node 2 "$here/ddp_loop.py" --model "$1" --batch "$batch" \
    --iters "$iters" --threads 1 --malloc rlx 2>/dev/null | "$PY" -c 'import json,sys; print("%.2f" % json.load(sys.stdin)["images_per_s"])'
}
echo "| model | rlx img/s (best) | PyTorch DDP img/s (best) | rlx / DDP | rounds rlx | rounds DDP |"
echo "| --- | ---: | ---: | ---: | --- | --- |"
for m in $models; do
  r=() p=()
  for ((k = 1; k <= rounds; k++)); do
    if ((k % 2)); then r+=("$(run_rlx "$m")"); p+=("$(run_py "$m")"); else p+=("$(run_py "$m")"); r+=("$(run_rlx "$m")"); fi
  done
  best_r=$(printf '%s\n' "${r[@]}" | sort -g | tail -1); best_p=$(printf '%s\n' "${p[@]}" | sort -g | tail -1)
  echo "| $m | $best_r | $best_p | $(awk -v a="$best_r" -v b="$best_p" 'BEGIN { printf "%.2f", a / b }') | ${r[*]} | ${p[*]} |"
done
