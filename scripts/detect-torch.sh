#!/usr/bin/env bash
# detect-torch.sh: which LibTorch scripts/setup.sh builds against.
#  - By default the pinned PyPI torch (scripts/torch-requirements.txt) in its virtual environment
#    (scripts/torch-venv.sh): CUDA-enabled on every machine, so the CUDA paths compile and link
#    whether or not a GPU is here.
#  - RLX_TORCH_DIR: any other LibTorch (an unpacked LibTorch zip, a cluster's module, Debian's
#    libtorch-dev at /usr): the folder with share/cmake/Torch, a lib/<triplet>/cmake/Torch, or the
#    Torch CMake folder itself. A CPU-only one is refused on a machine with an NVIDIA GPU.
#
#   source scripts/detect-torch.sh; rlx_detect_torch   # sets RLX_TORCH_KIND, RLX_TORCH_PREFIX,
#                                                      # RLX_TORCH_CMAKE_DIR, RLX_TORCH_WHY
#   bash scripts/detect-torch.sh                       # prints "KIND<TAB>PREFIX<TAB>WHY"
#
# Exit status / RLX_TORCH_KIND:
#   0 cuda|cpu  PREFIX goes into CMAKE_PREFIX_PATH, RLX_TORCH_CMAKE_DIR into Torch_DIR
#   1 none      WHY is one line naming the problem and the fix
# The inputs can be redirected, which is how tests/setup/detect_torch.sh drives it with fakes:
#   RLX_NVIDIA_SMI (default nvidia-smi), RLX_PROC_NVIDIA (default /proc/driver/nvidia),
#   RLX_PYTHON (default: the pinned virtual environment's bin/python).

# True when the NVIDIA driver sees a GPU: nvidia-smi lists one, or the kernel driver's /proc
# directory names one (containers often lack nvidia-smi but have the driver files). RLX_GPU=1 counts
# as a GPU (an image built for GPU nodes on a machine without one).
rlx_nvidia_gpu_present() {
  local smi=${RLX_NVIDIA_SMI:-nvidia-smi} proc=${RLX_PROC_NVIDIA:-/proc/driver/nvidia}
  [ "${RLX_GPU:-0}" = 1 ] && return 0
  if command -v "$smi" >/dev/null 2>&1 && "$smi" -L 2>/dev/null | grep -q '^GPU [0-9]'; then
    return 0
  fi
  compgen -G "$proc/gpus/*" >/dev/null 2>&1
}

