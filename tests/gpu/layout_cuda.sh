#!/usr/bin/env bash
# tests/gpu/layout_cuda.sh RLX OUTDIR: does the calibration's layout choice hold on a GPU? Per
# model and precision (LAYOUT_CASES, default the three seed models in fp32 and amp), at the batch
# a study's smallest would be (LAYOUT_BATCH, default 64; experiments/cuda.lua sweeps 64-256),
# 224x224: rlx.calibrate.probe's choice at its GPU shape (that batch, 2 warm-up + 2 timed
# iterations a run), then both layouts trained 3 warm-up + 10 timed iterations, interleaved over two
# rounds, each layout's best median step. PASS per case when the probe chose the faster layout or
# the layouts are within 5 % (the probe's tie band). Output: the table, OUTDIR/layout_cuda.log.
# About 20 s per case on an H100 (mostly model set-up). RLX_GPU_TEST_DEVICE=cpu: a dry run.
set -uo pipefail
source "$(dirname "$0")/common.bash"

CASES=${LAYOUT_CASES:-resnet50:fp32,resnet50:amp,vgg16:fp32,vgg16:amp,mobilenet_v2:fp32,mobilenet_v2:amp}
[ "$DRY" = 1 ] && CASES=${LAYOUT_CASES:-resnet18:fp32}
run_lua layout_cuda "$(cap 240)" --set device="$DEVICE" --set cases="$CASES" ${LAYOUT_BATCH:+--set batch="$LAYOUT_BATCH"}
finish layout_cuda
