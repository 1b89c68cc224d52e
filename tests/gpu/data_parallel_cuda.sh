#!/usr/bin/env bash
# tests/gpu/data_parallel_cuda.sh RLX OUTDIR: data-parallel on GPUs (issue 52). (1) c10d's NCCL group
# of one rank under GradientSync leaves the gradient as one process computes it (rlx_test_train_gpu,
# test_nccl_cuda.cpp); (2) `ranks = 2` with one GPU visible is refused with the reason, before any
# rank starts; with two or more, a 2-rank NCCL run of ResNet-18 trains, one GPU per rank, and its
# per-rank figures are recorded (docs/platforms.md claims multi-GPU only where this ran).
# RLX_GPU_TEST_DEVICE=cpu: a dry run (the refusal's wording on a machine without a GPU).
set -uo pipefail
source "$(dirname "$0")/common.bash"

BUILD_DIR=$(dirname "$RLX")
TEST_BIN=$BUILD_DIR/tests/rlx_test_train_gpu
[ -x "$TEST_BIN" ] || timeout "$(cap 120)" cmake --build "$BUILD_DIR" --target rlx_test_train_gpu >"$OUTDIR/nccl_build.log" 2>&1
if "$TEST_BIN" "nccl:*" >"$OUTDIR/nccl_cuda.log" 2>&1; then
  pass "nccl: $(tail -n 2 "$OUTDIR/nccl_cuda.log" | tr '\n' ' ')"
else
  fail "nccl: $(tail -n 5 "$OUTDIR/nccl_cuda.log" | tr '\n' ' ')"
fi

gpus=$("$RLX" -e 'local n = 0 for _, d in ipairs(rlx.devices()) do if d.kind == "cuda" then n = n + 1 end end print(n)')
out=$(timeout "$(cap 300)" "$RLX" -e 'local r = rlx.train{model = "resnet18", input = 32, classes = 10, batch = 32,
  warmup = 2, iters = 10, ranks = 2, device = "cuda"}
print(r.ok, r.error or "", r.ok and r.data_parallel.backend or "", r.ok and r.data_parallel.per_rank[2].device or "",
  r.ok and string.format("%.1f", r.images_per_s) or "")' 2>"$OUTDIR/data_parallel.err")
echo "$out" >"$OUTDIR/data_parallel.txt"
if [ "$gpus" -ge 2 ]; then
  [[ "$out" == $'true\t\tnccl\tcuda:1\t'* ]] && pass "2 ranks on $gpus GPUs: $out" || fail "2 ranks on $gpus GPUs: $out"
else
  want="ranks=2 needs one GPU per rank, and $gpus GPU(s) are visible"
  [ "$DRY" = 1 ] && want="device 'cuda' is not available: no CUDA GPU is visible"  # the dry run: no GPU
  [[ "$out" == *"$want"* ]] && pass "2 ranks on $gpus GPU(s) refused: $out" || fail "2 ranks on $gpus GPU(s): $out"
fi
finish data_parallel_cuda
