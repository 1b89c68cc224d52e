#!/usr/bin/env bash
# check.sh: proves rlx on arm64 Linux on an x86-64 Debian 12 machine, by hand (not part of ctest:
# CI stays x86-64). One command, from the repository root:
#
#   scripts/arm64/check.sh            # everything below; exit 0 when every step passed
#
# 1. installs what it needs when missing (g++-aarch64-linux-gnu, qemu-user-static: root or sudo);
# 2. makes a sysroot of Debian 12's :arm64 packages (scripts/arm64/sysroot.sh) in
#    $RLX_ARM64_CACHE (default ~/.cache/rlx-arm64), reused on a rerun, and unpacks the pinned PyPI
#    torch's aarch64 wheel into it (scripts/arm64/torch-wheel.sh: its CPU libraries, and why);
# 3. cross-builds rlx and the unit tests there (cmake/toolchains/aarch64-linux-gnu.cmake), with
#    ccache when it is installed;
# 4. runs under qemu-aarch64-static: every unit-test binary (Catch2's summary line each), rlx
#    version, rlx env, rlx models resnet50 --layers, rlx peaks (qemu's figures: rlx names the
#    emulation), a tiny training run (resnet18, 32x32, batch 2, 2 iterations) and the smoke study
#    (experiments/all.lua, scale=smoke, models=resnet18) through to its report and `done in` line;
#    the study uses the peaks `rlx peaks` stored in its database (--db) rather than measuring again.
#
# rlx starts itself again (/proc/self/exe) to apply settings libraries read before main, so arm64
# programs must run without naming qemu: the script registers qemu-aarch64-static with the kernel's
# binfmt_misc (mounting it first if needed) when no handler is registered, and removes that
# registration at exit. QEMU_LD_PREFIX points qemu at the sysroot for every process.
# RLX_EMULATOR=qemu-user tells rlx it runs emulated, should it not see it itself (it does with
# qemu 7.2: docs/platforms.md). Output: $RLX_ARM64_CACHE/out (logs, the study's database, report).
# Steps can be chosen: RLX_ARM64_STEPS="build unit cli train study" (default: all of them).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
CACHE=${RLX_ARM64_CACHE:-$HOME/.cache/rlx-arm64}
BUILD=$CACHE/build
OUT=$CACHE/out
STEPS=" ${RLX_ARM64_STEPS:-build unit cli train study} "
mkdir -p "$CACHE" "$OUT"
T0=$(date +%s)
failures=()

say() { printf 'arm64: %s\n' "$*"; }
elapsed() { echo $(($(date +%s) - $1)); }
wants() { [[ $STEPS == *" $1 "* ]]; }

# ---- 1. tools ----
need=()
command -v aarch64-linux-gnu-g++ >/dev/null || need+=(g++-aarch64-linux-gnu)
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
command -v ninja >/dev/null || need+=(ninja-build)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  say "installing ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${need[@]}"
fi
say "$(aarch64-linux-gnu-g++ --version | head -1); $(qemu-aarch64-static --version | head -1)"

# ---- 2. sysroot ----
t=$(date +%s)
SYSROOT=$(nice -n 10 bash scripts/arm64/sysroot.sh "$CACHE" | tail -1)
export RLX_SYSROOT=$SYSROOT QEMU_LD_PREFIX=$SYSROOT RLX_EMULATOR=${RLX_EMULATOR:-}
# The pinned PyPI torch, its aarch64 wheel, inside the sysroot (its CPU part: torch-wheel.sh says why).
TORCH_CMAKE_DIR=$(nice -n 10 bash scripts/arm64/torch-wheel.sh "$CACHE" "$SYSROOT" | tail -1)
# An OPENBLAS_CORETYPE of this x86-64 host names no arm64 core: the arm64 OpenBLAS chooses its own.
unset OPENBLAS_CORETYPE
# The emulated arm64 rlx keeps its calibrations apart from this host's own rlx (another machine's
# figures, and perhaps another schema): ${XDG_CACHE_HOME}/rlx/calibrations.db under the cache.
export XDG_CACHE_HOME=$CACHE/xdg-cache
say "sysroot $SYSROOT with $(grep -E '^torch==' scripts/torch-requirements.txt) for aarch64 ($(elapsed "$t") s)"

# ---- 3. binfmt: arm64 programs run by the kernel through qemu (rlx's restarts, its children) ----
BINFMT=/proc/sys/fs/binfmt_misc
registered_here=""
cleanup() {
  if [ -n "$registered_here" ]; then echo -1 >"$BINFMT/$registered_here" 2>/dev/null || true; fi
}
trap cleanup EXIT
if ! grep -qs '^enabled' "$BINFMT/qemu-aarch64" 2>/dev/null; then
  [ -w "$BINFMT/register" ] || mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null || true
  if [ ! -w "$BINFMT/register" ]; then
    say "cannot register qemu-aarch64 with binfmt_misc (run as root, or register it: update-binfmts --enable)"
    exit 1
  fi
  # Debian's own registration (qemu-user-static's /usr/lib/binfmt.d/qemu-aarch64.conf: flags
  # O, P and F: the interpreter opened now, so it works whatever the process's file system view).
  grep -v '^#' /usr/lib/binfmt.d/qemu-aarch64.conf | head -1 >"$BINFMT/register"
  registered_here=qemu-aarch64
  say "registered qemu-aarch64-static with binfmt_misc for this check (removed at exit)"
