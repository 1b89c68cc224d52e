#!/usr/bin/env bash
# build-and-test.sh: run ON THE GPU MACHINE from the repository root, with .gpu-debs/ carried
# there (scripts/gpu/fetch-debs.sh). Unpacks the Debian packages into /tmp/rlx-deps (never into /),
# configures rlx against the machine's PyTorch 2.x LibTorch (CUDA) and CUDA toolkit, builds, and
# runs the whole test suite plus the GPU checks in tests/gpu/. Output goes to $OUT when set.
set -uo pipefail
cd "$(dirname "$0")/../.."
DEPS=/tmp/rlx-deps
OUT=${OUT:-/tmp/rlx-out}
mkdir -p "$DEPS" "$OUT"
for f in .gpu-debs/*.deb; do dpkg -x "$f" "$DEPS"; done
export PATH="$DEPS/usr/bin:$PATH"
export LD_LIBRARY_PATH="$DEPS/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
export PKG_CONFIG_PATH="$DEPS/usr/lib/x86_64-linux-gnu/pkgconfig:$DEPS/usr/share/pkgconfig"
export PKG_CONFIG_SYSROOT_DIR="$DEPS"
export FONTCONFIG_PATH="$DEPS/etc/fonts"
TORCH_PREFIX=$(python3 -c 'import torch;print(torch.utils.cmake_prefix_path)')
nvidia-smi -L | tee "$OUT/gpu.txt"
python3 -c 'import torch;print("torch", torch.__version__, "cuda", torch.version.cuda)' | tee -a "$OUT/gpu.txt"
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$TORCH_PREFIX;$DEPS/usr" \
  -DCMAKE_INCLUDE_PATH="$DEPS/usr/include" -DCMAKE_LIBRARY_PATH="$DEPS/usr/lib/x86_64-linux-gnu" \
  -DCMAKE_CUDA_COMPILER="$(command -v nvcc)" -DRLX_CUDA_ROOT=/usr/local/cuda 2>&1 | tee "$OUT/configure.log"
cmake --build build-gpu -j "$(nproc)" 2>&1 | tail -n 200 > "$OUT/build.log" || { tail -n 60 "$OUT/build.log"; exit 1; }
build-gpu/rlx version | tee "$OUT/version.txt"
ctest --test-dir build-gpu --output-on-failure -j 8 2>&1 | tail -n 150 > "$OUT/ctest.log"
tail -n 30 "$OUT/ctest.log"
# GPU-only checks (CUDA training, AMP, counters vs ncu): each writes its findings under $OUT.
for t in tests/gpu/*.sh; do
  [ -e "$t" ] || continue
  echo "== $t"; bash "$t" build-gpu/rlx "$OUT" 2>&1 | tail -n 40
done
