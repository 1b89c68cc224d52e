#!/usr/bin/env bash
# detect_torch.sh: drives scripts/detect-torch.sh (setup.sh's choice of LibTorch) with fake
# nvidia-smi programs, fake /proc/driver/nvidia trees, fake python3 programs and fake LibTorch
# directories, and checks the kind, prefix, exit status and message of each case.
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/detect-torch.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0

# fake_smi NAME EXIT OUTPUT: an nvidia-smi that prints OUTPUT and exits EXIT.
fake_smi() { printf '#!/bin/sh\nprintf "%%s\\n" "%s"\nexit %s\n' "$3" "$2" >"$T/$1"; chmod +x "$T/$1"; }
# fake_python NAME PREFIX CUDA [ABI]: a python3 whose torch 2.5.1 prints PREFIX, CUDA ("" = CPU
# build) and compiled_with_cxx11_abi() (default 1).
fake_python() {
  printf '#!/bin/sh\nprintf "%%s\\n%%s\\n2.5.1\\n%%s\\n" "%s" "%s" "%s"\n' "$2" "$3" "${4:-1}" >"$T/$1"; chmod +x "$T/$1"
}
fake_torch_prefix() { mkdir -p "$T/$1/Torch"; touch "$T/$1/Torch/TorchConfig.cmake"; }
fake_libtorch() {  # NAME cuda|cpu
  mkdir -p "$T/$1/share/cmake/Torch" "$T/$1/lib"; touch "$T/$1/share/cmake/Torch/TorchConfig.cmake"
  touch "$T/$1/lib/libtorch_cpu.so"; [ "$2" = cuda ] && touch "$T/$1/lib/libtorch_cuda.so"
}

# check NAME WANT_RC WANT_KIND WANT_PREFIX WHY_REGEX [VAR=VALUE...]
check() {
  local name=$1 want_rc=$2 want_kind=$3 want_prefix=$4 why_re=$5; shift 5
  local out rc
  out=$(env -u RLX_TORCH_DIR -u RLX_CPU_ONLY -u RLX_GPU RLX_NVIDIA_SMI="$T/none" RLX_PROC_NVIDIA="$T/noproc" \
        RLX_PYTHON="$T/nopython" "$@" bash scripts/detect-torch.sh)
  rc=$?
  local kind prefix why
  kind=$(cut -f1 <<<"$out") prefix=$(cut -f2 <<<"$out") why=$(cut -f3- <<<"$out")
  if [ "$rc" = "$want_rc" ] && [ "$kind" = "$want_kind" ] && [ "$prefix" = "$want_prefix" ] &&
     perl -e 'exit(($ARGV[0] =~ /$ARGV[1]/s) ? 0 : 1)' "$why" "$why_re"; then
    echo "PASS $name"
  else
    echo "FAIL $name: got rc=$rc kind=$kind prefix=$prefix why=$why"
    echo "     want rc=$want_rc kind=$want_kind prefix=$want_prefix why~/$why_re/"
    fails=$((fails + 1))
  fi
}

fake_smi smi_gpu 0 "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0f6e1c2a)"
fake_smi smi_nogpu 0 "No devices were found"
fake_smi smi_broken 9 "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
mkdir -p "$T/proc_gpu/gpus/0000:01:00.0" "$T/proc_empty"
fake_torch_prefix pycuda_prefix
fake_python py_cuda "$T/pycuda_prefix" "12.4"
fake_python py_cpu "/usr/lib/python3/dist-packages/torch/share/cmake" ""
fake_python py_badprefix "$T/missing" "12.4"
fake_python py_oldabi "$T/pycuda_prefix" "12.1" 0
printf '#!/bin/sh\necho "ModuleNotFoundError: No module named torch" >&2\nexit 1\n' >"$T/py_notorch"; chmod +x "$T/py_notorch"
fake_libtorch libtorch_cuda cuda
fake_libtorch libtorch_cpu cpu