fi

# ---- 4. cross-build ----
tests=()
for d in tests/unit/*/; do
  compgen -G "$d*.cpp" >/dev/null && tests+=("rlx_test_$(basename "$d")")
done
if wants build; then
  t=$(date +%s)
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  nice -n 10 cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/toolchains/aarch64-linux-gnu.cmake" -DRLX_ENABLE_CUPTI=OFF \
    -DTorch_DIR="$TORCH_CMAKE_DIR" -DRLX_TORCH_CPU_ONLY=ON \
    "${launcher[@]}" >"$OUT/configure.log" 2>&1 || { tail -30 "$OUT/configure.log"; exit 1; }
  nice -n 10 cmake --build "$BUILD" -j "${RLX_ARM64_JOBS:-2}" --target rlx "${tests[@]}" >"$OUT/build.log" 2>&1 ||
    { grep -m 20 -B 2 -A 10 'error' "$OUT/build.log"; exit 1; }
  say "cross-built rlx and ${#tests[@]} unit-test programs ($(elapsed "$t") s): $(file -b "$BUILD/rlx" | cut -d, -f1-2)"
fi
RLX=$BUILD/rlx
[ -x "$RLX" ] || { say "no $RLX: run with the build step"; exit 1; }

# run NAME LIMIT_S CMD...: runs an arm64 command (through binfmt), its output in $OUT/NAME.log;
# prints the last lines and the time; records a failure.
run() {
  local name=$1 limit=$2 t rc=0
  shift 2
  t=$(date +%s)
  timeout "$limit" "$@" >"$OUT/$name.log" 2>&1 || rc=$?
  if [ $rc -ne 0 ]; then
    local why="exit $rc"
    [ $rc -eq 124 ] && why="over its ${limit} s limit"
    failures+=("$name: $why")
    say "FAILED $name (exit $rc, $(elapsed "$t") s): last lines of $OUT/$name.log:"
    tail -15 "$OUT/$name.log" | sed 's/^/    /'
  fi
  return 0
}

# ---- 5. unit tests under qemu ----
if wants unit; then
  t=$(date +%s)
  export RLX_TEST_TMP=$BUILD/test-tmp
  mkdir -p "$RLX_TEST_TMP"
  for tst in "${tests[@]}"; do
    bin=$(find "$BUILD/tests" -maxdepth 2 -name "$tst" -type f | head -1)
    s=$(date +%s)
    run "unit-$tst" "${RLX_ARM64_TEST_LIMIT:-1800}" "$bin"
    summary=$(grep -E '^(All tests passed|test cases:)' "$OUT/unit-$tst.log" | tail -1 || true)
    printf 'arm64:   %-22s %5d s  %s\n' "$tst" "$(elapsed "$s")" "${summary:-no summary (see $OUT/unit-$tst.log)}"
  done
  say "unit tests under qemu ($(elapsed "$t") s)"
fi

# ---- 6. the CLI, peaks and a training run under qemu ----
# With the study step, `rlx peaks` stores its figures in the study's database (--db, as docs/cli.md
# shows for any machine): the smoke study then finds this environment's peaks and does not measure
# them again (study:ensure_peaks). Under qemu on a 2-core host one measurement takes 20-25 min.
STUDY_DB=$OUT/study/results/p1-roofline.db
if wants study; then
  rm -rf "$OUT/study"
  mkdir -p "$OUT/study/results"
fi
if wants cli; then
  t=$(date +%s)
  run version 300 "$RLX" version
  run env 300 "$RLX" env
  run models 600 "$RLX" models resnet50 --layers
  peaks_db=()
  wants study && peaks_db=(--db "$STUDY_DB")
  run peaks 2400 "$RLX" peaks "${peaks_db[@]}"
  for f in version env peaks; do
    say "rlx $f:"
    sed 's/^/    /' "$OUT/$f.log" | head -80
  done
  say "rlx models resnet50 --layers: $(wc -l <"$OUT/models.log") lines; first and last:"
  { head -5 "$OUT/models.log"; echo "    ..."; tail -3 "$OUT/models.log"; } | sed 's/^/    /'
  say "CLI and peaks under qemu ($(elapsed "$t") s)"
fi
if wants train; then
  t=$(date +%s)
  run train 1800 "$RLX" train --model resnet18 --input 32 --batch-size 2 --iters 2 --warmup-iters 1 \
    --classes 10
  say "rlx train (resnet18, 32x32, batch 2, 2 iterations), $(elapsed "$t") s:"
  sed 's/^/    /' "$OUT/train.log" | tail -25
fi

# ---- 7. the smoke study, through to its report ----
if wants study; then
  t=$(date +%s)
  pushd "$OUT/study" >/dev/null
  run study 7200 "$RLX" run "$ROOT/experiments/all.lua" --set scale=smoke --set models=resnet18
  popd >/dev/null
  sed 's/^/    /' "$OUT/study.log" | tail -30
  say "smoke study ($(elapsed "$t") s): $(grep -E '^done in' "$OUT/study.log" || echo 'no done-in line')"
  ls "$OUT/study" "$OUT/study/results" 2>/dev/null | sed 's/^/    /'
fi

say "total $(elapsed "$T0") s; logs in $OUT"
if [ ${#failures[@]} -gt 0 ]; then
  say "failed: ${failures[*]}"
  exit 1
fi
say "every step passed"
