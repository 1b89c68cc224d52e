#!/usr/bin/env bash
# lazy_torch.sh RLX: LibTorch is loaded on first use (issue 47; engine/libtorch/tensor_library.h).
# Commands and scripts that never touch a tensor do not load it (the dynamic loader's own trace,
# LD_DEBUG=files, names every library a process loads); the first tensor does, from
# librlx_torch.so beside the executable, also for a copy of the binary elsewhere (with the library
# copied beside it) and through a symbolic link; without the library the first tensor is a one-line
# error naming the file and the fix, and everything else still works.
set -u
RLX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/lazy.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
src=$(cd "$(dirname "$0")/../../.." && pwd)
cp "$src/tests/fixtures/studies/epyc-2c-study.db" "$tmp/study.db"
# loads BIN ARGS...: "yes" when the process (or its supervised child) loaded LibTorch, else "no".
loads() {
  LD_DEBUG=files "$@" >"$tmp/out" 2>"$tmp/trace" || { cat "$tmp/out" "$tmp/trace" | tail -5; return 1; }
  if grep -q 'file=.*libtorch_cpu' "$tmp/trace"; then echo yes; else echo no; fi
}
[ "$(loads "$RLX" --help)" = no ] || fail "rlx --help loaded LibTorch"
[ "$(loads "$RLX" runs "$tmp/study.db")" = no ] || fail "rlx runs DB loaded LibTorch"
[ "$(loads "$RLX" -e 'print(1)')" = no ] || fail "rlx -e 'print(1)' loaded LibTorch"
[ "$(loads "$RLX" -e 'print(rlx.version and rlx._core.host.versions().torch)')" = no ] ||
  fail "the build's versions loaded LibTorch"
[ "$(loads "$RLX" models)" = no ] || fail "rlx models loaded LibTorch"
[ "$(loads "$RLX" -e 'rlx.devices()')" = yes ] || fail "rlx.devices() did not load LibTorch"
[ "$(loads "$RLX" version)" = yes ] || fail "rlx version did not load LibTorch (it lists the GPUs and the BLAS)"
# It is the one beside the executable.
"$RLX" -e 'rlx.devices() for l in io.lines("/proc/self/maps") do if l:find("librlx_torch.so", 1, true) then
  print(l:match("(%S+)$")) break end end' >"$tmp/maps" || fail "rlx.devices()"
[ "$(cat "$tmp/maps")" = "$(dirname "$RLX")/librlx_torch.so" ] || fail "loaded $(cat "$tmp/maps")"

# A copy of the binary elsewhere: everything but the tensors works without the library, and the
# first tensor says what is missing; with the library beside it, all works.
mkdir -p "$tmp/bin" "$tmp/link"
cp "$RLX" "$tmp/bin/rlx"
[ "$("$tmp/bin/rlx" -e 'print(6 * 7)')" = 42 ] || fail "a copy without the library cannot run Lua"
got=$("$tmp/bin/rlx" -e 'rlx.devices()' 2>&1); rc=$?
[ "$rc" = 1 ] || fail "a copy without the library: exit $rc"
[[ "$got" == *"rlx.train.devices: cannot load rlx's LibTorch part $tmp/bin/librlx_torch.so: "*"(it is built beside the rlx binary: copy it next to the binary you run, or rebuild with cmake --build build)"* ]] ||
  fail "a copy without the library: $got"
# The commands say it in one line and exit 1, a failure, not 2, a usage error (issue 56 item 7).
got=$("$tmp/bin/rlx" train --model resnet18 --iters 1 2>&1); rc=$?
[ "$rc" = 1 ] || fail "rlx train without the library: exit $rc"
[ "$(printf '%s\n' "$got" | wc -l)" = 1 ] || fail "rlx train without the library: more than one line: $got"
got=$("$tmp/bin/rlx" version 2>&1); rc=$?
[ "$rc" = 1 ] || fail "rlx version without the library: exit $rc"
[[ "$got" == "rlx version: cannot load rlx's LibTorch part $tmp/bin/librlx_torch.so: "* ]] ||
  fail "rlx version without the library: $got"
# An empty file in its place is no shared library: said so, not blamed on LibTorch.
: >"$tmp/bin/librlx_torch.so"
got=$("$tmp/bin/rlx" train --model resnet18 --iters 1 2>&1); rc=$?
[ "$rc" = 1 ] || fail "an empty library: exit $rc"
[ "$got" = "rlx train: cannot load rlx's LibTorch part $tmp/bin/librlx_torch.so: it is not a shared library (empty or damaged): rebuild with cmake --build build, or copy the librlx_torch.so built with this rlx beside it" ] ||
  fail "an empty library: $got"
cp "$(dirname "$RLX")/librlx_torch.so" "$tmp/bin/"
[ "$("$tmp/bin/rlx" -e 'print(#rlx.devices() >= 1)')" = true ] || fail "a copy with the library beside it"
# A library from another build (issue 53: the ABI stamp is a hash of the boundary's headers): refused
# in one line naming both stamps and the fix, before anything of it is called.
if command -v cc >/dev/null; then
  mkdir -p "$tmp/stale"
  cp "$RLX" "$tmp/stale/rlx"
  printf 'struct lib { unsigned long long abi; } stale = {1};\nconst struct lib* rlx_tensor_library(void) { return &stale; }\n' \
    >"$tmp/stale/stale.c"
  cc -shared -fPIC -o "$tmp/stale/librlx_torch.so" "$tmp/stale/stale.c" || fail "cannot build the stale library"
  got=$("$tmp/stale/rlx" -e 'rlx.devices()' 2>&1); rc=$?
  [ "$rc" = 1 ] || fail "a stale library: exit $rc"
  [[ "$got" =~ "rlx.train.devices: cannot load rlx's LibTorch part $tmp/stale/librlx_torch.so: its ABI stamp is 0000000000000001, this rlx's "[0-9a-f]{16}": it is from another build of rlx; rebuild both with cmake --build build, or copy the librlx_torch.so built with this rlx beside it"$ ]] ||
    fail "a stale library: $got"
fi
# A symbolic link finds the library beside the file it points to (/proc/self/exe).
ln -s "$RLX" "$tmp/link/rlx"
[ "$("$tmp/link/rlx" -e 'print(#rlx.devices() >= 1)')" = true ] || fail "through a symbolic link"
echo ok