check "no GPU: Debian's LibTorch" 0 cpu "" "no NVIDIA GPU"
check "nvidia-smi lists no GPU" 0 cpu "" "no NVIDIA GPU" RLX_NVIDIA_SMI="$T/smi_nogpu" RLX_PYTHON="$T/py_cuda"
check "nvidia-smi fails, no driver files" 0 cpu "" "no NVIDIA GPU" RLX_NVIDIA_SMI="$T/smi_broken" RLX_PROC_NVIDIA="$T/proc_empty"
check "GPU + python3 torch with CUDA" 0 cuda "$T/pycuda_prefix" "CUDA 12.4 LibTorch of .*torch 2.5.1" \
  RLX_NVIDIA_SMI="$T/smi_gpu" RLX_PYTHON="$T/py_cuda"
check "GPU seen through /proc/driver/nvidia only" 0 cuda "$T/pycuda_prefix" "CUDA 12.4" \
  RLX_PROC_NVIDIA="$T/proc_gpu" RLX_PYTHON="$T/py_cuda"
check "GPU + RLX_TORCH_DIR with CUDA wins over python3" 0 cuda "$T/libtorch_cuda" "from RLX_TORCH_DIR" \
  RLX_NVIDIA_SMI="$T/smi_gpu" RLX_TORCH_DIR="$T/libtorch_cuda" RLX_PYTHON="$T/py_cuda"
check "GPU + CPU-only RLX_TORCH_DIR falls back to python3's CUDA torch" 0 cuda "$T/pycuda_prefix" "CUDA 12.4" \
  RLX_NVIDIA_SMI="$T/smi_gpu" RLX_TORCH_DIR="$T/libtorch_cpu" RLX_PYTHON="$T/py_cuda"
check "GPU + Debian's CPU-only python3-torch: stop" 1 none "" \
  "NVIDIA GPU but no CUDA-enabled LibTorch.*torch 2.5.1 is a CPU-only build.*RLX_TORCH_DIR=/path/to/libtorch.*pip install torch" \
  RLX_NVIDIA_SMI="$T/smi_gpu" RLX_PYTHON="$T/py_cpu"
check "GPU + CPU-only RLX_TORCH_DIR and no torch: stop naming both" 1 none "" \
  "RLX_TORCH_DIR=.*libtorch_cpu is a CPU-only LibTorch \\(no lib/libtorch_cuda.so\\); .*py_notorch has no torch module" \
  RLX_NVIDIA_SMI="$T/smi_gpu" RLX_TORCH_DIR="$T/libtorch_cpu" RLX_PYTHON="$T/py_notorch"
check "GPU + RLX_TORCH_DIR that is no LibTorch" 1 none "" "holds no share/cmake/Torch/TorchConfig.cmake" \
  RLX_NVIDIA_SMI="$T/smi_gpu" RLX_TORCH_DIR="$T/proc_empty" RLX_PYTHON="$T/nopython"
check "GPU + python3 torch naming a missing prefix" 1 none "" "without Torch/TorchConfig.cmake: $T/missing" \
  RLX_NVIDIA_SMI="$T/smi_gpu" RLX_PYTHON="$T/py_badprefix"
check "GPU + python3 torch with CUDA but the pre-C++11 ABI: stop" 1 none "" \
  "torch 2.5.1 has CUDA but was built with the old \\(pre-C\\+\\+11\\) ABI" \
  RLX_NVIDIA_SMI="$T/smi_gpu" RLX_PYTHON="$T/py_oldabi"
check "no GPU visible + RLX_GPU=1 (an image built for GPU nodes) uses RLX_TORCH_DIR's CUDA LibTorch" 0 cuda \
  "$T/libtorch_cuda" "from RLX_TORCH_DIR" RLX_GPU=1 RLX_TORCH_DIR="$T/libtorch_cuda"
check "no GPU visible + RLX_GPU=1 without a CUDA LibTorch: stop" 1 none "" "no CUDA-enabled LibTorch" \
  RLX_GPU=1 RLX_PYTHON="$T/py_cpu"
check "GPU + RLX_CPU_ONLY=1 builds the CPU rlx" 0 cpu "" "RLX_CPU_ONLY=1" \
  RLX_NVIDIA_SMI="$T/smi_gpu" RLX_PYTHON="$T/py_cpu" RLX_CPU_ONLY=1

echo "detect-torch: $fails failed"
[ "$fails" -eq 0 ]
