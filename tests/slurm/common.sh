# common.sh: shared by the Slurm study tests (sourced). Usage: source it with RLX set to the rlx
# binary; it starts a cluster in a fresh temporary directory ($D, working directory $W, where the
# tests submit from), stops it on exit, and provides check/wait helpers and a tally.
set -u
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$SRC/tests/slurm/cluster.sh"
RLX=$(cd "$(dirname "$RLX")" && pwd)/$(basename "$RLX")
D=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/slurm-study.XXXXXX")
W=$D/work
mkdir -p "$W"
fails=0
_slurm_test_cleanup() {
  local rc=$?
  if [ "$fails" -ne 0 ] || [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then
    echo "--- logs (kept in $D) ---"
    tail -n 15 "$W"/results/shards/*/*/logs/*.out 2>/dev/null
    grep -h -i 'error' "$D"/log/slurmctld.log 2>/dev/null | grep -v -i pmix | tail -5
  fi
  slurm_cluster_stop "$D"
  [ "$fails" -eq 0 ] && [ "$rc" -eq 0 ] && rm -rf "$D"
}
trap _slurm_test_cleanup EXIT
if ! slurm_cluster_start "$D"; then echo "SKIP: the Slurm cluster cannot start: $SLURM_CLUSTER_WHY"; exit 77; fi
cd "$W"

check() {  # NAME CONDITION (evaluated)
  if eval "$2"; then echo "PASS $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}
sql() { sqlite3 -batch -noheader "$@"; }
# wait_gone TIMEOUT JOB...: until squeue lists none of the jobs (0), or the timeout (1).
wait_gone() {
  local limit=$1; shift
  local ids end
  ids=$(IFS=,; echo "$*")
  end=$((SECONDS + limit))
  while [ -n "$(squeue -h -j "$ids" 2>/dev/null)" ]; do
    [ "$SECONDS" -ge "$end" ] && return 1
    sleep 1
  done
}
# The array and collect job ids of the latest submission (from its manifest).
latest_manifest() { ls -1d "$W"/results/shards/study/*/manifest.json | sort | tail -1; }
manifest_field() { perl -0777 -ne 'print $1 if /"'"$2"'":\s*"?([^",\n]+)/' "$1"; }
