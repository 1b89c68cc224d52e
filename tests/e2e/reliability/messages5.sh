#!/usr/bin/env bash
# messages5.sh RLX: issue 56 items 6 and 7, one command each: the exit status and the line that
# names the problem and the fix. Repeated list items, sizes without a bound, control characters and
# path separators in flags as in --set, an ncu CSV whose sums overflow, the Slurm messages (squeue
# failing, SLURM_ARRAY_TASK_ID=abc, a corrupt manifest, one without its fields), progress under
# TERM=dumb, startup.restarts as a JSON list, --cuda-graphs on a machine without CUDA, a hypothesis
# naming precision fp8 or at_least = inf.
set -u
RLX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$PWD
T="$RLX_TEST_TMP/reliability-messages5"
rm -rf "$T"
mkdir -p "$T"
fail() { echo "FAIL: $*"; exit 1; }

# expect RC TEXT ARGS...: rlx ARGS exits RC and its stderr holds TEXT (fixed string).
expect() {
  local want=$1 text=$2
  shift 2
  "$RLX" "$@" >"$T/out" 2>"$T/err" </dev/null
  local rc=$?
  [ "$rc" = "$want" ] || fail "rlx $*: exit $rc, expected $want: $(cat "$T/err")"
  grep -qF -- "$text" "$T/err" || fail "rlx $*: stderr lacks '$text': $(cat "$T/err")"
}

# Item 6: a repeated item, for every list option.
expect 2 "--batch lists 4 twice in '4,4': give each item once" models resnet18 --batch 4,4
expect 2 "--set batch= lists 4 twice in '4,04': give each item once" run experiments/all.lua --set batch=4,04 --dry-run
expect 2 "'resnet18' is listed twice" run experiments/all.lua --set models=resnet18,resnet18 --dry-run
expect 2 "'fp32' is listed twice" run experiments/all.lua --set precision=fp32,fp32 --dry-run
expect 2 "'cpu' is listed twice" run experiments/all.lua --set devices=cpu,cpu --dry-run
expect 2 "'a.db' is listed twice" run experiments/all.lua --set with=a.db,a.db --dry-run

# Item 1: --set with= is checked before the study's database is made: a database with several
# studies, none named as this one, would have failed only in the report, after the whole study.
(cd "$T" && "$RLX" -e "rlx.study{name = 'a', db = 'two.db'}:close() rlx.study{name = 'b', db = 'two.db'}:close()") ||
  fail "making two.db"
expect 2 "holds several studies (a, b) and none named 'p1-roofline': run this study under one of those names" \
  run experiments/all.lua --set with="$T/two.db" --set db="$T/never.db" --dry-run
expect 2 "is this study's own database" run experiments/all.lua --set with="$T/two.db" --set db="$T/two.db" --set name=a
[ ! -e "$T/never.db" ] || fail "a refused with= made the database"

# Item 6: every size has its bound, in the message.
expect 2 "--repeats must be an integer from 1 to 100, got '1000000000'" peaks --repeats 1000000000
expect 2 "--set input= must be an integer from 8 to 4096, got '100000'" run experiments/all.lua --set input=100000 --dry-run
expect 2 "--max-seconds must be a number <= 31536000" train --model resnet18 --target-ci 0.02 --max-seconds 1e12
expect 2 "--set iters= must be an integer from 1 to 100000" run experiments/all.lua --set iters=1000000 --dry-run
expect 2 "--warmup-iters must be a whole number from 0 to 100000, or auto" train --model resnet18 --warmup-iters 1000000

# Item 6: control characters and path separators, flags as --set.
expect 2 "--title 'a\\027[2Jb': the value holds a control character" report x.db --title $'a\e[2Jb'
expect 2 "--label 'a\\027[2Jb': the value holds a control character" train --model resnet18 --label $'a\e[2Jb'
expect 2 "--label must be a non-empty name without '/' or '\\' (it names runs and files), got '../x'" \
  train --model resnet18 --label ../x
expect 2 "the key or value holds a control character" run experiments/all.lua --set $'title=a\e[2Jb' --dry-run

