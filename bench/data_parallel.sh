#!/usr/bin/env bash
# data_parallel.sh RLX [local|slurm]: bench/data_parallel.lua on this machine (local: rlx starts the
# ranks), or inside a throw-away single-node Slurm cluster (slurm: the same script as one sbatch job
# of 2 tasks, so the 2-rank runs start their ranks with srun; needs root, as the tests' cluster).
# Extra arguments go to the script (--set models=..., --set batch=..., --set rounds=...).
#   bench/data_parallel.sh build/rlx local --set rounds=2
set -euo pipefail
rlx=$(cd "$(dirname "${1:?usage: data_parallel.sh RLX [local|slurm] [--set k=v]...}")" && pwd)/$(basename "$1")
mode=${2:-local}
shift 2 || shift $#
here=$(cd "$(dirname "$0")" && pwd)
header='| model | B | 1 rank x 2 threads, batch B (img/s) | 1 rank x 2 threads, batch 2B | 2 ranks x 1 thread, batch B each | efficiency, same per-rank batch | efficiency, same global batch | all-reduce share | exposed share | MB all-reduced per step |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |'
if [ "$mode" = local ]; then
  echo "$header"
  "$rlx" run "$here/data_parallel.lua" "$@"
  exit
fi
source "$here/../tests/slurm/cluster.sh"
dir=$(mktemp -d /tmp/rlx-bench-slurm.XXXXXX)
trap 'slurm_cluster_stop "$dir"; rm -rf "$dir"' EXIT
slurm_cluster_start "$dir" || { echo "no Slurm cluster: $SLURM_CLUSTER_WHY" >&2; exit 1; }
args=$(printf ' %q' "$@")
job=$(sbatch --parsable --ntasks=2 --partition=debug --output="$dir/out.txt" --chdir="$PWD" \
  --wrap "exec '$rlx' run '$here/data_parallel.lua'$args")
while [ -n "$(squeue -h -j "$job" 2>/dev/null)" ]; do sleep 2; done
echo "$header"
grep '^|' "$dir/out.txt"
grep -v '^|' "$dir/out.txt" >&2 || true
