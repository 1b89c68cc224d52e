#!/usr/bin/env bash
# setup.sh: installs every Debian package rlx needs (idempotent, non-interactive), the pinned torch
# from PyPI into its virtual environment (scripts/torch-requirements.txt, scripts/torch-venv.sh), and
# builds a Release build in build/ against that torch's LibTorch (or RLX_TORCH_DIR's). Run as root or
# with sudo available. Re-running is cheap: apt skips installed packages, the environment is reused
# from its cache folder, and CMake rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  # dpkg-dev (dpkg-architecture) comes with build-essential; setup works on amd64 and arm64 alike.
  build-essential cmake ninja-build pkg-config ccache
  # The pinned torch's virtual environment (scripts/torch-venv.sh); flock guards its cache.
  python3-venv util-linux
  # bench/train_loop.py --compile: torch.compile's inductor builds C++ against Python's headers.
  python3-dev
  libluajit-5.1-dev luajit
  # The Lua lint in ctest (.luacheckrc, "lint: luacheck").
  lua-check
  libsqlitecpp-dev libsqlite3-dev sqlite3
  libcairo2-dev libfontconfig-dev fonts-dejavu-core
  libfmt-dev catch2 nlohmann-json3-dev libcli11-dev
  libturbojpeg0-dev libedit-dev
  # Gloo's headers: LibTorch's c10d names Gloo's types in its ProcessGroupGloo.hpp, and the PyPI
  # wheel carries c10d's headers but not Gloo's (Gloo itself is compiled into libtorch_cpu.so).
  libgloo-dev
  # The REPL tests drive a real terminal (tests/e2e/frame/repl_tmux.sh).
  tmux
  libcmark-gfm-dev libcmark-gfm-extensions-dev
  libopenblas0-openmp
  likwid linux-perf poppler-utils
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

# Which LibTorch: the pinned PyPI torch (CUDA-enabled on every machine) in its virtual environment,
# installed once per pin into a cache folder and linked as .venv, or RLX_TORCH_DIR's LibTorch.
# scripts/detect-torch.sh decides and stops here with one line naming the fix (docs/getting-started.md).
if [ -z "${RLX_TORCH_DIR:-}" ]; then
  source scripts/torch-venv.sh
  if ! rlx_venv_ensure; then
    echo "setup: $RLX_VENV_WHY" >&2
    exit 1
  fi
  ln -sfn "$RLX_VENV" .venv
fi
source scripts/detect-torch.sh
if ! rlx_detect_torch; then
  echo "setup: $RLX_TORCH_WHY" >&2
  exit 1
fi
echo "setup: LibTorch: $RLX_TORCH_WHY${RLX_TORCH_PREFIX:+ ($RLX_TORCH_PREFIX)}"
TORCH_ARGS=(-DCMAKE_PREFIX_PATH="$RLX_TORCH_PREFIX" -DTorch_DIR="$RLX_TORCH_CMAKE_DIR")
if [ "$RLX_TORCH_KIND" = cuda ]; then
  # A CUDA LibTorch's own CMake files want the CUDA toolkit (nvcc). Without one, a wheel's LibTorch
  # is declared from its files and NVIDIA's wheels beside it (cmake/TorchPackage.cmake); another
  # CUDA LibTorch (RLX_TORCH_DIR) has no such wheels beside it and needs the toolkit.
  NVCC=$(command -v nvcc || true)
  [ -z "$NVCC" ] && [ -x /usr/local/cuda/bin/nvcc ] && NVCC=/usr/local/cuda/bin/nvcc
  if [ -n "$NVCC" ]; then
    TORCH_ARGS+=(-DCMAKE_CUDA_COMPILER="$NVCC")
  elif [ -n "${RLX_TORCH_DIR:-}" ]; then
    echo "setup: the CUDA LibTorch in RLX_TORCH_DIR needs the CUDA toolkit to build against (no nvcc on PATH or" \
      "in /usr/local/cuda/bin): install NVIDIA's cuda-toolkit for its CUDA version, or unset RLX_TORCH_DIR to use the pinned wheel" >&2
    exit 1
  else
    # The CUDA runtime's headers include crt/host_defines.h, which NVIDIA ships in the compiler's
    # wheel (nvidia-cuda-crt, headers only, a few MB), not in the runtime's that torch depends on.
    runtime=$("$RLX_VENV/bin/python" -m pip show nvidia-cuda-runtime 2>/dev/null | sed -n 's/^Version: //p')
    if [ -n "$runtime" ] && ! compgen -G "$RLX_VENV/lib/python3*/site-packages/nvidia/cu*/include/crt/host_defines.h" >/dev/null; then
      (umask 022 && "$RLX_VENV/bin/python" -m pip install -q --progress-bar off --only-binary=:all: "nvidia-cuda-crt==$runtime") || {
        echo "setup: no CUDA toolkit, and pip could not add the CUDA headers (nvidia-cuda-crt==$runtime) to $RLX_VENV:" \
          "check that PyPI is reachable, or install NVIDIA's cuda-toolkit" >&2
        exit 1
      }
    fi
    echo "setup: no CUDA toolkit (nvcc): building against the wheel's own CUDA headers and libraries"
  fi
fi

BUILD_DIR=${RLX_BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache "${TORCH_ARGS[@]}" ${RLX_CMAKE_ARGS:-}
cmake --build "$BUILD_DIR" -j "$(nproc)"
echo "setup: built $BUILD_DIR/rlx"
