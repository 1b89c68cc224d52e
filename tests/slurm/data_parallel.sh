#!/usr/bin/env bash
# data_parallel.sh RLX: issue 52 under Slurm. `rlx submit` of a study that sweeps ranks {1, 2} on
# the real single-node cluster: the array asks for 2 tasks, the shard's rlx starts the 2-rank run's
# ranks as one srun step (Slurm numbers them), they meet on the shard's TCPStore, and the study
# database holds one row per run: ranks 1 and 2, both ok, the 2-rank row launched by Slurm with both
# ranks' figures. Exit 77 when no cluster can start.
RLX=${1:?usage: data_parallel.sh RLX}
source "$(dirname "$0")/common.sh"

"$RLX" submit "$SRC/tests/slurm/dp_study.lua" --set db=results/study.db --tasks 1 --partition debug >submit.txt 2>&1
check "rlx submit exits 0" '[ $? -eq 0 ]'
M=$(ls -1d "$W"/results/shards/study/*/manifest.json | sort | tail -1)
ARRAY=$(manifest_field "$M" array_job) COLLECT=$(manifest_field "$M" collect_job)
check "the array task asks for 2 tasks (the most ranks a run needs)" 'grep -qx "#SBATCH --ntasks=2" "$(dirname "$M")/task.sbatch"'
wait_gone 300 "$ARRAY" "$COLLECT"
check "array and collect job finished within 300 s" '[ $? -eq 0 ]'
DB=results/study.db
check "one row per run: ranks 1 and 2, global batch 4 and 8, both ok" \
  '[ "$(sql "$DB" "SELECT ranks, global_batch, status FROM runs ORDER BY ranks" | tr "\n" " ")" = "1|4|ok 2|8|ok " ]'
check "the 2-rank run was launched by Slurm (srun), Gloo, both ranks figured" \
  '[ "$(sql "$DB" "SELECT json_extract(result, '"'"'$.data_parallel.launcher'"'"'), json_extract(result, '"'"'$.data_parallel.backend'"'"'), json_array_length(result, '"'"'$.data_parallel.per_rank'"'"') FROM runs WHERE ranks = 2")" = "slurm|gloo|2" ]'
check "its ranks were two processes" \
  '[ "$(sql "$DB" "SELECT count(DISTINCT json_extract(value, '"'"'$.pid'"'"')) FROM runs, json_each(result, '"'"'$.data_parallel.per_rank'"'"') WHERE ranks = 2")" = 2 ]'
echo "slurm data-parallel: $fails failed"
[ "$fails" -eq 0 ]
