#!/usr/bin/env bash
# no_sbatch.sh RLX: rlx submit where Slurm's client commands are missing fails with exit 1 and a
# one-line message naming the fix, before planning or writing anything.
RLX=${1:?usage: no_sbatch.sh RLX}
cd "$(dirname "$0")/../.."
out=$(env PATH=/nonexistent "$RLX" submit tests/slurm/study.lua --set db=/nonexistent/x.db 2>&1)
rc=$?
echo "$out"
[ "$rc" -eq 1 ] && [ "$out" = "rlx submit: no sbatch on PATH: run rlx submit where Slurm's client commands are (a login node; Debian: apt install slurm-client), or plan only with --dry-run" ]
