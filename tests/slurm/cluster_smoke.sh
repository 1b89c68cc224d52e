#!/usr/bin/env bash
# cluster_smoke.sh: tests/slurm/cluster.sh starts a real single-node cluster, a 4-task job array
# and a job depending on it (afterany) run on it with the SLURM_* variables rlx records, and the
# teardown leaves none of the daemons it started. Exit 77 (skip) when the cluster cannot start.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/cluster.sh"
D=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/slurm-smoke.XXXXXX")
trap 'slurm_cluster_stop "$D"; rm -rf "$D"' EXIT
if ! slurm_cluster_start "$D"; then echo "SKIP: the Slurm cluster cannot start: $SLURM_CLUSTER_WHY"; exit 77; fi
fails=0
check() { if eval "$2"; then echo "PASS $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }

array=$(sbatch --parsable --array=0-3 -c1 -o "$D/task-%a.out" \
  --wrap 'echo "$SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID $SLURMD_NODENAME"')
after=$(sbatch --parsable --dependency=afterany:"$array" -o "$D/after.out" --wrap 'cat '"$D"'/task-*.out | wc -l')
end=$((SECONDS + 60))
while [ -n "$(squeue -h -j "$array,$after" 2>/dev/null)" ] && [ "$SECONDS" -lt "$end" ]; do sleep 0.5; done
check "array and dependent job finished within 60 s" '[ -z "$(squeue -h -j "$array,$after" 2>/dev/null)" ]'
for i in 0 1 2 3; do
  check "task $i saw its job id, task id and node" '[ "$(cat "$D/task-$i.out" 2>/dev/null)" = "$array $i rlxnode" ]'
done
check "the afterany job ran after all 4 tasks" '[ "$(cat "$D/after.out" 2>/dev/null)" = 4 ]'

pids=$(cat "$D"/run/*.pid)
slurm_cluster_stop "$D"
alive=""
for p in $pids; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
check "teardown stopped munged, slurmctld and slurmd" '[ -z "$alive" ]'
echo "slurm smoke: $fails failed"
[ "$fails" -eq 0 ]
