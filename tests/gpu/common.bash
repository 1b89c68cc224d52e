# tests/gpu/common.bash: sourced by every tests/gpu/*.sh (it is not a test itself: the runner in
# scripts/gpu/build-and-test.sh runs only *.sh). Reads the two arguments every GPU test takes,
# `bash tests/gpu/X.sh RLX OUTDIR`, makes the libraries build-and-test.sh unpacked into
# /tmp/rlx-deps visible when a test is run on its own, and keeps the PASS/FAIL tally.
#
# RLX_GPU_TEST_DEVICE (default cuda) exists only for dry runs on a machine without a GPU:
# RLX_GPU_TEST_DEVICE=cpu runs the same Lua on the CPU with tiny shapes, to catch script mistakes.
# On the GPU machine leave it unset.

if [ $# -lt 2 ]; then
  echo "usage: bash $0 RLX OUTDIR   (e.g. bash $0 build-gpu/rlx \$OUT)" >&2
  exit 2
fi
RLX=$(realpath "$1")
mkdir -p "$2"
OUTDIR=$(realpath "$2")
[ -x "$RLX" ] || { echo "FAIL $RLX is not an executable (build rlx first: scripts/gpu/build-and-test.sh)"; exit 1; }
GPU_TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$GPU_TESTS/../.." && pwd)
DEVICE=${RLX_GPU_TEST_DEVICE:-cuda}
case "$DEVICE" in cuda|cuda:*) DRY=0 ;; *) DRY=1 ;; esac

DEPS=/tmp/rlx-deps
# Run on its own on a fresh machine (no build-and-test.sh before it in this boot): unpack again.
if [ ! -d "$DEPS/usr/lib/x86_64-linux-gnu" ] && ls "$REPO"/.gpu-debs/*.deb >/dev/null 2>&1; then
  mkdir -p "$DEPS"
  for f in "$REPO"/.gpu-debs/*.deb; do dpkg -x "$f" "$DEPS"; done
fi
if [ -d "$DEPS/usr/lib/x86_64-linux-gnu" ]; then
  case ":${LD_LIBRARY_PATH:-}:" in
    *":$DEPS/usr/lib/x86_64-linux-gnu:"*) ;;
    *) export LD_LIBRARY_PATH="$DEPS/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}" ;;
  esac
  [ -f "$DEPS/fonts.conf" ] && export FONTCONFIG_FILE=${FONTCONFIG_FILE:-$DEPS/fonts.conf}
fi
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
if ! "$RLX" version >/dev/null 2>&1; then
  echo "FAIL $RLX does not start: $("$RLX" version 2>&1 | head -n 2 | tr '\n' ' ')"
  echo "     (libraries missing? carry .gpu-debs, or run scripts/gpu/build-and-test.sh first)"
  exit 1
fi

N_PASS=0
N_FAIL=0
FAILED_LINES=()
pass() { echo "PASS $*"; N_PASS=$((N_PASS + 1)); }
fail() { echo "FAIL $*"; N_FAIL=$((N_FAIL + 1)); FAILED_LINES+=("FAIL $*"); }
# Adds the PASS/FAIL lines a Lua part printed (in LOG) to the tally.
count_log() {
  local p f
  p=$(grep -c '^PASS ' "$1" || true)
  f=$(grep -c '^FAIL ' "$1" || true)
  N_PASS=$((N_PASS + p))
  N_FAIL=$((N_FAIL + f))
  local line
  while IFS= read -r line; do FAILED_LINES+=("$line"); done < <(grep '^FAIL ' "$1" || true)
}
now() { date +%s.%N; }
# cap N: N seconds, or fewer when scripts/gpu/build-and-test.sh gave this script a deadline
# (RLX_STEP_DEADLINE, seconds from the script's start) that leaves less.
SCRIPT_START=$(date +%s)
cap() {
  local n=$1
  if [ -n "${RLX_STEP_DEADLINE:-}" ]; then
    local rest=$((RLX_STEP_DEADLINE - ($(date +%s) - SCRIPT_START) - ${2:-0}))
    [ "$rest" -lt "$n" ] && n=$rest
    [ "$n" -lt 5 ] && n=5
  fi
  echo "$n"
}
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# run_lua NAME LIMIT ARGS...: `rlx run tests/gpu/NAME.lua ARGS` within LIMIT seconds, its output
# in OUTDIR/NAME.log, printed and its PASS/FAIL lines tallied, then a check that it exited 0.
run_lua() {
  local name=$1 limit=$2 t0 t1 rc
  shift 2
  t0=$(now)
  timeout "$limit" "$RLX" run "$GPU_TESTS/$name.lua" "$@" >"$OUTDIR/$name.log" 2>&1
  rc=$?
  t1=$(now)
  cat "$OUTDIR/$name.log"
  count_log "$OUTDIR/$name.log"
  if [ $rc -eq 0 ]; then pass "rlx run $name.lua exited 0 ($(elapsed "$t0" "$t1") s)"
  else fail "rlx run $name.lua exited $rc ($(elapsed "$t0" "$t1") s; 124 = timeout)"; fi
}

# run_study DIR DB ARGS...: `rlx run experiments/all.lua ARGS` from the repository, the command in
# DIR/command.txt and its output in DIR/all.log, within STUDY_TIMEOUT seconds (default 330, or
# what the caller's deadline leaves); a real study stopped before its report still gets `rlx
# report` of the runs it stored. Sets STUDY_RC, STUDY_T0 and STUDY_T1 (the study's start and end).
run_study() {
  local dir=$1 db=$2
  shift 2
  echo "cd $REPO && $RLX run experiments/all.lua $*" | tee "$dir/command.txt"
  STUDY_T0=$(now)
  (cd "$REPO" && timeout "${STUDY_TIMEOUT:-$(cap 330 40)}" "$RLX" run experiments/all.lua "$@") >"$dir/all.log" 2>&1
  STUDY_RC=$?
  STUDY_T1=$(now)
  if [ $STUDY_RC -ne 0 ] && [ "$DRY" = 0 ] && [ -s "$db" ] && [ ! -s "$dir/report.md" ]; then
    echo "the study stopped ($STUDY_RC): the report of the runs stored so far (rlx report)"
    timeout "$(cap 40 5)" "$RLX" report "$db" --out "$dir" >"$dir/report.log" 2>&1
    tail -n 3 "$dir/report.log"
  fi
}

# The closing line; the exit status is 1 when anything failed.
finish() {
  if [ "$N_FAIL" -gt 0 ]; then
    echo "failed checks:"
    printf '  %s\n' "${FAILED_LINES[@]}" | cut -c1-200
  fi
  echo "== $1: $N_PASS passed, $N_FAIL failed (device $DEVICE$([ "$DRY" = 1 ] && echo ', DRY RUN'))"
  [ "$N_FAIL" -eq 0 ]
}
