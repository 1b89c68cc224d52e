#!/usr/bin/env bash
# study_params.sh RLX: issue 35 items 2, 3 and 5: experiments/all.lua's --set values.
#   2. A typo in a comma list (models, precision, batch, devices) is a usage error naming the valid
#      items (exit 2), before anything is opened: `models=nosuch` stored 6 failed runs and wrote a
#      report with exit 0; `precision=fp8 --dry-run` planned 27 runs "without an estimate".
#   3. A dry run writes nothing: no database (it made one of 94 KB), and an existing one unchanged;
#   5. Contradictions are refused: min_iters above max_iters, budget=0 (silently no budget),
#      budget=30 (silently 30 seconds), and target_ci out of (0, 1) exits 2 whatever the value.
set -u
RLX=$1
SRC=$PWD
T="$RLX_TEST_TMP/reliability-study-params"
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
all() { "$RLX" run "$SRC/experiments/all.lua" --set db="$T/s.db" "$@"; }

# usage ERR ARGS...: exit 2, ERR as the only line on stderr, nothing on stdout, nothing made.
usage() {
  local want=$1
  shift
  all "$@" >out 2>err
  local rc=$?
  [ "$rc" = 2 ] || fail "$*: exit $rc: $(cat err)"
  [ "$(cat err)" = "$want" ] || fail "$*: stderr: $(cat err)"
  [ ! -s out ] || fail "$*: printed $(cat out)"
  [ -z "$(ls -A "$T" | grep -v '^out$\|^err$')" ] || fail "$*: made $(ls -A "$T")"
}
models=$("$RLX" -e "print(table.concat(rlx.model.list(), ', '))")
usage "experiments/all.lua: --set models=: unknown model 'nosuch' (valid: $models)" --set scale=smoke --set models=nosuch
usage "experiments/all.lua: --set precision=: unknown precision 'fp8' (valid: fp32, amp, bf16)" --dry-run --set precision=fp8
usage "experiments/all.lua: --set models=: 'resnet50' is listed twice" --set models=resnet50,resnet50
usage "experiments/all.lua: --set batch= has an empty item in '16,,32' (two commas in a row, or one at an end): remove it" \
  --set batch=16,,32
usage "experiments/all.lua: --set precision= has an empty item in 'fp32,' (two commas in a row, or one at an end): remove it" \
  --set precision=fp32,
usage "experiments/all.lua: min_iters=10 is more than max_iters=5: a run cannot time at least 10 and at most 5 iterations; raise --set max_iters= or lower --set min_iters=" \
  --set min_iters=10 --set max_iters=5
usage "experiments/all.lua: --set budget=0 leaves no time for any run: give a positive duration such as 30m, or none for no budget" \
  --set budget=0
usage "experiments/all.lua: --set budget=30 needs a unit: 30s, 30m or 30h (or none for no budget)" --set budget=30
for ci in 5 0 -1 1; do
  usage "experiments/all.lua: --set target_ci= must be a fraction in (0, 1), e.g. 0.02, got $ci" --set target_ci=$ci
done

# 3: a dry run makes no database, and leaves an existing one as it was.
all --set scale=smoke --dry-run >out 2>err || fail "dry run: $(cat err)"
grep -q "^dry run: " out || fail "no plan: $(cat out)"
[ ! -e s.db ] && [ ! -e figures ] && [ ! -e results ] || fail "the dry run made $(ls -A)"
"$RLX" -e "local st = rlx.study{name = 'p1-roofline', db = '$T/s.db'} st:close()" || fail "making s.db"
sum=$(md5sum s.db)
all --set scale=smoke --dry-run --set label=other >out 2>err || fail "dry run on s.db: $(cat err)"
[ "$(md5sum s.db)" = "$sum" ] || fail "the dry run changed s.db"
[ ! -e s.db-wal ] || [ ! -s s.db-wal ] || fail "the dry run wrote s.db's log"
rm -f s.db s.db-wal s.db-shm
# A budget too small for any run is no refusal since issue 30 (the plan leaves runs out and names
# the command that adds them): e2e: trust: a budget too small for any run leaves them out ....
echo ok
