#!/usr/bin/env bash
# probe5.sh RLX [OUT]: reruns the classes of issue 56's hostile probe (the fifth) against RLX and
# counts the outcomes as the probe did (docs/reliability.md, "Issue 56"). Not part of ctest: its
# counts go into docs/reliability.md. The classes' own ctest cases are
# tests/e2e/reliability/{doc_commands,messages5,export_foreign,signals5,path_slots}.sh.
#
# Each case runs under `timeout` in a fresh folder and is judged:
#   hang    it ran into the timeout;
#   signal  it died of a signal (exit > 128) other than the interrupts a case sends itself;
#   loss    a check of the data after it failed (a file replaced, rows gone);
#   bug     bad input accepted (exit 0), good input refused, or a check of what it did failed;
#   poor    refused, but not in one line naming the problem;
#   good    otherwise.
set -u
RLX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$PWD
W=${2:-$(mktemp -d "${TMPDIR:-/tmp}/probe5.XXXXXX")}
mkdir -p "$W"
declare -A COUNT=([good]=0 [poor]=0 [bug]=0 [loss]=0 [signal]=0 [hang]=0)
declare -A THEIRS=([good]=0 [poor]=0 [bug]=0 [loss]=0 [signal]=0 [hang]=0)
N=0
OWNER=ours
ESC=$'\033'
BEL=$'\007'
TIMEOUT=60
FIX=$SRC/tests/fixtures/studies

source "$(dirname "${BASH_SOURCE[0]}")/judge.sh"
SETUP=true
train=("$RLX" train --model resnet18 --batch-size 2 --input 32 --classes 10 --iters 1 --warmup-iters 0 --threads 1)

echo "== 1. the documented commands (all.lua's header): --set with= and --set title="
SETUP='cp "$FIX/epyc-2c-study.db" other.db'
probe "all.lua --set with=OTHER.db --dry-run" ok -- "$RLX" run "$SRC/experiments/all.lua" --set with=other.db --dry-run
probe "all.lua --set title=T --dry-run" ok -- "$RLX" run "$SRC/experiments/all.lua" "--set" "title=My study" --dry-run

echo "== 2. a report over several databases is their merge"
# Two copies of one database hold every slot twice: the report counts each once, as `rlx report`
# of the one database does (and as rlx merge keeps one).
SETUP='cp "$FIX/epyc-2c-study.db" a.db && cp "$FIX/epyc-2c-study.db" c.db && "$RLX" report a.db --out one >/dev/null 2>&1'
runs_line='grep -o "; [0-9]* runs: [0-9]* ok" '
probe "rlx report A C of the same slots: each slot once (as rlx merge)" ok \
  "[ \"\$($runs_line rep/report.md)\" = \"\$($runs_line one/report.md)\" ] && [ -n \"\$($runs_line one/report.md)\" ]" \
  -- "$RLX" report a.db c.db --out rep
probe "rlx report C A: the same study picked whatever the order" ok -- "$RLX" report c.db a.db --out rep