# The Torch CMake folder (holding TorchConfig.cmake) of a LibTorch folder, or nothing.
_rlx_torch_cmake_dir() {
  local dir=$1 c
  for c in "$dir/share/cmake/Torch" "$dir/Torch" "$dir" "$dir"/lib/*/cmake/Torch "$dir"/lib/cmake/Torch; do
    [ -f "$c/TorchConfig.cmake" ] && { echo "$c"; return 0; }
  done
  return 1
}

# RLX_TORCH_DIR: any LibTorch the user names.
_rlx_detect_torch_dir() {
  local dir=$RLX_TORCH_DIR cmake_dir lib
  if ! cmake_dir=$(_rlx_torch_cmake_dir "$dir"); then
    RLX_TORCH_KIND=none
    RLX_TORCH_WHY="RLX_TORCH_DIR=$dir holds no TorchConfig.cmake (looked in share/cmake/Torch, lib/*/cmake/Torch and the folder itself): point it at an unpacked LibTorch, or unset it to build against the pinned PyPI torch"
    return 1
  fi
  # LibTorch records its std::string ABI in TORCH_CXX_FLAGS; the pre-C++11 one cannot link with
  # Debian's C++ libraries (fmt, SQLiteCpp).
  if grep -q -- '-D_GLIBCXX_USE_CXX11_ABI=0' "$cmake_dir/TorchConfig.cmake" 2>/dev/null; then
    RLX_TORCH_KIND=none
    RLX_TORCH_WHY="RLX_TORCH_DIR=$dir is a LibTorch built with the pre-C++11 std::string ABI (-D_GLIBCXX_USE_CXX11_ABI=0 in TorchConfig.cmake), which cannot link with Debian's C++ libraries: use the cxx11-ABI LibTorch, or unset RLX_TORCH_DIR"
    return 1
  fi
  RLX_TORCH_PREFIX=$dir RLX_TORCH_CMAKE_DIR=$cmake_dir RLX_TORCH_KIND=cpu
  for lib in "$dir"/lib/libtorch_cuda.so* "$dir"/lib/*/libtorch_cuda.so* "$cmake_dir"/../../../lib/libtorch_cuda.so*; do
    [ -e "$lib" ] && { RLX_TORCH_KIND=cuda; break; }
  done
  if [ "$RLX_TORCH_KIND" = cpu ] && rlx_nvidia_gpu_present; then
    RLX_TORCH_KIND=none RLX_TORCH_PREFIX="" RLX_TORCH_CMAKE_DIR=""
    RLX_TORCH_WHY="this machine has an NVIDIA GPU but RLX_TORCH_DIR=$dir is a CPU-only LibTorch (no libtorch_cuda.so): point it at a CUDA LibTorch, or unset it to build against the pinned PyPI torch (CUDA-enabled)"
    return 1
  fi
  RLX_TORCH_WHY="RLX_TORCH_DIR ($RLX_TORCH_KIND LibTorch)"
  return 0
}

# The pinned torch in its virtual environment (or RLX_PYTHON's torch).
_rlx_detect_venv_torch() {
  local py=${RLX_PYTHON:-} out version prefix cuda abi
  if [ -z "$py" ]; then
    source "$(dirname "${BASH_SOURCE[0]}")/torch-venv.sh"
    local venv
    venv=$(rlx_venv_dir)
    if ! rlx_venv_check "$venv"; then
      RLX_TORCH_KIND=none RLX_TORCH_WHY=$RLX_VENV_WHY
      return 1
    fi
    py=$venv/bin/python
  fi
  if ! out=$("$py" -c 'import torch, torch.utils
print(torch.utils.cmake_prefix_path); print(torch.version.cuda or ""); print(torch.__version__)
print(int(torch.compiled_with_cxx11_abi()))' 2>/dev/null); then
    RLX_TORCH_KIND=none
    RLX_TORCH_WHY="$py has no torch module: run scripts/setup.sh (it installs the pinned torch), or set RLX_TORCH_DIR to an unpacked LibTorch"
    return 1
  fi
  prefix=$(sed -n 1p <<<"$out") cuda=$(sed -n 2p <<<"$out") version=$(sed -n 3p <<<"$out") abi=$(sed -n 4p <<<"$out")
  if [ ! -f "$prefix/Torch/TorchConfig.cmake" ]; then
    RLX_TORCH_KIND=none
    RLX_TORCH_WHY="$py's torch $version has no CMake package ($prefix/Torch/TorchConfig.cmake is missing): reinstall the wheel from PyPI (scripts/setup.sh), or set RLX_TORCH_DIR to an unpacked LibTorch"
    return 1
  fi
  if [ "$abi" != 1 ]; then
    RLX_TORCH_KIND=none
    RLX_TORCH_WHY="$py's torch $version was built with the pre-C++11 std::string ABI, which cannot link with Debian's C++ libraries: install a cxx11-ABI wheel (every PyPI torch since 2.7) or set RLX_TORCH_DIR to a cxx11-ABI LibTorch"
    return 1
  fi
  if [ -z "$cuda" ] && rlx_nvidia_gpu_present; then
    RLX_TORCH_KIND=none
    RLX_TORCH_WHY="this machine has an NVIDIA GPU but $py's torch $version is a CPU-only build (torch.version.cuda is None): install a CUDA wheel, or set RLX_TORCH_DIR to a CUDA LibTorch"
    return 1
  fi
  RLX_TORCH_PREFIX=$prefix RLX_TORCH_CMAKE_DIR=$prefix/Torch
  if [ -n "$cuda" ]; then
    RLX_TORCH_KIND=cuda RLX_TORCH_WHY="torch $version (CUDA $cuda) of $py"
  else
    RLX_TORCH_KIND=cpu RLX_TORCH_WHY="torch $version (CPU only) of $py"
  fi
  return 0
}

rlx_detect_torch() {
  RLX_TORCH_KIND=cpu RLX_TORCH_PREFIX="" RLX_TORCH_CMAKE_DIR="" RLX_TORCH_WHY=""
  if [ -n "${RLX_TORCH_DIR:-}" ]; then
    _rlx_detect_torch_dir
  else
    _rlx_detect_venv_torch
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  cd "$(dirname "$0")/.." || exit 1
  rlx_detect_torch
  rc=$?
  printf '%s\t%s\t%s\n' "$RLX_TORCH_KIND" "$RLX_TORCH_PREFIX" "$RLX_TORCH_WHY"
  exit $rc
fi
