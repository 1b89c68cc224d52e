#!/usr/bin/env bash
# cuda_syntax.sh BUILD_DIR: keeps the CUDA-only code (#if RLX_HAVE_TORCH_CUDA) from rotting on
# machines without a GPU or a CUDA LibTorch. Every source file that mentions RLX_HAVE_TORCH_CUDA is
# compiled syntax-only with its own command from BUILD_DIR/compile_commands.json plus
# -DRLX_HAVE_TORCH_CUDA=1, against the CUDA headers Debian's libtorch-dev ships (ATen/cuda,
# c10/cuda) and the toolkit in /usr/local/cuda. The one header a CUDA build of LibTorch generates,
# c10/cuda/impl/cuda_cmake_macros.h, gets a one-line stand-in in BUILD_DIR/cuda-syntax-stub.
# The code for LibTorch 2.3 and newer (RLX_HAVE_FUSED_SGD: at::_fused_sgd_, which the GPU machines'
# LibTorch has and Debian's 1.13 lacks) is compiled the same way against a stand-in
# ATen/ops/_fused_sgd.h declaring the two overloads as PyTorch 2.3+ generates them from
# native_functions.yaml (`_fused_sgd_` and `_fused_sgd_.tensor_lr`), so a call that would not
# resolve there fails here instead of in a GPU session's build.
# Exit 77 (skip) when those headers are not installed.
set -u
BUILD=$(cd "${1:?usage: cuda_syntax.sh BUILD_DIR}" && pwd)
cd "$(dirname "$0")/../.."
SRC=$(pwd)
CUDA_ROOT=${RLX_CUDA_ROOT:-/usr/local/cuda}
for need in "$CUDA_ROOT/include/cuda_runtime_api.h" /usr/include/c10/cuda/CUDAStream.h /usr/include/ATen/cuda/CUDAContext.h; do
  [ -e "$need" ] || { echo "SKIP: $need is missing (the CUDA toolkit in $CUDA_ROOT and Debian's libtorch-dev provide it)"; exit 77; }
done
[ -f "$BUILD/compile_commands.json" ] || { echo "FAIL: no $BUILD/compile_commands.json"; exit 1; }

STUB=$BUILD/cuda-syntax-stub
mkdir -p "$STUB/c10/cuda/impl"
echo '#define C10_CUDA_BUILD_SHARED_LIBS' >"$STUB/c10/cuda/impl/cuda_cmake_macros.h"
mkdir -p "$STUB/ATen/ops"
cat >"$STUB/ATen/ops/_fused_sgd.h" <<'H'
#pragma once
// Stand-in for PyTorch 2.3+'s generated header (tests/setup/cuda_syntax.sh): declarations only.
#include <ATen/core/Tensor.h>
#include <optional>
namespace at {
void _fused_sgd_(at::TensorList self, at::TensorList grads, at::TensorList momentum_buffer_list,
                 double weight_decay, double momentum, double lr, double dampening, bool nesterov,
                 bool maximize, bool is_first_step, const ::std::optional<at::Tensor>& grad_scale = {},
                 const ::std::optional<at::Tensor>& found_inf = {});
void _fused_sgd_(at::TensorList self, at::TensorList grads, at::TensorList momentum_buffer_list,
                 double weight_decay, double momentum, const at::Tensor& lr, double dampening,
                 bool nesterov, bool maximize, bool is_first_step,
                 const ::std::optional<at::Tensor>& grad_scale = {},
                 const ::std::optional<at::Tensor>& found_inf = {});
}  // namespace at
H

# Files with CUDA-only code, and those with code for LibTorch 2.3+ (their #if names the macro).
mapfile -t files < <(grep -rlE --include='*.cpp' 'RLX_HAVE_TORCH_CUDA|RLX_HAVE_FUSED_SGD' engine host plotting | sort)
[ "${#files[@]}" -gt 0 ] || { echo "FAIL: no source file mentions RLX_HAVE_TORCH_CUDA (has the macro been renamed?)"; exit 1; }
fails=0
for f in "${files[@]}"; do
  # The file's compile command, without -o OUT and -c, as a NUL-separated argument list.
  if ! python3 - "$BUILD/compile_commands.json" "$SRC/$f" >"$BUILD/cuda-syntax.args" <<'PY'
import json, shlex, sys
entries = [e for e in json.load(open(sys.argv[1])) if e["file"] == sys.argv[2]]
if not entries:
    sys.exit(1)
e = entries[0]
args = e.get("arguments") or shlex.split(e["command"])
out, skip = [], False
for a in args:
    if skip: skip = False; continue
    if a == "-o": skip = True; continue
    if a in ("-c", sys.argv[2]): continue
    out.append(a)
sys.stdout.write("\0".join(out))
PY
  then
    echo "FAIL $f: not in compile_commands.json (is it built?)"; fails=$((fails + 1)); continue
  fi
  mapfile -d '' -t cmd <"$BUILD/cuda-syntax.args"
  if (cd "$BUILD" && "${cmd[0]}" -I"$STUB" -I"$CUDA_ROOT/include" "${cmd[@]:1}" -DRLX_HAVE_TORCH_CUDA=1 \
        -fsyntax-only "$SRC/$f") >"$BUILD/cuda-syntax.log" 2>&1; then
    echo "PASS $f"
  else
    echo "FAIL $f:"; grep -E 'error' "$BUILD/cuda-syntax.log" | head -20; fails=$((fails + 1))
  fi
done
echo "cuda syntax: ${#files[@]} files, $fails failed"
[ "$fails" -eq 0 ]
