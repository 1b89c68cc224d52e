#!/usr/bin/env bash
# detect_torch.sh: drives scripts/detect-torch.sh and scripts/torch-venv.sh (setup.sh's choice of
# LibTorch, issue 51) with fake nvidia-smi programs, fake /proc/driver/nvidia trees, fake Pythons,
# fake virtual environments and fake LibTorch folders, and checks the kind, prefix, exit status and
# the one-line message of each case. Nothing is installed: the cases that would install are given
# RLX_VENV_DIR, a folder the user named, which setup never replaces.
set -u
cd "$(dirname "$0")/../.."
T=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/detect-torch.XXXXXX")
trap 'rm -rf "$T"' EXIT
fails=0

# fake_smi NAME EXIT OUTPUT: an nvidia-smi that prints OUTPUT and exits EXIT.
fake_smi() { printf '#!/bin/sh\nprintf "%%s\\n" "%s"\nexit %s\n' "$3" "$2" >"$T/$1"; chmod +x "$T/$1"; }
# fake_python PATH PREFIX CUDA VERSION [ABI]: a python whose torch VERSION prints PREFIX, CUDA ("" =
# CPU build) and compiled_with_cxx11_abi() (default 1), for both scripts' questions (the venv check
# asks for the version without its +local tag first).
fake_python() {
  mkdir -p "$(dirname "$1")"
  cat >"$1" <<EOF
#!/bin/sh
case "\$2" in
  *cmake_prefix_path\)\;\ print\(torch.version.cuda*) printf '%s\n%s\n%s\n%s\n' "$2" "$3" "$4" "${5:-1}" ;;
  *) printf '%s\n%s\n%s\n' "${4%%+*}" "$2" "${5:-1}" ;;
esac
EOF
  chmod +x "$1"
}
fake_torch_prefix() { mkdir -p "$T/$1/Torch"; echo 'set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=1")' >"$T/$1/Torch/TorchConfig.cmake"; }
fake_libtorch() {  # NAME cuda|cpu|oldabi|debian
  local cfg="$T/$1/share/cmake/Torch" lib="$T/$1/lib"
  [ "$2" = debian ] && cfg="$T/$1/lib/x86_64-linux-gnu/cmake/Torch" lib="$T/$1/lib/x86_64-linux-gnu"
  mkdir -p "$cfg" "$lib"
  echo 'set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=1")' >"$cfg/TorchConfig.cmake"
  [ "$2" = oldabi ] && echo 'set(TORCH_CXX_FLAGS "-D_GLIBCXX_USE_CXX11_ABI=0")' >"$cfg/TorchConfig.cmake"
  touch "$lib/libtorch_cpu.so"; [ "$2" = cuda ] && touch "$lib/libtorch_cuda.so"
  return 0
}
# fake_venv NAME PREFIX CUDA VERSION [ABI]: a finished environment (stamp written).
fake_venv() { fake_python "$T/$1/bin/python" "$2" "$3" "$4" "${5:-1}"; echo "torch==${4%%+*}" >"$T/$1/.rlx-ready"; }

# check NAME WANT_RC WANT_KIND WANT_PREFIX WHY_REGEX [VAR=VALUE...]
check() {
  local name=$1 want_rc=$2 want_kind=$3 want_prefix=$4 why_re=$5; shift 5
  local out rc
  out=$(env -u RLX_TORCH_DIR -u RLX_GPU -u RLX_PYTHON RLX_NVIDIA_SMI="$T/none" RLX_PROC_NVIDIA="$T/noproc" \
        RLX_TORCH_PIN="$T/pin.txt" RLX_VENV_DIR="$T/novenv" "$@" bash scripts/detect-torch.sh)
  rc=$?
  local kind prefix why
  kind=$(cut -f1 <<<"$out") prefix=$(cut -f2 <<<"$out") why=$(cut -f3- <<<"$out")
  if [ "$rc" = "$want_rc" ] && [ "$kind" = "$want_kind" ] && [ "$prefix" = "$want_prefix" ] &&
     [ "$(wc -l <<<"$out")" = 1 ] && perl -e 'exit(($ARGV[0] =~ /$ARGV[1]/s) ? 0 : 1)' "$why" "$why_re"; then
    echo "PASS $name"
  else
    echo "FAIL $name: got rc=$rc kind=$kind prefix=$prefix why=$why"
    echo "     want rc=$want_rc kind=$want_kind prefix=$want_prefix why~/$why_re/"
    fails=$((fails + 1))
  fi
}

