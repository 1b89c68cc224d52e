#!/usr/bin/env bash
# setup.sh: installs every Debian package rlx needs (idempotent, non-interactive) and builds a
# Release build in build/. Run as root or with sudo available. Re-running is cheap: apt skips
# installed packages and CMake rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build pkg-config ccache
  libtorch-dev libluajit-5.1-dev luajit
  libsqlitecpp-dev libsqlite3-dev sqlite3
  libcairo2-dev libfontconfig-dev fonts-dejavu-core
  libfmt-dev catch2 nlohmann-json3-dev libcli11-dev
  libturbojpeg0-dev libedit-dev
  libopenblas0-openmp
  python3-torch python3-torchvision likwid linux-perf poppler-utils
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
openblas=/usr/lib/x86_64-linux-gnu/openblas-openmp
if [ -e $openblas/libblas.so.3 ]; then
  for lib in libblas.so.3 liblapack.so.3 libopenblas.so.0; do
    $SUDO update-alternatives --set "$lib-x86_64-linux-gnu" "$openblas/$lib" >/dev/null || true
  done
fi

BUILD_DIR=${RLX_BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache ${RLX_CMAKE_ARGS:-}
cmake --build "$BUILD_DIR" -j "$(nproc)"
echo "setup: built $BUILD_DIR/rlx"
