#!/usr/bin/env bash
# setup.sh: installs every Debian package rlx needs (idempotent, non-interactive) and builds a
# Release build in build/. Run as root or with sudo available. Re-running is cheap: apt skips
# installed packages and CMake rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  # dpkg-dev (dpkg-architecture) comes with build-essential; setup works on amd64 and arm64 alike.
  build-essential cmake ninja-build pkg-config ccache
  libtorch-dev libluajit-5.1-dev luajit
  # The Lua lint in ctest (.luacheckrc, "lint: luacheck").
  lua-check
  libsqlitecpp-dev libsqlite3-dev sqlite3
  libcairo2-dev libfontconfig-dev fonts-dejavu-core
  libfmt-dev catch2 nlohmann-json3-dev libcli11-dev
  libturbojpeg0-dev libedit-dev
  # The REPL tests drive a real terminal (tests/e2e/frame/repl_tmux.sh).
  tmux
  libcmark-gfm-dev libcmark-gfm-extensions-dev
  libopenblas0-openmp
  python3-torch python3-torchvision likwid linux-perf poppler-utils
  # The report's browser test (headless Chromium), the libFuzzer targets (tests/fuzz), and the
  # allocators bench/allocators.sh compares.
  chromium clang libclang-rt-14-dev libjemalloc2 libtcmalloc-minimal4
  # Slurm and munge: the tests start a throw-away single-node cluster (tests/slurm/cluster.sh);
  # no system daemon is configured or needed.
  slurm-wlm munge iproute2
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Debian's default libblas.so.3 is the reference BLAS; LibTorch's fp32 matrix products (Linear
# layers) reach the BLAS through libblas.so.3 and libopenblas.so.0. The OpenMP build of OpenBLAS
# runs on the same OpenMP threads as LibTorch (libgomp), so Linear layers use every training
# thread without a second thread pool competing for the cores (docs/benchmarks.md, "BLAS").
# The library directory is Debian's multiarch one: x86_64-linux-gnu, aarch64-linux-gnu (arm64).
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
openblas=/usr/lib/$multiarch/openblas-openmp
if [ -e "$openblas/libblas.so.3" ]; then
  for lib in libblas.so.3 liblapack.so.3 libopenblas.so.0; do
    $SUDO update-alternatives --set "$lib-$multiarch" "$openblas/$lib" >/dev/null || true
  done
fi

# Which LibTorch: Debian's is CPU-only, so a machine with an NVIDIA GPU needs a CUDA LibTorch
# (RLX_TORCH_DIR, or python3's torch when it was built with CUDA); scripts/detect-torch.sh decides
# and stops here, saying how to get one, rather than quietly building a CPU-only rlx (docs/gpu.md).
source scripts/detect-torch.sh
if ! rlx_detect_torch; then
  echo "setup: $RLX_TORCH_WHY" >&2
  exit 1
fi
echo "setup: LibTorch: $RLX_TORCH_WHY${RLX_TORCH_PREFIX:+ ($RLX_TORCH_PREFIX)}"
TORCH_ARGS=()
if [ "$RLX_TORCH_KIND" = cuda ]; then
  # A CUDA LibTorch's CMake files need the CUDA toolkit (nvcc) to configure.
  NVCC=$(command -v nvcc || true)
  [ -z "$NVCC" ] && [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc
  if [ -z "$NVCC" ]; then
    echo "setup: a CUDA LibTorch needs the CUDA toolkit to build against (no nvcc on PATH or in" \
      "/usr/local/cuda/bin): install NVIDIA's cuda-toolkit for the CUDA version of that LibTorch" >&2
    exit 1
  fi
  TORCH_ARGS=(-DCMAKE_PREFIX_PATH="$RLX_TORCH_PREFIX" -DTorch_DIR="$RLX_TORCH_CMAKE_DIR" -DCMAKE_CUDA_COMPILER="$NVCC")
fi

BUILD_DIR=${RLX_BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "${TORCH_ARGS[@]}" ${RLX_CMAKE_ARGS:-}
cmake --build "$BUILD_DIR" -j "$(nproc)"
echo "setup: built $BUILD_DIR/rlx"
