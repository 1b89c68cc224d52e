#!/usr/bin/env bash
# one_libtorch.sh BUILD_DIR: nothing is built against two LibTorch versions at once (issue 51).
# build/librlx_torch.so must resolve every LibTorch library (libtorch*, libc10*) from one folder, the
# one the build was configured against (CMakeCache's Torch_DIR), and the rlx executable none:
# it loads the library on first use. A second LibTorch on the system (Debian's libtorch-dev in
# /usr/lib) is exactly what this catches.
set -u
BUILD=${1:?BUILD_DIR}
lib="$BUILD/librlx_torch.so"
[ -f "$lib" ] || { echo "FAIL: no $lib"; exit 1; }
# The library folder of the Torch CMake package the build was configured with (Torch_DIR):
# TorchConfig.cmake sits in <prefix>/share/cmake/Torch, its libraries in <prefix>/lib (Debian's
# lib/<triplet>/cmake/Torch keeps them in lib/<triplet>).
torch_dir=$(sed -n 's/^Torch_DIR:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
want_dir=$(readlink -f "$torch_dir/../../../lib")
[ -d "$want_dir" ] || want_dir=$(readlink -f "$torch_dir/../..")
fails=0
resolved=$(ldd "$lib" | awk '$1 ~ /^lib(torch|c10)/ {print $1, $3}')
echo "$resolved"
if grep -q 'not found' <<<"$resolved" || [ -z "$resolved" ]; then
  echo "FAIL: librlx_torch.so does not resolve its LibTorch libraries"; fails=$((fails + 1))
fi
dirs=$(awk '{print $2}' <<<"$resolved" | xargs -r -n1 readlink -f | xargs -r -n1 dirname | sort -u)
if [ "$(wc -l <<<"$dirs")" != 1 ] || [ "$dirs" != "$want_dir" ]; then
  echo "FAIL: LibTorch resolved from [$(tr '\n' ' ' <<<"$dirs")], configured against $want_dir"; fails=$((fails + 1))
else
  echo "PASS: one LibTorch, from $want_dir"
fi
for name in libtorch_cpu.so libc10.so; do
  n=$(awk -v n="$name" '$1 == n' <<<"$resolved" | wc -l)
  [ "$n" = 1 ] || { echo "FAIL: $name resolved $n times"; fails=$((fails + 1)); }
done
if ldd "$BUILD/rlx" | grep -qE '^\s*lib(torch|c10)'; then
  echo "FAIL: the rlx executable links LibTorch (it must load it on first use)"; fails=$((fails + 1))
else
  echo "PASS: rlx links no LibTorch"
fi
exit $((fails > 0))