printf '# a comment\ntorch==2.15.0\ntorchvision==0.29.2\n' >"$T/pin.txt"
fake_smi smi_gpu 0 "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0f6e1c2a)"
fake_smi smi_nogpu 0 "No devices were found"
mkdir -p "$T/proc_gpu/gpus/0000:01:00.0" "$T/proc_empty"
fake_torch_prefix wheel_prefix
fake_venv venv_ok "$T/wheel_prefix" "13.2" "2.15.0+cu132"
fake_venv venv_cpu "$T/wheel_prefix" "" "2.15.0+cpu"
fake_venv venv_old "$T/wheel_prefix" "13.2" "2.9.1+cu128"
fake_venv venv_nocmake "$T/missing" "13.2" "2.15.0+cu132"
fake_venv venv_oldabi "$T/wheel_prefix" "13.2" "2.15.0+cu132" 0
fake_python "$T/venv_half/bin/python" "$T/wheel_prefix" "13.2" "2.15.0+cu132" # no stamp: pip was cut short
mkdir -p "$T/venv_broken/bin"; printf '#!/bin/sh\necho "ModuleNotFoundError: No module named torch" >&2\nexit 1\n' \
  >"$T/venv_broken/bin/python"; chmod +x "$T/venv_broken/bin/python"; echo "torch==2.15.0" >"$T/venv_broken/.rlx-ready"
fake_libtorch libtorch_cuda cuda
fake_libtorch libtorch_cpu cpu
fake_libtorch libtorch_oldabi oldabi
fake_libtorch debian_usr debian

# The default: the pinned wheel in its virtual environment.
check "the pinned wheel, no GPU: CUDA-enabled all the same" 0 cuda "$T/wheel_prefix" \
  "torch 2.15.0\\+cu132 \\(CUDA 13.2\\) of .*venv_ok/bin/python" RLX_VENV_DIR="$T/venv_ok"
check "the pinned wheel on a GPU machine" 0 cuda "$T/wheel_prefix" "CUDA 13.2" \
  RLX_VENV_DIR="$T/venv_ok" RLX_NVIDIA_SMI="$T/smi_gpu"
check "no virtual environment: run setup" 1 none "" "no virtual environment at .*novenv: run scripts/setup.sh"
check "half-installed (no stamp): remove it and run setup" 1 none "" \
  "venv_half is half-installed \\(no .rlx-ready stamp or no bin/python\\): remove it \\(rm -rf .*venv_half\\) and run scripts/setup.sh again" \
  RLX_VENV_DIR="$T/venv_half"
check "stamp but torch does not import" 1 none "" "venv_broken cannot import torch \\(ModuleNotFoundError: No module named torch\\): remove it" \
  RLX_VENV_DIR="$T/venv_broken"
check "another torch than the pin" 1 none "" "holds torch 2.9.1, the pin \\(.*pin.txt\\) says 2.15.0: remove it" \
  RLX_VENV_DIR="$T/venv_old"
check "a wheel without its CMake package" 1 none "" \
  "has no CMake package \\(.*missing/Torch/TorchConfig.cmake is missing\\): .*reinstall the wheel from PyPI" \
  RLX_VENV_DIR="$T/venv_nocmake"
check "a wheel with the pre-C++11 ABI" 1 none "" "pre-C\\+\\+11 std::string ABI, which cannot link with Debian's C\\+\\+ libraries" \
  RLX_VENV_DIR="$T/venv_oldabi"
