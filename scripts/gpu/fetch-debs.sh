#!/usr/bin/env bash
# fetch-debs.sh: run HERE (a Debian 12 machine with apt). Downloads, without installing, the
# Debian packages rlx needs on a GPU machine that has no package registry (PyTorch 2.x with CUDA,
# nvcc and ncu are already there), into .gpu-debs/ (git-ignored). Then carry .gpu-debs to the GPU
# machine and run scripts/gpu/build-and-test.sh there (docs/gpu.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
PACKAGES=(
  libluajit-5.1-2 libluajit-5.1-common libluajit-5.1-dev
  libsqlite3-0 libsqlite3-dev libsqlitecpp-dev
  libcairo2 libcairo2-dev libpixman-1-0 libfontconfig1 fontconfig-config libfreetype6 libpng16-16
  libxcb-shm0 libxcb-render0 libxcb1 libxrender1 libx11-6 libx11-data libxext6 libxau6 libxdmcp6
  libbrotli1 libexpat1 libbsd0 libmd0 fonts-dejavu-core
  libfmt9 libfmt-dev catch2 nlohmann-json3-dev
  libturbojpeg0 libturbojpeg0-dev libedit2 libedit-dev libgloo-dev
  # report.html (engine/report): CMake requires both libraries.
  libcmark-gfm0.29.0.gfm.6 libcmark-gfm-dev libcmark-gfm-extensions0.29.0.gfm.6 libcmark-gfm-extensions-dev
  # CMake's find_package(PkgConfig REQUIRED): the GPU image need not have pkg-config.
  pkgconf pkgconf-bin libpkgconf3 pkg-config
  # The sqlite3 shell some end-to-end tests read the database with.
  sqlite3
)
mkdir -p .gpu-debs
cd .gpu-debs
apt-get download "${PACKAGES[@]}"
du -sh .
