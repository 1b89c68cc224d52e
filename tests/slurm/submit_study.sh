#!/usr/bin/env bash
# submit_study.sh RLX: `rlx submit` of a small study (2 models x 2 batch sizes x 2 repeats, CPU,
# 32x32) as 4 array tasks on a real single-node Slurm cluster (planned on the node with srun;
# environment label = the partition), waited for with a bounded timeout.
# Then the study database holds the 8 runs, all ok, each with its Slurm job id, array task id and
# node; the figures and the report exist; integrity_check is ok;
# rlx status says 8 done; and submitting again submits nothing. Exit 77 when no cluster can start.
RLX=${1:?usage: submit_study.sh RLX}
source "$(dirname "$0")/common.sh"

"$RLX" submit "$SRC/tests/slurm/study.lua" --set db=results/study.db --tasks 4 --figures figures --report report \
  --partition debug --plan-on-node >submit1.txt 2>&1
check "rlx submit exits 0" '[ $? -eq 0 ]'
cat submit1.txt | grep '^submit:'
M=$(latest_manifest)
ARRAY=$(manifest_field "$M" array_job) COLLECT=$(manifest_field "$M" collect_job)
check "the plan made on the node (srun) printed as the dry run prints it, then 8 slots submitted" \
  'grep -q "study slurm-test (results/study.db), environment debug: 8 runs in the matrix" submit1.txt && grep -q "8 slots planned, 0 stored ok, 0 queued in earlier submissions, 8 to submit" submit1.txt'
check "one array of 4 tasks and a collect job depending on it (afterany)" \
  'grep -q "#SBATCH --array=0-3" "$(dirname "$M")/task.sbatch" && [ -n "$COLLECT" ] &&
   scontrol show job "$COLLECT" | grep -q "Dependency=afterany:${ARRAY}"'
wait_gone 240 "$ARRAY" "$COLLECT"
check "array and collect job finished within 240 s" '[ $? -eq 0 ]'

DB=results/study.db
check "the study database holds 8 runs, all ok" \
  '[ "$(sql "$DB" "SELECT count(*), sum(status = '"'ok'"') FROM runs WHERE study = '"'slurm-test'"'")" = "8|8" ]'
check "all under the environment label debug (the partition)" \
  '[ "$(sql "$DB" "SELECT DISTINCT e.label FROM runs r JOIN environments e ON e.id = r.environment_id")" = debug ]'
check "8 distinct slots (labels)" '[ "$(sql "$DB" "SELECT count(DISTINCT label) FROM runs")" = 8 ]'
check "each shard database holds its task's 2 runs" \
  '[ "$(for f in "$(dirname "$M")"/task-*.db; do sql "$f" "SELECT count(*) FROM runs WHERE status = '"'ok'"'"; done | tr "\n" " ")" = "2 2 2 2 " ]'
check "every run records the array job id, its task id (0-3, 2 runs each) and the node" \
  '[ "$(sql "$DB" "SELECT slurm_job_id, slurm_array_task_id, node, count(*) FROM runs GROUP BY 1, 2, 3 ORDER BY 2" | tr "\n" " ")" = \
     "$ARRAY|0|rlxnode|2 $ARRAY|1|rlxnode|2 $ARRAY|2|rlxnode|2 $ARRAY|3|rlxnode|2 " ]'
check "pragma integrity_check is ok" '[ "$(sql "$DB" "PRAGMA integrity_check")" = ok ]'
check "figures drawn by the collect job" 'ls figures/*.png >/dev/null 2>&1 && grep -q "collect: [1-9][0-9]* figures of slurm-test" "$(dirname "$M")/logs/collect.out"'
check "report written by the collect job (report.md, report.html, its figures)" \
  '[ -s report/report.md ] && [ -s report/report.html ] && ls report/figures/*.png >/dev/null 2>&1 &&
   grep -q "collect: report of slurm-test: .*/report/report.html" "$(dirname "$M")/logs/collect.out"'
check "the report counts the 8 runs" 'grep -q "(study slurm-test; 8 runs: 8 ok, 0 failed)" report/report.md'
"$RLX" status "$DB" >status.txt
check "rlx status: 8 slots, 8 done" 'grep -q "8 slots submitted: 8 done, 0 running, 0 pending, 0 failed, 0 missing" status.txt'
"$RLX" submit "$SRC/tests/slurm/study.lua" --set db=results/study.db --tasks 4 --partition debug >submit2.txt 2>&1
check "submitting again submits nothing" \
  'grep -q "8 slots planned, 8 stored ok, 0 queued in earlier submissions, 0 to submit" submit2.txt &&
   [ "$(ls -1d results/shards/study/*/ | wc -l)" = 1 ]'
echo "slurm submit: $fails failed"
[ "$fails" -eq 0 ]
