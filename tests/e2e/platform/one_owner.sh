#!/usr/bin/env bash
# one_owner.sh: the platform rule of docs/architecture.md: intrinsics headers, architecture macros
# and x86 builtins appear only in engine/platform/ and the peaks' kernel files named for their
# architecture (plus the two dispatch files' stubs for a build on neither). Prints offenders.
set -u
cd "$(dirname "$0")/../../.."
allowed='^(engine/platform/|engine/peaks/cpu_kernels(_bf16)?(_x86|_arm64)?\.cpp:)'
hits=$(grep -rnE '__x86_64__|__aarch64__|__i386__|immintrin\.h|arm_neon\.h|arm_sve\.h|__builtin_ia32_|__builtin_cpu_(init|supports)' \
  engine host plotting tests/unit bench --include='*.cpp' --include='*.h' | grep -vE "$allowed")
if [ -n "$hits" ]; then
  echo "architecture-specific code outside the platform files:"
  echo "$hits"
  exit 1
fi
# Each architecture's kernel file is guarded whole: its first preprocessor line is the #if.
for f in engine/peaks/cpu_kernels_x86.cpp engine/peaks/cpu_kernels_bf16_x86.cpp; do
  first=$(grep -m1 '^#' "$f")
  [ "$first" = "#if defined(__x86_64__)" ] || { echo "$f: first directive is '$first', not the x86-64 guard"; exit 1; }
done
for f in engine/peaks/cpu_kernels_arm64.cpp engine/peaks/cpu_kernels_bf16_arm64.cpp; do
  first=$(grep -m1 '^#' "$f")
  [ "$first" = "#if defined(__aarch64__)" ] || { echo "$f: first directive is '$first', not the arm64 guard"; exit 1; }
done
echo "ok"
