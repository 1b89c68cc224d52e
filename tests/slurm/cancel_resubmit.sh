#!/usr/bin/env bash
# cancel_resubmit.sh RLX: the same small study submitted as 4 array tasks of 2 slots; task 3
# stores its first slot and is cancelled with scancel while its second is in progress (held by the
# study's --set hold=, the slot read from a --dry-run of the same submission); submitting again
# meanwhile submits nothing (its slots are queued). The collect job still
# runs (afterany) and merges 7 ok runs; rlx status names 1 missing slot; submitting the same
# command again submits exactly that slot, and then the study has 8 ok runs and nothing else.
RLX=${1:?usage: cancel_resubmit.sh RLX}
source "$(dirname "$0")/common.sh"

SUBMIT=("$RLX" submit "$SRC/tests/slurm/study.lua" --set db=results/study.db --tasks 4)
"${SUBMIT[@]}" --dry-run >dry.txt 2>&1
FIRST=$(perl -ne 'print $1 if /^task 3: (\S+) (\S+)$/' dry.txt) HELD=$(perl -ne 'print $2 if /^task 3: (\S+) (\S+)$/' dry.txt)
check "the dry run deals task 3 two slots" '[ -n "$FIRST" ] && [ -n "$HELD" ]'
"${SUBMIT[@]}" --set hold="$HELD" --set hold_marker="$W/held.txt" >submit1.txt 2>&1
check "rlx submit exits 0" '[ $? -eq 0 ]'
M1=$(latest_manifest)
ARRAY=$(manifest_field "$M1" array_job) COLLECT=$(manifest_field "$M1" collect_job)
check "the submission deals as its dry run did: task 3 holds $FIRST then $HELD" \
  'perl -0777 -ne "exit(/\"labels\":\s*\[\s*\"$FIRST\",\s*\"$HELD\"\s*\]/ ? 0 : 1)" "$M1"'
end=$((SECONDS + 180))
until [ -s held.txt ] || [ "$SECONDS" -ge "$end" ]; do sleep 1; done
check "task 3 stored its first slot and reached the held one within 180 s" \
  '[ "$(cat held.txt 2>/dev/null)" = "$HELD" ] &&
   [ "$(sql "$(dirname "$M1")/task-3.db" "SELECT label FROM runs WHERE status = '"'ok'"'")" = "$FIRST" ]'
"${SUBMIT[@]}" >submit_busy.txt 2>&1
check "while task 3 runs, submitting again submits nothing: each slot is stored ok or queued" \
  'grep -Eq "8 slots planned, [0-7] stored ok, [1-8] queued in earlier submissions, 0 to submit" submit_busy.txt &&
   grep -q "nothing to submit" submit_busy.txt && [ "$(ls -1d results/shards/study/*/ | wc -l)" = 1 ]'
scancel "${ARRAY}_3"
wait_gone 240 "$ARRAY" "$COLLECT"
check "array and collect job finished within 240 s" '[ $? -eq 0 ]'
DB=results/study.db
check "the collect job merged 7 ok runs" \
  '[ "$(sql "$DB" "SELECT count(*) FROM runs WHERE status = '"'ok'"'")" = 7 ]'
check "the held slot is not stored ok" \
  '[ "$(sql "$DB" "SELECT count(*) FROM runs WHERE status = '"'ok'"' AND label = '"'$HELD'"'")" = 0 ]'
check "the collect log names 1 missing slot and the command to resubmit" \
  'grep -q "collect: 1 slots of this submission are not stored ok; submit them again with: rlx submit" "$(dirname "$M1")/logs/collect.out"'
"$RLX" status "$DB" >status1.txt
check "rlx status: 7 done, 1 missing; task 3 has 1 done and 1 missing" \
  'grep -q "8 slots submitted: 7 done, 0 running, 0 pending, 0 failed, 1 missing" status1.txt &&
   grep -Eq "^ +3 +[A-Za-z]+ +2 +1 +0 +0 +0 +1$" status1.txt'

"${SUBMIT[@]}" >submit2.txt 2>&1
check "re-submission submits exactly the missing slot" \
  'grep -q "8 slots planned, 7 stored ok, 0 queued in earlier submissions, 1 to submit" submit2.txt'
M2=$(latest_manifest)
check "in one task whose only label is the held slot" \
  '[ "$M2" != "$M1" ] && grep -q "#SBATCH --array=0-0" "$(dirname "$M2")/task.sbatch" &&
   perl -0777 -ne "exit(/\"labels\":\s*\[\s*\"$HELD\"\s*\]/ ? 0 : 1)" "$M2"'
ARRAY2=$(manifest_field "$M2" array_job) COLLECT2=$(manifest_field "$M2" collect_job)
wait_gone 240 "$ARRAY2" "$COLLECT2"
check "second array and collect job finished within 240 s" '[ $? -eq 0 ]'
check "now 8 runs, all ok, 8 distinct labels" \
  '[ "$(sql "$DB" "SELECT count(*), sum(status = '"'ok'"'), count(DISTINCT label) FROM runs")" = "8|8|8" ]'
check "the held slot ran in the second array (task 0), the others in the first" \
  '[ "$(sql "$DB" "SELECT slurm_job_id, slurm_array_task_id FROM runs WHERE label = '"'$HELD'"'")" = "$ARRAY2|0" ] &&
   [ "$(sql "$DB" "SELECT count(*) FROM runs WHERE slurm_job_id = '"'$ARRAY'"'")" = 7 ]'
check "pragma integrity_check is ok" '[ "$(sql "$DB" "PRAGMA integrity_check")" = ok ]'
"$RLX" status "$DB" >status2.txt
check "rlx status: 8 done" 'grep -q "8 slots submitted: 8 done, 0 running, 0 pending, 0 failed, 0 missing" status2.txt'
echo "slurm cancel/resubmit: $fails failed"
[ "$fails" -eq 0 ]
