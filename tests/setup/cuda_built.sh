#!/usr/bin/env bash
# cuda_built.sh BUILD_DIR: every CUDA path of rlx is compiled and linked in this build (issue 51). The
# build's LibTorch (the pinned PyPI wheel) is CUDA-enabled on every machine, GPU or not, so:
#  - CMake found CUDA in LibTorch and the CUPTI toolkit (RLX_HAVE_TORCH_CUDA, RLX_HAVE_CUPTI);
#  - every source file that mentions RLX_HAVE_TORCH_CUDA (the trainer, the multi-tensor SGD, CUDA
#    graphs, the devices, the CUDA peaks) was compiled with it defined (compile_commands.json);
#  - librlx_torch.so linked them: the CUDA peak and SGD code is in it, and the CUDA unit-test program
#    tests/rlx_test_train_gpu exists.
# Exit 77 (skip) for a build against a CPU-only LibTorch (RLX_TORCH_DIR), which has no CUDA paths.
set -u
BUILD=$(cd "${1:?usage: cuda_built.sh BUILD_DIR}" && pwd)
cd "$(dirname "$0")/../.."
cache=$BUILD/CMakeCache.txt
# The folder of the LibTorch the library loads: a CUDA LibTorch has libtorch_cuda.so in it.
torch_lib=$(ldd "$BUILD/librlx_torch.so" | awk '$1 ~ /^libtorch_cpu\.so/ {print $3; exit}')
if [ -n "$torch_lib" ] && [ ! -e "$(dirname "$torch_lib")/libtorch_cuda.so" ]; then
  echo "SKIP: this build's LibTorch has no CUDA (RLX_TORCH_DIR named a CPU-only one)"; exit 77
fi
fails=0
ok() { echo "PASS $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }
[ -f "$BUILD/compile_commands.json" ] || { echo "FAIL: no $BUILD/compile_commands.json"; exit 1; }
files=$(grep -rl 'RLX_HAVE_TORCH_CUDA' engine host | grep -E '\.cpp$' | sort)
[ -n "$files" ] || bad "no source file mentions RLX_HAVE_TORCH_CUDA"
for f in $files; do
  if python3 - "$BUILD/compile_commands.json" "$PWD/$f" <<'PY'
import json, sys
cmds = [c for c in json.load(open(sys.argv[1])) if c["file"] == sys.argv[2]]
sys.exit(0 if cmds and all("-DRLX_HAVE_TORCH_CUDA=1" in c["command"] for c in cmds) else 1)
PY
  then ok "$f compiled with RLX_HAVE_TORCH_CUDA=1"; else bad "$f not compiled with RLX_HAVE_TORCH_CUDA=1"; fi
done
grep -q '^CUPTI_LIBRARY:FILEPATH=/' "$cache" && ok "CUPTI found" || bad "CUPTI not found (the CUDA toolkit at /usr/local/cuda)"
# Functions only a CUDA build defines, in the library rlx loads.
for sym in 'rlx::peaks::measure_cuda' 'MultiTensorSgd'; do
  if nm -DC "$BUILD/librlx_torch.so" | grep -q "$sym"; then ok "librlx_torch.so defines $sym"; else bad "librlx_torch.so lacks $sym"; fi
done
ldd "$BUILD/librlx_torch.so" | grep -q 'libtorch_cuda.so => /' && ok "librlx_torch.so links libtorch_cuda.so" ||
  bad "librlx_torch.so does not resolve libtorch_cuda.so"
[ -x "$BUILD/tests/rlx_test_train_gpu" ] && ok "the CUDA unit-test program linked" || bad "no $BUILD/tests/rlx_test_train_gpu"
echo "cuda_built: $fails failed"
[ "$fails" -eq 0 ]