check "a CPU-only wheel without a GPU" 0 cpu "$T/wheel_prefix" "\\(CPU only\\)" RLX_VENV_DIR="$T/venv_cpu"
check "a CPU-only wheel on a GPU machine (seen through /proc only): stop" 1 none "" \
  "has an NVIDIA GPU but .*torch 2.15.0\\+cpu is a CPU-only build" RLX_VENV_DIR="$T/venv_cpu" RLX_PROC_NVIDIA="$T/proc_gpu"

# RLX_TORCH_DIR: any other LibTorch.
check "RLX_TORCH_DIR: a CUDA LibTorch zip" 0 cuda "$T/libtorch_cuda" "RLX_TORCH_DIR \\(cuda LibTorch\\)" \
  RLX_TORCH_DIR="$T/libtorch_cuda"
check "RLX_TORCH_DIR wins over the virtual environment" 0 cpu "$T/libtorch_cpu" "RLX_TORCH_DIR \\(cpu LibTorch\\)" \
  RLX_TORCH_DIR="$T/libtorch_cpu" RLX_VENV_DIR="$T/venv_ok"
check "RLX_TORCH_DIR: Debian's layout (lib/<triplet>/cmake/Torch)" 0 cpu "$T/debian_usr" "cpu LibTorch" \
  RLX_TORCH_DIR="$T/debian_usr"
check "RLX_TORCH_DIR: CPU-only on a GPU machine: stop" 1 none "" \
  "NVIDIA GPU but RLX_TORCH_DIR=.*libtorch_cpu is a CPU-only LibTorch \\(no libtorch_cuda.so\\)" \
  RLX_TORCH_DIR="$T/libtorch_cpu" RLX_NVIDIA_SMI="$T/smi_gpu"
check "RLX_TORCH_DIR: CPU-only with RLX_GPU=1 (an image for GPU nodes): stop" 1 none "" "CPU-only LibTorch" \
  RLX_TORCH_DIR="$T/libtorch_cpu" RLX_GPU=1
check "RLX_TORCH_DIR: a CPU-only LibTorch where nvidia-smi lists no GPU" 0 cpu "$T/libtorch_cpu" "cpu LibTorch" \
  RLX_TORCH_DIR="$T/libtorch_cpu" RLX_NVIDIA_SMI="$T/smi_nogpu"
check "RLX_TORCH_DIR that is no LibTorch" 1 none "" "RLX_TORCH_DIR=.*proc_empty holds no TorchConfig.cmake" \
  RLX_TORCH_DIR="$T/proc_empty"
check "RLX_TORCH_DIR: the pre-C++11 ABI" 1 none "" "pre-C\\+\\+11 std::string ABI \\(-D_GLIBCXX_USE_CXX11_ABI=0 in TorchConfig.cmake\\)" \
  RLX_TORCH_DIR="$T/libtorch_oldabi"

# torch-venv.sh: the cache folder is keyed by the pin, so another clone of the same pin finds it.
key() { env -u RLX_VENV_DIR RLX_TORCH_PIN="$1" RLX_VENV_CACHE="$T/cache" bash -c 'source scripts/torch-venv.sh; rlx_venv_dir'; }
printf 'torch==2.15.0\ntorchvision==0.29.2\n' >"$T/pin_same.txt"    # the same lines, no comment
printf 'torch==2.14.1\ntorchvision==0.29.2\n' >"$T/pin_other.txt"
a=$(key "$T/pin.txt") b=$(key "$T/pin_same.txt") c=$(key "$T/pin_other.txt")
if [ "$a" = "$b" ] && [ "$a" != "$c" ] && [[ "$a" == "$T/cache/torch-2.15.0-"* ]] && [[ "$c" == "$T/cache/torch-2.14.1-"* ]]; then
  echo "PASS the cache folder is keyed by the pin's lines: $a"
else
  echo "FAIL the cache folder: same pin $a vs $b, other pin $c"; fails=$((fails + 1))
fi

echo "detect-torch: $fails failed"
[ "$fails" -eq 0 ]
