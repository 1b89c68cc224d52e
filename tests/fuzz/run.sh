#!/usr/bin/env bash
# run.sh FUZZER CORPUS SECONDS [DICT]: runs a libFuzzer target for SECONDS over a copy of the seed
# corpus (the checked-in corpus is never written), memory capped, with the target's dictionary of
# tokens when it has one; prints the executions and exits non-zero on a finding (the crashing
# input is kept under the test's scratch directory and named).
set -u
fuzzer=$1 corpus=$2 seconds=$3 dict=${4:-}
work=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/fuzz.XXXXXX")
mkdir -p "$work/corpus"
cp -r "$corpus"/. "$work/corpus/"
cd "$work"
"$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 ${dict:+-dict="$dict"} \
  -artifact_prefix="$work/" "$work/corpus" >"$work/log" 2>&1
rc=$?
grep -E "^(Done|stat::number_of_executed_units)" "$work/log"
if [ $rc -ne 0 ]; then
  tail -40 "$work/log"
  echo "finding kept in $work (add the input to tests/fuzz/corpus as a regression case)"
  exit 1
fi
rm -rf "$work"
