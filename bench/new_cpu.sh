#!/usr/bin/env bash
# new_cpu.sh: issue 33's checks on a CPU not measured before, in one command, into one log. It
# names the CPU, then runs, on what should be an otherwise idle machine (about an hour and a half
# on two cores):
#   1. train_224.sh   rlx against Python's defaults, Python's other layout and Python with rlx's
#                     settings (fp32, 224x224, batch 16, 4 rounds of 2 warm-up + 4 timed steps)
#   2. omp_wait.sh    OpenMP waiting, idle and with two busy loops beside it
#   3. huge_pages.sh  RLX_HUGE_PAGES=1 per model, 3 rounds
#   4. affinity.sh    OMP_PROC_BIND=true per model, 4 rounds
#   5. train_loop.py  VGG-16 with oneDNN and with im2col + BLAS (--mkldnn on|off), 2 rounds
#   6. the OpenMP spin rlx times at start, idle and beside two busy loops
# Each step's own table is what docs/benchmarks.md records (issue 33's section); read the log's
# head for the CPU. STEPS="1 5" runs a subset.
#
#   bench/new_cpu.sh RLX [LOG=new-cpu-HOST-DATE.log]
set -euo pipefail
rlx=${1:?usage: new_cpu.sh RLX [LOG]}
log=${2:-new-cpu-$(uname -n)-$(date +%Y-%m-%d).log}
here=$(cd "$(dirname "$0")" && pwd)
source "$here/python.sh"
steps=" ${STEPS:-1 2 3 4 5 6} "
wants() { [[ "$steps" == *" $1 "* ]]; }
busy=()
start_busy() { for _ in 1 2; do (while :; do :; done) & busy+=($!); done; }
stop_busy() { ((${#busy[@]})) && { kill "${busy[@]}" 2>/dev/null || true; wait "${busy[@]}" 2>/dev/null || true; }; busy=(); }
step() { echo; echo "## $* ($(date -u +%H:%M:%S) UTC, load $(cut -d' ' -f1-3 /proc/loadavg))"; }
{
  # Inside the braces: the busy loops are started in this subshell (the pipe to tee), so its own
  # trap stops them, on Ctrl-C too.
  trap stop_busy EXIT
  trap 'stop_busy; exit 130' INT TERM
  echo "# bench/new_cpu.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  lscpu | grep -E '^(Model name|CPU family|Model|Thread|Core|Socket|CPU\(s\)|L[123]|Hypervisor)' || true
  echo "ISA: $(grep -o -w -E 'avx2|avx512f|avx512_bf16|amx_bf16|fma' /proc/cpuinfo | sort -u | tr '\n' ' ')"
  echo "THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo none)"
  echo "rlx: $("$rlx" version 2>/dev/null | head -1)"
  if wants 1; then step "1. train_224.sh"; PRECISIONS=fp32 "$here/train_224.sh" "$rlx" 4 4 2; fi
  if wants 2; then step "2. omp_wait.sh"; "$here/omp_wait.sh" "$rlx" 2 16 224 2; fi
  if wants 3; then step "3. huge_pages.sh"; "$here/huge_pages.sh" "$rlx" 3; fi
  if wants 4; then step "4. affinity.sh"; "$here/affinity.sh" "$rlx" 4; fi
  if wants 5; then
    step "5. VGG-16, oneDNN or im2col + BLAS (images/s)"
    for r in 1 2; do
      for m in $( ((r % 2)) && echo "on off" || echo "off on"); do
        echo "round $r mkldnn $m: $("$PY" "$here/train_loop.py" --model vgg16 --input 224 --iters 3 \
          --lr 0.01 --mkldnn "$m" --malloc rlx --memory-format contiguous)"
      done
    done
  fi
  if wants 6; then
    step "6. the spin rlx times at start"
    echo "idle:   $("$rlx" -e 'print(rlx.version().openmp_wait)' 2>&1)"
    start_busy; sleep 1
    echo "shared: $("$rlx" -e 'print(rlx.version().openmp_wait)' 2>&1)"
    stop_busy
  fi
} 2>&1 | tee "$log"
