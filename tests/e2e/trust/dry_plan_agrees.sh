#!/usr/bin/env bash
# dry_plan_agrees.sh RLX DB: the dry run's plan line and its sweep keep the same runs. The plan
# counts the calibration a real run will make (from the priors); the sweep's budget must leave
# the same time out, or it keeps a run the plan left out.
set -u
rm -f "$2"
out=$("$1" run experiments/all.lua --dry-run --set "db=$2" --set devices=cpu) || { echo "FAIL: exit $?"; exit 1; }
# "N runs (M left out for the budget)" or, when the budget keeps every run, "N runs" (M = 0).
plan=$(sed -n -e 's/^plan: \([0-9]*\) runs (\([0-9]*\) left out for the budget).*/\1 \2/p' \
  -e 's/^plan: \([0-9]*\) runs;.*/\1 0/p' <<<"$out")
sweep=$(sed -n -e 's/^dry run: \([0-9]*\) to run, [0-9]* skipped, \([0-9]*\) left out for the budget.*/\1 \2/p' \
  -e 's/^dry run: \([0-9]*\) to run, [0-9]* skipped;.*/\1 0/p' <<<"$out")
# The three models in fp32, and in bf16 too where the CPU computes it natively (a Sapphire Rapids
# host: experiments/cpu.lua's precisions are then both probed, whether or not bf16 fits the budget).
if grep -qwE 'avx512_bf16|amx_bf16' /proc/cpuinfo; then models="3 models in 2 precisions \(6 probes\)"; else models="3 models"; fi
grep -qE "^plan: a dry run calibrates nothing: $models not yet calibrated" <<<"$out" ||
  { echo "FAIL: no calibration line naming $models"; exit 1; }
[ -n "$plan" ] && [ "$plan" = "$sweep" ] || { echo "FAIL: plan '$plan' vs sweep '$sweep'"; exit 1; }
echo ok