# Item 6: ncu sums that overflow are refused and nothing is stored.
sed -E '9s/"byte","512"/"byte","1.7e308"/; 27s/"byte","488"/"byte","1.7e308"/' \
  "$SRC/tests/fixtures/ncu/details_seed002.csv" >"$T/huge.csv"
# The sum is refused where it is made (engine/counters/ncu_import.cpp), at the row that overflows it.
expect 1 "huge.csv:27: the sum of dram__bytes_write.sum overflows here (beyond what a double holds); nothing was imported" \
  import-ncu "$T/huge.csv"

# Item 6: a report of more runs than it reads is refused at once, before anything is loaded.
cp "$SRC/tests/fixtures/studies/torch-2.15-smoke.db" "$T/big.db"
sqlite3 "$T/big.db" "WITH RECURSIVE cnt(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM cnt WHERE n < 20001)
  INSERT INTO runs (id, study, environment_id, label, config_key, config, repeat, status)
  SELECT lower(hex(randomblob(16))), r.study, r.environment_id, r.label || '_x' || cnt.n, r.config_key, r.config,
  100 + cnt.n, 'ok' FROM cnt, (SELECT * FROM runs LIMIT 1) r"
expect 1 "big.db holds 20005 runs of study framework-pair, more than the 20000 one report reads" report "$T/big.db" \
  --out "$T/bigrep"

# Item 7: Slurm. A manifest without its fields, a corrupt one, SLURM_ARRAY_TASK_ID=abc, squeue failing.
mkdir -p "$T/shards/s/20260101T000000Z" "$T/shards/s/20260102T000000Z" "$T/bin"
echo '{"version": 1, "tasks": [{"slots": []}]}' >"$T/bare.json"
expect 1 "is not a usable rlx submission manifest (version 1): field 'dir' is missing" shard run "$T/bare.json" 0
printf '{"version": 1, "tasks": [' >"$T/shards/s/20260101T000000Z/manifest.json"
cat >"$T/shards/s/20260102T000000Z/manifest.json" <<JSON
{"version": 1, "dir": "$T/shards/s/20260102T000000Z", "study": "s", "db": "$T/s.db", "script": "$T/s.lua",
 "array_job": "4242", "tasks": [{"labels": ["a"], "slots": [{"slot": "s|x|k|1", "label": "a"}]}]}
JSON
(cd "$T" && SLURM_ARRAY_TASK_ID=abc "$RLX" shard run shards/s/20260102T000000Z/manifest.json) >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" = 2 ] || fail "SLURM_ARRAY_TASK_ID=abc: exit $rc: $(cat "$T/err")"
grep -qF "SLURM_ARRAY_TASK_ID is 'abc', not a task number" "$T/err" || fail "SLURM_ARRAY_TASK_ID=abc said: $(cat "$T/err")"
(cd "$T" && "$RLX" -e "rlx.study{name = 's', db = 's.db'}:close()") || fail "making s.db"
(cd "$T" && "$RLX" status s.db) >"$T/out" 2>"$T/err"
grep -qF "rlx status: skipped '$T/shards/s/20260101T000000Z/manifest.json' is not a usable rlx submission manifest" \
  "$T/err" || fail "status of a corrupt manifest said: $(cat "$T/err")"
! grep -q "submission nil" "$T/out" || fail "status printed 'submission nil'"
printf '#!/bin/sh\necho "squeue: error: Unable to contact slurm controller" >&2\nexit 1\n' >"$T/bin/squeue"
chmod +x "$T/bin/squeue"
rm "$T/shards/s/20260101T000000Z/manifest.json"
cat >"$T/s.lua" <<'LUA'
local s = rlx.study{name = "s", db = "s.db"}
s:sweep{models = "resnet18", batch = 2, iters = 1, warmup = 0, input = 32, repeats = 1}
LUA
(cd "$T" && PATH="$T/bin:$PATH" "$RLX" submit s.lua --dry-run) >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" = 1 ] || fail "submit with squeue failing: exit $rc: $(cat "$T/out" "$T/err")"
grep -qF "cannot ask squeue whether earlier submissions' jobs (4242) still run their slots" "$T/err" ||
  fail "submit with squeue failing said: $(cat "$T/err")"

