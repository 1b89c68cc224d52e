#!/usr/bin/env bash
# tests/gpu/graphs_cuda.sh RLX OUTDIR: rlx.train's cuda_graphs on a GPU. (1) What cannot be
# captured is refused with the reason: the CPU, a dataset, grad_accum 2, counters, counter_iters,
# warmup 0. (2) Per case (ResNet-18 fp32 and amp, MobileNetV2 bf16; batch 16, 112x112, seed 1,
# deterministic, lr 0.01), an eager run and a graphed run of the same seed, 2 warm-up steps and
# then 3 or 18 timed ones (5 and 20 steps in all): both ok, the graphed one echoes cuda_graphs
# and has one sample per replay, the first loss (an eager warm-up step in both) equal, the last
# loss equal to float rounding (relative 1e-3, the difference printed), and the loss of 20 fp32
# steps falls. (3) MobileNetV2 amp at batch 64, 224x224, eager against graphed: images/s of each
# and the ratio, printed (bench/gpu_vs_pytorch.sh measures it against PyTorch). About 40 s on an
# H100-class GPU. Output: the table, OUTDIR/graphs_cuda.log, OUTDIR/graphs_cuda.json.
# RLX_GPU_TEST_DEVICE=cpu: a dry run (the refusals, which need no GPU; the runs are skipped).
set -uo pipefail
source "$(dirname "$0")/common.bash"

# Deterministic cuBLAS (deterministic = true pins it; without this cuBLAS warns on every product).
export CUBLAS_WORKSPACE_CONFIG=${CUBLAS_WORKSPACE_CONFIG:-:4096:8}
run_lua graphs_cuda "$(cap 180)" --set device="$DEVICE" --set out="$OUTDIR"
finish graphs_cuda
