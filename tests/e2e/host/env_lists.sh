#!/usr/bin/env bash
# experiments/all.lua takes an environment's batch sizes and precisions from experiments/<label>.lua
# (issue 16 item 5): a copy of experiments/ with one more 1-line environment file, planned with
# --dry-run; then a label whose file is for another device kind (rtx4090 on this CPU) falls back to
# cpu.lua, and a label with no file at all does too.
set -eu
rlx=$1
tmp=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/env_lists.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp -r "$RLX_SOURCE_DIR/experiments" "$tmp/experiments"
printf 'return {kind = "cpu", batch = {8}, precision = {"fp32"}}\n' >"$tmp/experiments/tiny.lua"
out=$("$rlx" run "$tmp/experiments/all.lua" --dry-run --set scale=smoke --set label=tiny --set db="$tmp/t.db" 2>&1)
echo "$out" | grep -q "batch sizes and precisions from experiments/tiny.lua" || { echo "$out"; exit 1; }
# 3 models x batch 8 x fp32 x 2 repeats (smoke) = 6 runs.
echo "$out" | grep -q "environment tiny: 6 runs in the matrix" || { echo "$out"; exit 1; }
# 3 models x batch 16/32/64 x fp32/bf16 x 2 repeats = 36 runs on every CPU: precision= is given, so
# bf16 stays in where it is emulated too.
for label in rtx4090 nosuchenv; do
  out=$("$rlx" run "$tmp/experiments/all.lua" --dry-run --set scale=smoke --set label=$label --set db="$tmp/$label.db" \
    --set precision=fp32,bf16 2>&1)
  echo "$out" | grep -q "batch sizes and precisions from experiments/cpu.lua" || { echo "$out"; exit 1; }
  echo "$out" | grep -q "environment $label: 36 runs in the matrix" || { echo "$out"; exit 1; }
done
echo ok
