#!/usr/bin/env bash
# peaks_vs_likwid.sh: rlx's measured CPU peaks next to likwid-bench's on the same machine, same
# thread count, interleaved round by round so both see the same background load; prints the best
# of all rounds for each tool and the ratio rlx / likwid (target >= 0.95, issue 6).
#
#   bench/peaks_vs_likwid.sh [RLX_BINARY] [ROUNDS]     (defaults: build/rlx, 5)
#
# Pairs: rlx dram_gbps (STREAM triad, 24 B/element) vs likwid stream_avx512 (regular stores) and
# stream_mem_avx512 (non-temporal stores); rlx fp64_gflops / fp32_gflops vs peakflops_avx512_fma /
# peakflops_sp_avx512_fma. The AVX-512 kernels are replaced by the AVX (AVX2+FMA) ones when the
# CPU lacks AVX-512. Needs the Debian package likwid.
set -euo pipefail
RLX=${1:-build/rlx}
ROUNDS=${2:-5}
command -v likwid-bench >/dev/null || { echo "likwid-bench not found: apt-get install likwid" >&2; exit 2; }
[ -x "$RLX" ] || { echo "rlx binary not found at $RLX" >&2; exit 2; }

THREADS=$("$RLX" -e 'print(#rlx.peaks.cpu_info().cores)')
if grep -q avx512f /proc/cpuinfo; then SUF=avx512; else SUF=avx; fi
STREAM=stream_${SUF}; STREAM_NT=stream_mem_${SUF}
[ "$SUF" = avx ] && STREAM_NT=stream_mem_avx
PEAK64=peakflops_${SUF}_fma; PEAK32=peakflops_sp_${SUF}_fma
# The triad's working set: the same 3 arrays rlx uses (its method string says the size).
WS_MB=$("$RLX" -e 'local p = rlx.peaks.measure{only = "dram", repeats = 1, quick = false}
  print(math.floor(3 * tonumber(p.method.dram_gbps:match("3 arrays of (%d+) MiB")) * 1.048576))')

# likwid-bench prints "MByte/s:" / "MFlops/s:" (decimal 1e6); keep the number, convert to 1e9.
lk() { likwid-bench -t "$1" -W "N:$2:$THREADS" 2>/dev/null | awk -v k="$3" '$1 == k {print $2 / 1000}'; }
max() { awk -v a="$1" -v b="$2" 'BEGIN {print (a > b) ? a : b}'; }

best_lk_stream=0; best_lk_stream_nt=0; best_lk_64=0; best_lk_32=0
best_rlx_dram=0; best_rlx_64=0; best_rlx_32=0; best_w_dram=0; best_w_64=0; best_w_32=0
echo "# $(date -u +%FT%TZ) $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $THREADS threads," \
  "triad working set ${WS_MB} MB, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# round  likwid:$STREAM $STREAM_NT $PEAK64 $PEAK32 | rlx (wall clock, default): dram_gbps fp64_gflops fp32_gflops | rlx (cpu clock): same"
echo "# (the CPU clock divides by the threads' CPU time, leaving out time slices other processes took;" \
  "the wall clock, rlx's default, is likwid's convention and the one to compare)"
for r in $(seq 1 "$ROUNDS"); do
  a=$(lk "$STREAM" "${WS_MB}MB" MByte/s:)
  b=$(lk "$STREAM_NT" "${WS_MB}MB" MByte/s:)
  c=$(lk "$PEAK64" 32kB MFlops/s:)
  d=$(lk "$PEAK32" 32kB MFlops/s:)
  # One measurement gives both clocks: the figure by the wall clock and details.*.cpu_clock_best.
  read -r h i j e f g < <("$RLX" -e 'local p = rlx.peaks.measure{only = {"dram", "fp64", "fp32"}, repeats = 5, clock = "wall"}
    local d = p.details
    print(p.dram_gbps, p.fp64_gflops, p.fp32_gflops, d.dram_gbps.cpu_clock_best, d.fp64_gflops.cpu_clock_best,
      d.fp32_gflops.cpu_clock_best)')
  printf '%-7s likwid: %8.2f %8.2f %8.2f %8.2f | rlx: %8.2f %8.2f %8.2f | %8.2f %8.2f %8.2f\n' "$r" "$a" "$b" "$c" "$d" \
    "$h" "$i" "$j" "$e" "$f" "$g"
  best_w_dram=$(max "$best_w_dram" "$h"); best_w_64=$(max "$best_w_64" "$i"); best_w_32=$(max "$best_w_32" "$j")
  best_lk_stream=$(max "$best_lk_stream" "$a"); best_lk_stream_nt=$(max "$best_lk_stream_nt" "$b")
  best_lk_64=$(max "$best_lk_64" "$c"); best_lk_32=$(max "$best_lk_32" "$d")
  best_rlx_dram=$(max "$best_rlx_dram" "$e"); best_rlx_64=$(max "$best_rlx_64" "$f"); best_rlx_32=$(max "$best_rlx_32" "$g")
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", (b > 0) ? a / b : 0}'; }
echo "# best of $ROUNDS rounds"
printf '| figure | likwid kernel | likwid | rlx, wall clock (default) | ratio | rlx, CPU clock | ratio |\n'
printf '|---|---|---|---|---|---|---|\n'
row() { printf '| %s | %s | %.2f | %.2f | %s | %.2f | %s |\n' "$1" "$2" "$3" "$4" "$(ratio "$4" "$3")" "$5" "$(ratio "$5" "$3")"; }
row "DRAM triad (GB/s)" "$STREAM" "$best_lk_stream" "$best_w_dram" "$best_rlx_dram"
row "DRAM triad (GB/s)" "$STREAM_NT" "$best_lk_stream_nt" "$best_w_dram" "$best_rlx_dram"
row "FP64 FMA (GFLOP/s)" "$PEAK64" "$best_lk_64" "$best_w_64" "$best_rlx_64"
row "FP32 FMA (GFLOP/s)" "$PEAK32" "$best_lk_32" "$best_w_32" "$best_rlx_32"
