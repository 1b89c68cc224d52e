#!/usr/bin/env bash
# arm64_report.sh RLX TMPDIR: the report of a study an arm64 rlx ran (issue 44), from the database
# scripts/arm64/check.sh's smoke study wrote under qemu-aarch64 (tests/fixtures/studies/
# qemu-arm64-smoke.db: resnet18, 32x32, batch 16/32/64, fp32, 2 repeats, 2026-11-29, rlx 60a7d8b;
# docs/platforms.md), alone and beside an x86-64 machine's study (h200-default-study.db, an H200
# on a Xeon host). The report must name each environment's architecture and ISA and say that the
# arm64 one was emulated: its figures are qemu's, not an arm64 CPU's.
set -euo pipefail
RLX=$1
T="$2/platform_arm64_report"
rm -rf "$T" && mkdir -p "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
has() { grep -qF -- "$1" "$2" || fail "$2 lacks: $1"; }
F=tests/fixtures/studies
cp "$F/qemu-arm64-smoke.db" "$F/h200-default-study.db" "$T/"
arm=$T/qemu-arm64-smoke.db
x86=$T/h200-default-study.db
before=$(sha256sum "$arm" "$x86")

# The environment table's row, as rlx captured the emulated machine (rlx env under qemu-user:
# /proc/cpuinfo was the x86-64 host's, so rlx named the CPU by the emulator, and the ISA from the
# hwcaps qemu's max CPU gives: SVE2 at 512 bits, NEON, BFDOT and BFMMLA).
ARM_DEVICE='| emulated arm64 CPU (qemu-user), 2 cores, 2 threads, 25 GB, arm64 SVE2 (512-bit) + NEON, bf16 (BFDOT, BFMMLA), emulated by qemu-user |'
# The H200's environment was captured before rlx recorded the ISA: the architecture alone.
X86_DEVICE='| NVIDIA H200, 151 GB; x86-64 |'
# bf16 was left out by the plan with the trainer's own refusal (LibTorch 1.13 on an arm64 CPU with
# bf16), and the report says so.
LEFT_OUT="**Left out by the plan:** bf16 left out: precision 'bf16' cannot train on this CPU with LibTorch 1.13.0"

# --- Alone --------------------------------------------------------------------------------------
"$RLX" report "$arm" --out "$T/alone" --quiet 2>/dev/null
md=$T/alone/report.md
has 'Environments: qemu-arm64-2c' "$md"
has '| qemu-arm64-2c \[emulated\] | vm | Debian GNU/Linux 12 (bookworm) / ' "$md"
has "$ARM_DEVICE" "$md"
has "$LEFT_OUT" "$md"
[ -s "$T/alone/report.html" ] || fail "no report.html"
# Issue 55: emulation marked wherever its numbers appear, and never a finding. Table 2's bound cell,
# the peaks (qemu's FMA 0.232 < GEMM 0.383 GFLOP/s contradict each other: an emulator's figures),
# the abstract, §8's scale line, the figures' names.
has '| 2.10 ± 0.10 † | 1.17–3.04 (±44.4 %) | 0.474 ± 0.023 † | 8.16–8.44 | none (emulated) |' "$md"
has '| qemu-arm64-2c \[emulated\] | cpu | fp32_gflops (emulator'"'"'s figure, not comparable) | fp32 roof | 0.2321 GFLOP/s |' "$md"
has '**qemu-arm64-2c \[emulated\]: the emulator'"'"'s figures, not comparable.** Its peaks and every rate measured there are those of qemu-user running on AMD EPYC' "$md"
has 'qemu-arm64-2c \[emulated\] ran under an emulator: its numbers are the emulator'"'"'s figures, not comparable, and none of them counts among the findings' "$md"
has '- Scale: 32x32 synthetic images (6 runs, on qemu-arm64-2c \[emulated\]: emulated, the emulator'"'"'s figures, not comparable).' "$md"
[ -f "$T/alone/figures/roofline_qemu-arm64-2c__emulated_.png" ] || fail "no roofline figure named for the emulated environment"
if grep -q 'compute-bound\|memory-bound' <(sed -n '/^## Abstract/,/^---/p' "$md"); then fail "the abstract counts emulated points as findings"; fi

# --- Beside the H200: merged into one database, and (where rlx report takes several) as two ------
"$RLX" merge --quiet "$T/merged.db" "$arm" "$x86"
"$RLX" report "$T/merged.db" --all-studies --out "$T/merged" --quiet 2>/dev/null
outs=("$T/merged")
if "$RLX" report --help | head -1 | grep -qF 'DB...'; then
  "$RLX" report "$arm" "$x86" --out "$T/both" --quiet 2>/dev/null
  outs+=("$T/both")
fi
for out in "${outs[@]}"; do
  md=$out/report.md
  has 'Environments: h200, qemu-arm64-2c' "$md"
  has "$ARM_DEVICE" "$md"
  has "$X86_DEVICE" "$md"
  grep -qF '| qemu-arm64-2c \[emulated\] | resnet18 | fp32 | 16 |' "$md" || fail "$md lacks the arm64 runs"
  grep -q '^| h200 | resnet50 | fp32 | 64 |' "$md" || fail "$md lacks the H200's runs"
  [ -s "$out/report.html" ] || fail "no $out/report.html"
done

[ "$before" = "$(sha256sum "$arm" "$x86")" ] || fail "a report changed its input databases"
echo "ok: ${#outs[@]} merged report(s)"