echo "== 3. signals in a user's pcall loop end rlx"
for sig in TERM HUP; do
  N=$((N + 1)); d="$W/$N"; mkdir -p "$d"
  (cd "$d" && timeout -k 5 20 bash -c '"$1" -e "while true do pcall(function() for i = 1, 1e6 do end end) end" & p=$!
    sleep 1.5; kill -'$sig' $p; wait $p' sh "$RLX" >out 2>err)
  rc=$?
  want=$([ $sig = TERM ] && echo 143 || echo 129)
  judge "pcall loop, SIG$sig: ends with $want within 2 s" any $rc "$d" "[ $rc = $want ]"
done
N=$((N + 1)); d="$W/$N"; mkdir -p "$d"
(cd "$d" && timeout -k 5 20 bash -c '"$1" -e "while true do pcall(function() for i = 1, 1e6 do end end) end" & p=$!
  sleep 1.5; kill -INT $p; sleep 1; kill -INT $p; wait $p' sh "$RLX" >out 2>err)
rc=$?
judge "pcall loop, two SIGINTs: ends with 130" any $rc "$d" "[ $rc = 130 ]"

echo "== 4. paths a user names that are not regular files: refused within 10 s"
TIMEOUT=10
SETUP='mkfifo f && cp "$FIX/epyc-2c-study.db" s.db'
probe "rlx report --hypotheses FIFO" fail -- "$RLX" report s.db --hypotheses f --out out
probe "rlx shard run FIFO 0" fail -- "$RLX" shard run f 0
SETUP='mkdir -p sc/rlx && mkfifo sc/rlx/init.lua'
probe "RLX_SCRIPTS_DIR with rlx/init.lua a FIFO" fail -- env RLX_SCRIPTS_DIR=sc "$RLX" -e "print(1)"
SETUP='mkfifo f'
probe "rlx env --markdown FIFO (nobody reads it)" fail -- "$RLX" env --markdown f
probe "rlx train --log-dir FIFO" fail -- "${train[@]}" --log-dir f
probe "rlx import-kit FIFO" fail -- "$RLX" import-kit f --db k.db --create
TIMEOUT=60

echo "== 5. nothing rlx did not write is replaced without --force"
SETUP='cp "$FIX/epyc-2c-study.db" s.db && mkdir -p kit/logs && echo "the kit own" >kit/logs/metrics.csv'
probe "export --layout seed into the kit's folder: refused, metrics.csv kept" fail \
  'grep -qx "the kit own" kit/logs/metrics.csv # LOSS' -- "$RLX" export s.db --layout seed --out kit

echo "== 6. validation"
probe "--set batch=4,4: a repeated item, exit 2" fail -- "$RLX" run "$SRC/experiments/all.lua" --set batch=4,4 --dry-run
probe "--set input=100000 --dry-run: the bound" fail -- "$RLX" run "$SRC/experiments/all.lua" --set input=100000 --dry-run
probe "rlx peaks --repeats 1000000000: the bound" fail -- "$RLX" peaks --repeats 1000000000
SETUP='cp "$FIX/epyc-2c-study.db" s.db'
probe "rlx report --title with ESC: refused" fail -- "$RLX" report s.db --title "a${ESC}[2Jb" --out out
SETUP=true
probe "rlx train --label with ESC: refused" fail -- "${train[@]}" --label "a${ESC}[2Jb"
probe "rlx train --label ../x: refused" fail -- "${train[@]}" --label ../x
probe "rlx train --ranks 0: refused" fail -- "${train[@]}" --ranks 0

echo "== 7. messages and exit codes"
SETUP='cp "$1" rlx' ; SETUP="cp '$RLX' rlx"
probe "rlx train without librlx_torch.so: exit 1, one line" fail "[ -z \"\$(grep -c 'Try' err | grep -v '^0$')\" ]" -- ./rlx train --model resnet18 --iters 1
probe "rlx version without librlx_torch.so: one line, no internal position" fail '! grep -q "scripts/rlx" err' -- ./rlx version
SETUP=true
probe "rlx shard run with SLURM_ARRAY_TASK_ID=abc" fail -- env SLURM_ARRAY_TASK_ID=abc "$RLX" shard run "$SRC/README.md"
probe "TERM=dumb: no cursor escapes in rlx train's output" ok '! grep -q "$ESC" err' -- env TERM=dumb "${train[@]}"
probe "rlx.train{ranks = 2} on more ranks than CPUs: refused, named" any \
  -- taskset -c 0 "$RLX" -e "local r = rlx.train{model = 'resnet18', batch = 2, input = 32, iters = 1, warmup = 0, ranks = 2, device = 'cpu'} assert(not r.ok) print(r.error)"
probe "a hypothesis naming precision fp8: refused" fail -- "$RLX" -e "local s = rlx.study{name = 'x', db = 'x.db'} s:hypothesis{'fp8', ratio = {precision = 'fp8', over = 'fp32'}, at_least = 1}"
probe "a hypothesis at_least = inf: refused" fail -- "$RLX" -e "local s = rlx.study{name = 'x', db = 'x.db'} s:hypothesis{'inf', ratio = {precision = 'bf16', over = 'fp32'}, at_least = math.huge}"

total=0
for k in good poor bug loss signal hang; do total=$((total + COUNT[$k])); done
echo
printf 'cases %d: good %d (%d %%), poor %d, bug %d, loss %d, signal %d, hang %d\n' "$total" "${COUNT[good]}" \
  $((100 * COUNT[good] / total)) "${COUNT[poor]}" "${COUNT[bug]}" "${COUNT[loss]}" "${COUNT[signal]}" "${COUNT[hang]}"
