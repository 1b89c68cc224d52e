#!/usr/bin/env bash
# framework_pair.sh RLX TMP: two databases from one machine that differ only in their LibTorch (issue
# 51): tests/fixtures/studies/torch-2.15-smoke.db and torch-1.13-smoke.db, the same tiny study
# (framework_pair.lua) run on one 2-core EPYC Zen 5 by rlx built against PyPI's torch 2.15.0 and by
# rlx built against Debian's 1.13 (RLX_TORCH_DIR=/usr). `rlx report A.db B.db` keeps them two
# environments, as it keeps two machines: each named by its label and the torch version that tells
# them apart, each with its framework in the Python/Torch cell, and the cross-environment ratios
# between them named by those names.
set -euo pipefail
rlx=$1
d=$2/report_framework_pair
rm -rf "$d" && mkdir -p "$d"
F=tests/fixtures/studies
cp "$F/torch-2.15-smoke.db" "$d/new.db"
cp "$F/torch-1.13-smoke.db" "$d/old.db"
"$rlx" report "$d/old.db" "$d/new.db" --out "$d/out" --quiet 2>/dev/null
md=$d/out/report.md
has() { grep -qF -- "$1" "$2" || { echo "FAIL: $2 lacks: $1"; exit 1; }; }
# The two environments, told apart by the one field that differs.
has 'epyc-2c [torch 1.13.0]' "$md"
has 'epyc-2c [torch 2.15.0]' "$md"
# Each framework in the Python/Torch cell (seed 001's environment table), as rlx recorded it.
has 'no Python; LibTorch 2.15.0 (d0f2af8b66b2), CUDA 13.2, cuDNN 9.26.0, NCCL 2.30.7, oneDNN 3.13.3, MKL 2024.2 (Intel-compatible path: not an Intel CPU), ATen CPU kernels AVX512' "$md"
has 'no Python; LibTorch 1.13.0, oneDNN 2.6.3, OpenBLAS 0.3.21 (Haswell), ATen CPU kernels AVX2' "$md"
# §6.2's cross-environment rows, named by what differs. Batch 4: 1.13 ran 141.64 and 137.01 images/s
# (mean 139.33), 2.15 ran 133.47 and 138.30 (mean 135.89): 139.33 / 135.89 = 1.025 -> 1.03x. Batch 8:
# (246.77 + 236.85) / 2 = 241.81 against (232.78 + 240.74) / 2 = 236.76: 1.021 -> 1.02x.
has '| resnet18 | fp32 | 4 | epyc-2c \[torch 1.13.0\] / epyc-2c \[torch 2.15.0\] | 139 (2;' "$md"
has '| 1.03× (95% CI [' "$md"
has '| resnet18 | fp32 | 8 | epyc-2c \[torch 1.13.0\] / epyc-2c \[torch 2.15.0\] | 242 (2;' "$md"
has '| 1.02× (95% CI [' "$md"
# Neither input was written to.
cmp -s "$F/torch-2.15-smoke.db" "$d/new.db" && cmp -s "$F/torch-1.13-smoke.db" "$d/old.db" ||
  { echo "FAIL: rlx report changed an input database"; exit 1; }
echo "framework pair report ok"
