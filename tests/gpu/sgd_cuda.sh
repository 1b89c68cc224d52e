#!/usr/bin/env bash
# tests/gpu/sgd_cuda.sh RLX OUTDIR: the CUDA optimizer step on a GPU against PyTorch. (1) python3's
# torch.optim.SGD (foreach, and fused where it has it) writes its parameters after five steps of a
# fixed case (tests/gpu/sgd_reference.py); (2) the test program tests/unit/train_gpu
# (rlx_test_train_gpu, built here when the build directory lacks it: one source file) runs rlx's
# MultiTensorSgd with _fused_sgd_ (where LibTorch has it) and _foreach_ on the GPU against those
# numbers, against LibTorch's C++ SGD on the GPU and on the CPU, and the gradient scaler with a
# planted inf: found on the device, the step skipped, the scale halved, the next step clean.
# Output: OUTDIR/sgd_reference.json, sgd_cuda.log. About 40 s with the build (8 cores), 5 s without.
# RLX_GPU_TEST_DEVICE=cpu: a dry run (the reference on the CPU when python3 has torch; the GPU
# cases then say they did not run).
set -uo pipefail
source "$(dirname "$0")/common.bash"

BUILD_DIR=$(dirname "$RLX")
TEST_BIN=$BUILD_DIR/tests/rlx_test_train_gpu
PY=${RLX_PYTHON:-python3}
REF=$OUTDIR/sgd_reference.json
rm -f "$REF"
if "$PY" -c 'import torch' 2>/dev/null; then
  if timeout "$(cap 90)" "$PY" "$GPU_TESTS/sgd_reference.py" "$REF" --device "$([ "$DRY" = 1 ] && echo cpu || echo cuda)" \
    >"$OUTDIR/sgd_reference.log" 2>&1; then
    pass "$(tail -n 1 "$OUTDIR/sgd_reference.log")"
  else
    fail "sgd_reference.py: $(tail -n 2 "$OUTDIR/sgd_reference.log" | tr '\n' ' ')"
  fi
elif [ "$DRY" = 1 ]; then
  echo "SKIP $PY has no torch here: no torch.optim.SGD numbers in the dry run"
else
  fail "$PY has no torch (set RLX_PYTHON to the python3 that holds the CUDA PyTorch)"
fi

if [ ! -x "$TEST_BIN" ]; then
  echo "building rlx_test_train_gpu in $BUILD_DIR"
  timeout "$(cap 240)" cmake --build "$BUILD_DIR" --target rlx_test_train_gpu -j "$(nproc)" >"$OUTDIR/sgd_build.log" 2>&1 ||
    { tail -n 20 "$OUTDIR/sgd_build.log"; fail "building rlx_test_train_gpu"; }
fi
if [ -x "$TEST_BIN" ]; then
  [ -s "$REF" ] && export RLX_SGD_REFERENCE=$REF
  timeout "$(cap 120)" "$TEST_BIN" "[gpu]" --success --reporter compact >"$OUTDIR/sgd_cuda.log" 2>&1
  rc=$?
  grep -E 'warning|failed|FAILED|passed' "$OUTDIR/sgd_cuda.log" | grep -v '^.*: passed: ' | tail -n 20
  tail -n 2 "$OUTDIR/sgd_cuda.log"
  if [ $rc -eq 0 ]; then pass "rlx_test_train_gpu [gpu] exited 0"; else fail "rlx_test_train_gpu [gpu] exited $rc"; fi
  if [ "$DRY" = 0 ]; then
    if grep -q 'no CUDA device' "$OUTDIR/sgd_cuda.log"; then fail "the GPU cases did not run: no CUDA device"
    else pass "the GPU cases ran on the GPU"; fi
    if [ -s "$REF" ] && grep -q 'no torch.optim.SGD numbers' "$OUTDIR/sgd_cuda.log"; then
      fail "the test did not read torch.optim.SGD's numbers"
    fi
  fi
fi
finish sgd_cuda
