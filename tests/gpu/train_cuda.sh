#!/usr/bin/env bash
# tests/gpu/train_cuda.sh RLX OUTDIR: the CUDA training paths of rlx, which compile only against a
# CUDA LibTorch and so were never run before a GPU session. It trains, on device "cuda", 224x224
# synthetic images: ResNet-18 (batch 32, 3 warm-up + 10 measured iterations) in fp32, amp (fp16
# autocast + gradient scaling), bf16 and amp in the contiguous layout, then ResNet-50 at batch 64
# (20 measured iterations) in fp32, amp and bf16 (channels_last, the default), and checks for each:
# ok = true, finite first and last loss, images_per_s > 0, one sample per measured iteration,
# precision and memory_format echoed, the run on cuda:N, device_max_bytes > 0 (CUDA allocator
# statistics); for ResNet-50 also that the loss falls on the fixed batch, and that AMP is faster
# than fp32 (the ratio of mean step times with its 95 % CI, bf16 printed beside it). Then
# rlx.peaks.measure{device="cuda"} (DRAM copy bandwidth, L2 read bandwidth, GEMM
# fp32/tf32/fp16/bf16), printed next to rlx.peaks.datasheet(<name from rlx.devices()>), with the
# checks that the datasheet knows the device, no measured peak exceeds it by more than 15 %, the
# result says it is a full measurement, and the L2 roof is above the DRAM one.
# Output: a compact table on stdout, OUTDIR/train_cuda.json (every result), OUTDIR/train_cuda.log.
# About a minute on an H100 (most of it cuDNN/cuBLAS start-up and the 8192^3 GEMMs).
# Exit status 1 when any check failed. RLX_GPU_TEST_DEVICE=cpu: dry run on the CPU (tests/gpu/common.bash).
set -uo pipefail
source "$(dirname "$0")/common.bash"

run_lua train_cuda "${RLX_TRAIN_TIMEOUT:-$(cap 300)}" --set device="$DEVICE" --set out="$OUTDIR"
if [ -s "$OUTDIR/train_cuda.json" ]; then pass "OUTDIR/train_cuda.json written"; else fail "OUTDIR/train_cuda.json missing"; fi
finish train_cuda