# Item 7: progress under TERM=dumb writes no ESC[K and no carriage return, even on a terminal.
if script -qc true /dev/null >/dev/null 2>&1; then
  TERM=dumb script -qc "'$RLX' train --model resnet18 --batch-size 2 --input 32 --classes 10 --iters 3 \
    --warmup-iters 1 --threads 1 --memory-format contiguous" "$T/typescript" >/dev/null 2>&1 </dev/null
  grep -q "img/s" "$T/typescript" || fail "TERM=dumb: no result line: $(cat "$T/typescript")"
  ! grep -q $'\e\\[K' "$T/typescript" || fail "TERM=dumb: ESC[K written"
  # The terminal ends each line with \r\n; a progress line would put a \r inside one.
  ! grep -q $'\r.' "$T/typescript" || fail "TERM=dumb: a carriage return inside a line"
else
  echo "skip: no 'script' to give rlx a terminal (TERM=dumb)"
fi

# Item 7: startup.restarts is a JSON list, also when empty.
"$RLX" train --model resnet18 --batch-size 2 --input 32 --classes 10 --iters 1 --warmup-iters 0 --threads 1 \
  --memory-format contiguous --json >"$T/run.json" 2>"$T/err" || fail "train --json: $(cat "$T/err")"
grep -q '"restarts": \[' "$T/run.json" || fail "startup.restarts: $(grep -A1 restarts "$T/run.json")"

# Item 7: --cuda-graphs on a machine without CUDA says so first, whatever --warmup-iters says.
if ! "$RLX" -e 'for _, d in ipairs(rlx.devices()) do if d.kind == "cuda" then os.exit(0) end end os.exit(1)'; then
  expect 2 "--cuda-graphs captures the step's CUDA kernels, and this machine has no CUDA device" \
    train --model resnet18 --cuda-graphs --warmup-iters 0
fi

# Item 7: a hypothesis naming a precision no run can have, or at_least = inf, is refused.
cp "$SRC/tests/fixtures/studies/epyc-2c-b-study.db" "$T/h.db"
echo 'return {{"fp8 is faster", speedup = {precision = "fp8", over = "fp32"}, at_least = 1}}' >"$T/fp8.lua"
expect 1 "precision = 'fp8' is no precision a run can have (one of amp, bf16, fp16, fp32)" \
  report "$T/h.db" --out "$T/rep" --hypotheses "$T/fp8.lua"
echo 'return {{"bf16 is faster", speedup = {precision = "bf16", over = "fp32"}, at_least = math.huge}}' >"$T/inf.lua"
expect 1 "at_least = inf is no threshold" report "$T/h.db" --out "$T/rep" --hypotheses "$T/inf.lua"

# Item 7: the ETA after a run leaves out a batch the memory check will refuse (it read "~1.4 h
# left" here for a batch refused a moment later; a stand-in trainer, nothing trains).
"$RLX" -e "
local s = rlx.study{name = 'eta', db = '$T/eta.db', label = 'box'}
s:sweep{models = {'resnet18'}, batch = {2, 100000}, repeats = 1, iters = 1, input = 224,
  memory_available = function() return {available_bytes = 4e9} end,
  trainer = function(o) local t = o.batch / 100 return {ok = true, images_per_s = 100, seconds = t, samples = {t},
    iter_s = {mean = t, sd = 0, median = t, min = t, max = t, p5 = t, p95 = t}} end}" >"$T/out" 2>"$T/err"
grep -q "^\[1/2\] box_resnet18_fp32_bs2_run1: .*, ~0\.0 s left$" "$T/err" "$T/out" ||
  fail "the ETA after run 1: $(grep '1/2' "$T/out" "$T/err")"
grep -qF "not enough memory: resnet18 at batch 100000" "$T/err" || fail "the memory check: $(cat "$T/err")"

# Item 4's Lua half: a FIFO as --hypotheses or as a manifest is refused at once, not waited on.
mkfifo "$T/fifo.lua" "$T/fifo.json"
expect 1 "the hypotheses file '$T/fifo.lua' is a FIFO, not a regular file" \
  report "$T/h.db" --out "$T/rep" --hypotheses "$T/fifo.lua"
expect 1 "the submission manifest '$T/fifo.json' is a FIFO, not a regular file" shard run "$T/fifo.json" 0
echo ok
