#!/usr/bin/env bash
# by_hand.sh RLX: docs/scale-out.md's recovery by hand, without a cluster. A fake sbatch accepts
# the submission (job ids 4242 and 4243) and runs nothing, a fake squeue lists nothing; then each
# shard is run by hand (rlx shard run MANIFEST TASK) and collected (rlx shard collect MANIFEST):
# the study holds the 8 runs, ok, without Slurm ids; rlx status says 8 done; collecting again adds
# nothing.
RLX=${1:?usage: by_hand.sh RLX}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
RLX=$(cd "$(dirname "$RLX")" && pwd)/$(basename "$RLX")
W=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/slurm-by-hand.XXXXXX")
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/bin"
cat >"$W/bin/sbatch" <<'SH'
#!/bin/sh
n=$(cat "$(dirname "$0")/next" 2>/dev/null || echo 4242)
echo $((n + 1)) >"$(dirname "$0")/next"
echo "$@" >>"$(dirname "$0")/sbatch.log"
echo "$n"
SH
printf '#!/bin/sh\nexit 0\n' >"$W/bin/squeue"
chmod +x "$W/bin/sbatch" "$W/bin/squeue"
export PATH="$W/bin:$PATH"
unset SLURM_JOB_ID SLURM_ARRAY_JOB_ID SLURM_ARRAY_TASK_ID SLURMD_NODENAME
cd "$W"
fails=0
check() { if eval "$2"; then echo "PASS $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }
sql() { sqlite3 -batch -noheader "$@"; }

"$RLX" submit "$SRC/tests/slurm/study.lua" --set db=results/study.db --tasks 2 --partition cpu >submit.txt 2>&1
check "rlx submit with a fake sbatch" 'grep -q "8 slots in job array 4242 (2 tasks), collect job 4243 (afterany:4242)" submit.txt'
check "sbatch got the array, then the collect job depending on it" \
  '[ "$(sed -n 1p bin/sbatch.log)" = "--parsable $(ls -d "$W"/results/shards/study/*/)task.sbatch" ] &&
   [ "$(sed -n 2p bin/sbatch.log)" = "--parsable --dependency=afterany:4242 $(ls -d "$W"/results/shards/study/*/)collect.sbatch" ]'
M=$(ls "$W"/results/shards/study/*/manifest.json)
"$RLX" status results/study.db >status0.txt
check "rlx status before any task ran: 8 missing (squeue lists nothing)" \
  'grep -q "8 slots submitted: 0 done, 0 running, 0 pending, 0 failed, 8 missing" status0.txt'
"$RLX" shard run "$M" 0 >task0.txt 2>&1 && "$RLX" shard run "$M" 1 >task1.txt 2>&1
check "both shards run by hand" '[ $? -eq 0 ] && [ -f "$(dirname "$M")/task-0.db" ] && [ -f "$(dirname "$M")/task-1.db" ]'
# A shard trains as `rlx run` does: the same start-up (its OpenMP waiting chosen from the load),
# recorded in each run's result (issue 47: a shard used to skip it).
startup=$(sql "$(dirname "$M")/task-0.db" "SELECT DISTINCT json_extract(result, '\$.startup.command'),
  json_extract(result, '\$.startup.trains'), json_extract(result, '\$.startup.openmp_wait.choice') IN
  ('libgomp_default', 'short_spin', 'load_unknown') FROM runs")
check "a shard's runs record the start-up of a training command" '[ "$startup" = "shard|1|1" ]'
"$RLX" shard collect "$M" >collect.txt 2>&1
check "collect by hand: 8 ok runs, figures, report" \
  'grep -q "study slurm-test has 8 runs (8 ok), 0 before" collect.txt && ls figures/*.png >/dev/null 2>&1 && [ -s report/report.md ]'
check "runs by hand carry no Slurm ids" \
  '[ "$(sql results/study.db "SELECT count(*) FROM runs WHERE slurm_job_id IS NULL AND node IS NULL AND status = '"'ok'"'")" = 8 ]'
"$RLX" status results/study.db >status1.txt
check "rlx status: 8 done" 'grep -q "8 slots submitted: 8 done, 0 running, 0 pending, 0 failed, 0 missing" status1.txt'
"$RLX" shard collect "$M" >collect2.txt 2>&1
check "collecting again adds nothing" 'grep -q "study slurm-test has 8 runs (8 ok), 8 before" collect2.txt'
"$RLX" shard run "$M" 2 >task2.txt 2>&1
check "a task that is not in the submission is a usage error" '[ $? -eq 2 ] && grep -q "task 2 is not in this submission (0-1)" task2.txt'
echo "slurm by hand: $fails failed"
[ "$fails" -eq 0 ]
