#!/usr/bin/env bash
# detect-torch.sh: which LibTorch scripts/setup.sh builds against. Debian's libtorch-dev (and its
# python3-torch) has no CUDA, so on a machine with an NVIDIA GPU a plain build would train on the
# CPU only; this finds a CUDA-enabled LibTorch instead, or stops and says how to get one.
#
#   source scripts/detect-torch.sh; rlx_detect_torch   # sets RLX_TORCH_KIND, RLX_TORCH_PREFIX, RLX_TORCH_WHY
#   bash scripts/detect-torch.sh                       # prints "KIND<TAB>PREFIX<TAB>WHY"
#
# Exit status / RLX_TORCH_KIND:
#   0 cpu    no NVIDIA GPU (or RLX_CPU_ONLY=1): build against Debian's LibTorch (PREFIX empty);
#            RLX_GPU=1 counts as a GPU (an image built for GPU nodes on a machine without one)
#   0 cuda   a GPU and a CUDA LibTorch at PREFIX (pass it in CMAKE_PREFIX_PATH); its
#            TorchConfig.cmake directory is RLX_TORCH_CMAKE_DIR (pass it as Torch_DIR, which
#            overrides a Torch_DIR cached by an earlier CPU build)
#   1 none   a GPU but no CUDA LibTorch: WHY says how to get one
# Order: RLX_TORCH_DIR (an unpacked LibTorch, or any prefix holding share/cmake/Torch), then the
# CMake prefix of python3's torch when that torch was built with CUDA (torch.version.cuda).
# The inputs can be redirected, which is how tests/unit/setup drives it with fakes:
#   RLX_NVIDIA_SMI (default nvidia-smi), RLX_PROC_NVIDIA (default /proc/driver/nvidia),
#   RLX_PYTHON (default python3).

# True when the NVIDIA driver sees a GPU: nvidia-smi lists one, or the kernel driver's /proc
# directory names one (containers often lack nvidia-smi but have the driver files).
rlx_nvidia_gpu_present() {
  local smi=${RLX_NVIDIA_SMI:-nvidia-smi} proc=${RLX_PROC_NVIDIA:-/proc/driver/nvidia}
  # RLX_GPU=1: build for a GPU this machine cannot see now (a container image is built without
  # one: containers/cuda.Containerfile); rlx checks at run time that it sees it (gpu_unusable).
  [ "${RLX_GPU:-0}" = 1 ] && return 0
  if command -v "$smi" >/dev/null 2>&1 && "$smi" -L 2>/dev/null | grep -q '^GPU [0-9]'; then
    return 0
  fi
  compgen -G "$proc/gpus/*" >/dev/null 2>&1
}

# The CMake prefix of a LibTorch directory (the directory itself when it holds
# share/cmake/Torch/TorchConfig.cmake) and whether it has CUDA (libtorch_cuda.so beside it).
_rlx_torch_dir_cuda() {
  local dir=$1
  [ -f "$dir/share/cmake/Torch/TorchConfig.cmake" ] || return 2
  compgen -G "$dir/lib/libtorch_cuda.so*" >/dev/null 2>&1
}

rlx_detect_torch() {
  RLX_TORCH_KIND=cpu RLX_TORCH_PREFIX="" RLX_TORCH_CMAKE_DIR="" RLX_TORCH_WHY=""
  if [ "${RLX_CPU_ONLY:-0}" = 1 ]; then
    RLX_TORCH_WHY="RLX_CPU_ONLY=1: Debian's CPU-only LibTorch"
    return 0
  fi
  if ! rlx_nvidia_gpu_present; then
    RLX_TORCH_WHY="no NVIDIA GPU (nvidia-smi lists none, no ${RLX_PROC_NVIDIA:-/proc/driver/nvidia}/gpus): Debian's CPU-only LibTorch"
    return 0
  fi
  local notes=()
  if [ -n "${RLX_TORCH_DIR:-}" ]; then
    _rlx_torch_dir_cuda "$RLX_TORCH_DIR"
    case $? in
      0) RLX_TORCH_KIND=cuda RLX_TORCH_PREFIX=$RLX_TORCH_DIR RLX_TORCH_CMAKE_DIR=$RLX_TORCH_DIR/share/cmake/Torch
         RLX_TORCH_WHY="NVIDIA GPU; CUDA LibTorch from RLX_TORCH_DIR"; return 0 ;;
      1) notes+=("RLX_TORCH_DIR=$RLX_TORCH_DIR is a CPU-only LibTorch (no lib/libtorch_cuda.so)") ;;
      *) notes+=("RLX_TORCH_DIR=$RLX_TORCH_DIR holds no share/cmake/Torch/TorchConfig.cmake") ;;
    esac
  fi
  local py=${RLX_PYTHON:-python3} out prefix cuda version
  if command -v "$py" >/dev/null 2>&1 &&
     out=$("$py" -c 'import torch, torch.utils
print(torch.utils.cmake_prefix_path); print(torch.version.cuda or ""); print(torch.__version__)
print(int(torch.compiled_with_cxx11_abi()))' 2>/dev/null); then
    prefix=$(sed -n 1p <<<"$out") cuda=$(sed -n 2p <<<"$out") version=$(sed -n 3p <<<"$out") abi=$(sed -n 4p <<<"$out")
    if [ -n "$cuda" ] && [ "$abi" = 0 ]; then
      # rlx also links Debian's C++ libraries (fmt, SQLiteCpp), built with the C++11 std::string ABI.
      notes+=("$py's torch $version has CUDA but was built with the old (pre-C++11) ABI, which cannot link with Debian's C++ libraries: use a torch built with the C++11 ABI (the cxx11-ABI LibTorch zip, or a newer wheel)")
    elif [ -n "$cuda" ] && [ -f "$prefix/Torch/TorchConfig.cmake" ]; then
      RLX_TORCH_KIND=cuda RLX_TORCH_PREFIX=$prefix RLX_TORCH_CMAKE_DIR=$prefix/Torch
      RLX_TORCH_WHY="NVIDIA GPU; CUDA $cuda LibTorch of $py's torch $version"
      return 0
    fi
    if [ -n "$cuda" ] && [ "$abi" = 0 ]; then
      :
    elif [ -z "$cuda" ]; then
      notes+=("$py's torch $version is a CPU-only build (torch.version.cuda is None, as in Debian's python3-torch)")
    else
      notes+=("$py's torch $version names a CMake prefix without Torch/TorchConfig.cmake: $prefix")
    fi
  else
    notes+=("$py has no torch module")
  fi
  local joined="" n
  for n in "${notes[@]}"; do joined+="${joined:+; }$n"; done
  RLX_TORCH_KIND=none
  local who="this machine has an NVIDIA GPU"
  [ "${RLX_GPU:-0}" = 1 ] && who="RLX_GPU=1 asks for a GPU build"
  RLX_TORCH_WHY="$who but no CUDA-enabled LibTorch was found ($joined). Get one: unpack the cxx11-ABI LibTorch zip for your CUDA version from pytorch.org and set RLX_TORCH_DIR=/path/to/libtorch, or 'pip install torch' (a CUDA wheel) so that python3 -c 'import torch' finds it; then run scripts/setup.sh again. RLX_CPU_ONLY=1 builds the CPU-only rlx anyway. See docs/gpu.md."
  return 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  rlx_detect_torch
  rc=$?
  printf '%s\t%s\t%s\n' "$RLX_TORCH_KIND" "$RLX_TORCH_PREFIX" "$RLX_TORCH_WHY"
  exit $rc
fi
