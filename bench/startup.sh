#!/usr/bin/env bash
# startup.sh: how long rlx takes to start (issue 47), for the commands that never touch a tensor and
# for the first use of LibTorch, as the median wall time of N runs of each, for this rlx and, when
# given, an older binary beside it (before/after). Run on an idle machine: docs/benchmarks.md,
# "Start-up", says how the numbers there were taken.
#
#   bench/startup.sh RLX [N] [OLD_RLX] [DB]
#     RLX      the rlx to time (build/rlx, with build/librlx_torch.so beside it)
#     N        runs of each command (default 11), after one warm-up run that is not counted
#     OLD_RLX  an older rlx to time the same way (e.g. one built at 8bf288b, before the split)
#     DB       the database of `rlx runs DB` (default tests/fixtures/studies/epyc-2c-study.db,
#              copied first: rlx never writes it, but a copy keeps the fixture safe)
#
# Prints one line per binary and command: median, fastest and slowest seconds, and for a command
# that trains, how often the process started itself again (startup.restarts).
set -u
rlx=${1:?usage: startup.sh RLX [N] [OLD_RLX] [DB]}
n=${2:-11}
old=${3:-}
src=$(cd "$(dirname "$0")/.." && pwd)
db_src=${4:-$src/tests/fixtures/studies/epyc-2c-study.db}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rlx-startup.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$db_src" "$tmp/study.db" || exit 1
unset RLX_SCRIPTS_DIR

# The commands: the three of issue 47's bar, `rlx version` (which loads LibTorch to list the GPUs
# and the BLAS) and the first use of a tensor from a script.
# Issue 51 adds a whole training command on a tiny model (start-up, LibTorch loaded, one step).
names=("--help" "runs DB" "-e print(1)" "version" "-e rlx.devices()" "train tiny")
run_one() { # RLX INDEX
  case $2 in
    0) "$1" --help ;;
    1) "$1" runs "$tmp/study.db" ;;
    2) "$1" -e 'print(1)' ;;
    3) "$1" version ;;
    4) "$1" -e 'rlx.devices()' ;;
    5) "$1" train --model resnet18 --input 32 --batch-size 2 --classes 10 --iters 1 --warmup-iters 0 \
         --memory-format contiguous --device cpu ;;
  esac >/dev/null 2>&1
}

# median MIN MAX of the numbers on stdin, one a line
stats() { sort -g | awk '{v[NR] = $1} END {m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
  printf "median %.3f s  fastest %.3f s  slowest %.3f s", m, v[1], v[NR]}'; }

time_binary() { # RLX LABEL
  local bin=$1 label=$2 i k t0 t1
  for i in "${!names[@]}"; do
    run_one "$bin" "$i"  # warm-up: the page cache
    : >"$tmp/times"
    for ((k = 0; k < n; k++)); do
      t0=$(date +%s%N)
      run_one "$bin" "$i"
      t1=$(date +%s%N)
      awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f\n", (b - a) / 1e9}' >>"$tmp/times"
    done
    printf '%-8s %-20s %s (%d runs)\n' "$label" "rlx ${names[$i]}" "$(stats <"$tmp/times")" "$n"
  done
  # A training command starts itself again at most once (huge pages asked): count it.
  local restarts
  restarts=$("$bin" -e 'local s = rlx.version().startup print(s and #s.restarts or "n/a")' 2>/dev/null)
  printf '%-8s %-20s %s\n' "$label" "restarts of -e" "${restarts:-n/a}"
}

echo "$(date -u) $(uname -n), $(nproc) CPUs, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
time_binary "$rlx" new
[ -n "$old" ] && time_binary "$old" old
exit 0
