#!/usr/bin/env bash
# torch-wheel.sh: the pinned PyPI torch (scripts/torch-requirements.txt) for arm64, unpacked into an
# arm64 sysroot for cross-building rlx (scripts/arm64/check.sh runs it).
#
#   scripts/arm64/torch-wheel.sh CACHE SYSROOT   # prints the Torch CMake folder on its last line
#
# PyPI's aarch64 torch wheel is CUDA-enabled, as the x86-64 one: its libtorch_cuda.so needs cuDNN,
# NCCL, cuBLAS, cuSPARSELt, NVSHMEM and the rest from NVIDIA's wheels. The index these machines
# reach lacks several of those for aarch64 (checked 2026-12-02: no nvidia-cuda-cupti aarch64 file at
# all, no nvidia-nccl-cu13 2.30.7 nor nvidia-cudnn-cu13 9.26.0.51 for aarch64), so the arm64 build
# links the wheel's CPU part only (libtorch_cpu.so, libc10.so: cmake -DRLX_TORCH_CPU_ONLY=ON), which
# is what an arm64 CPU trains with. libtorch_cpu.so itself still needs two CUDA libraries at load
# (its profiler, Kineto, is built with CUPTI): libcudart.so.13 comes from NVIDIA's
# nvidia-cuda-runtime wheel at the version the torch wheel's cuda-toolkit pin names, and
# libcupti.so.13 from the copy NVIDIA's CUPTI ships inside the triton wheel torch pins (its
# backends/nvidia/lib/cupti-blackwell). Both sit where the wheel's RPATH looks
# ($ORIGIN/../../nvidia/cu13/lib), as in an installed virtual environment. Nothing of Python is
# unpacked. A rerun with the same pin reuses the downloads and the unpacked folder.
set -euo pipefail
CACHE=${1:?usage: torch-wheel.sh CACHE_DIR SYSROOT}
SYSROOT=${2:?usage: torch-wheel.sh CACHE_DIR SYSROOT}
HERE=$(cd "$(dirname "$0")" && pwd)
PIN=$(grep -E '^torch==' "$HERE/../torch-requirements.txt")
WHEELS=$CACHE/wheels
DEST=$SYSROOT/opt/rlx-torch
STAMP=$DEST/.rlx-pin
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$PIN" ]; then
  echo "torch-wheel: reusing $DEST ($PIN)"
  echo "$DEST/torch/share/cmake/Torch"
  exit 0
fi
mkdir -p "$WHEELS"
# pip accepts only the platform tags it is given: every manylinux tag an aarch64 wheel may carry.
platforms=()
for p in manylinux_2_28_aarch64 manylinux_2_27_aarch64 manylinux_2_17_aarch64 manylinux2014_aarch64; do
  platforms+=(--platform "$p")
done
pip_get() {
  python3 -m pip download -q "${platforms[@]}" --python-version 3.11 --implementation cp \
    --only-binary=:all: -d "$WHEELS" "$@"
}
echo "torch-wheel: downloading $PIN for aarch64 into $WHEELS"
pip_get --no-deps "$PIN"
wheel=$(ls "$WHEELS"/torch-"${PIN#torch==}"-cp311-*aarch64*.whl | head -1)
meta=$(unzip -p "$wheel" "torch-${PIN#torch==}.dist-info/METADATA")
# The versions the torch wheel itself names: its cuda-toolkit pin (for the CUDA runtime) and triton.
toolkit=$(sed -n 's/^Requires-Dist: cuda-toolkit\[[^]]*\]\(==[0-9.]*\).*/\1/p' <<<"$meta" | head -1)
triton=$(sed -n 's/^Requires-Dist: triton\([^;]*\);.*/\1/p' <<<"$meta" | head -1 | tr -d ' ')
[ -n "$toolkit" ] && [ -n "$triton" ] ||
  { echo "torch-wheel: $wheel names no cuda-toolkit or triton pin: see its METADATA" >&2; exit 1; }
pip_get "cuda-toolkit[cudart]$toolkit"
pip_get --no-deps "triton$triton"

echo "torch-wheel: unpacking into $DEST"
rm -rf "$DEST"
mkdir -p "$DEST/nvidia/cu13/lib"
unzip -q -o "$wheel" 'torch/lib/*' 'torch/include/*' 'torch/share/*' -d "$DEST"
unzip -q -o -j "$(ls "$WHEELS"/nvidia_cuda_runtime-*aarch64*.whl | head -1)" 'nvidia/cu13/lib/libcudart.so.13' \
  -d "$DEST/nvidia/cu13/lib"
unzip -q -o -j "$(ls "$WHEELS"/triton-*aarch64*.whl | head -1)" \
  'triton/backends/nvidia/lib/cupti-blackwell/libcupti.so.13' -d "$DEST/nvidia/cu13/lib"
echo "$PIN" >"$STAMP"
echo "$DEST/torch/share/cmake/Torch"
