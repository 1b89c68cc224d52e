#!/usr/bin/env bash
# data_parallel.sh RLX TMP: data-parallel runs on c10d with Gloo, 2 ranks on this CPU (issue 52):
# the result's figures against their formulas, the console line, a study that stores one row per
# run with its ranks, and the faults: ranks above the CPUs, the rendezvous port in use, a rank
# killed with -9, Ctrl-C, a rank that cannot start, options that cannot be data-parallel. Each
# fault must end within seconds, leave no rank behind and write nothing half-done.
set -u
RLX=$1
TMP=$2/data_parallel
rm -rf "$TMP" && mkdir -p "$TMP"
fail() { echo "FAIL: $*"; exit 1; }
ranks_left() { pgrep -f "$1 _rank" >/dev/null; }
MODEL='dofile("tests/e2e/train/tiny_model.lua")'

# 1. Two ranks, one thread each: global figures from the ranks' own, by their formulas.
out=$("$RLX" -e "local r = rlx.train{model = $MODEL, batch = 8, input = 32, classes = 3, iters = 6, warmup = 1,
  ranks = 2, device = 'cpu'}
assert(r.ok, r.error)
local dp = r.data_parallel
local params = rlx.model.summary{model = $MODEL, input = 32, classes = 3}.params
-- global images/s = ranks x batch x iters / the slowest rank's seconds = 2 x the slowest rank's rate
local slowest = math.min(dp.per_rank[1].images_per_s, dp.per_rank[2].images_per_s)
print(r.ranks, r.global_batch, dp.backend, dp.launcher, #dp.per_rank, dp.threads_per_rank, dp.reducer,
  math.abs(r.images_per_s - 2 * slowest) < 1e-6 * r.images_per_s,
  dp.grad_bytes_per_step == 4 * params, dp.param_bytes == 4 * params,
  math.abs(dp.comm_share - dp.allreduce_s / r.iter_s.mean) < 1e-9,
  dp.total_max_rss_bytes == dp.per_rank[1].max_rss_bytes + dp.per_rank[2].max_rss_bytes,
  dp.per_rank[1].rank, dp.per_rank[2].rank, dp.per_rank[1].pid ~= dp.per_rank[2].pid)")
want=$'2\t16\tgloo\tlocal\t2\t1\tc10d::Reducer\ttrue\ttrue\ttrue\ttrue\ttrue\t0\t1\ttrue'
[ "$out" = "$want" ] || fail "2-rank run: got '$out', want '$want'"

# Each local rank pinned to a CPU of its own (as srun binds a task); RLX_RANK_PIN=0 leaves them floating.
pins=$("$RLX" -e "local r = rlx.train{model = $MODEL, batch = 4, input = 32, classes = 3, iters = 2, warmup = 0, ranks = 2,
  device = 'cpu'} local p = r.data_parallel.per_rank print(p[1].cpus ~= '' and p[2].cpus ~= '' and p[1].cpus ~= p[2].cpus)")
[ "$pins" = true ] || fail "pinned ranks: $pins"
pins=$(RLX_RANK_PIN=0 "$RLX" -e "local r = rlx.train{model = $MODEL, batch = 4, input = 32, classes = 3, iters = 2, warmup = 0,
  ranks = 2, device = 'cpu'} print(r.data_parallel.per_rank[1].cpus .. '|' .. r.data_parallel.per_rank[2].cpus)")
[ "$pins" = "|" ] || fail "RLX_RANK_PIN=0: $pins"

# 2. The console line says the batch is per rank and the rate global.
line=$("$RLX" train --model tests/e2e/train/tiny_model.lua --input 32 --classes 3 --batch-size 8 --iters 3 \
  --warmup-iters 1 --ranks 2 --device cpu 2>&1) || fail "rlx train --ranks 2: $line"
[[ "$line" == "tiny cpu fp32 batch 8 x 2 ranks (global 16): "*" img/s over all ranks ("*"1 threads per rank"*"gloo all-reduce "* ]] ||
  fail "console line: $line"

# 3. A study sweeps ranks like precision: one row per run, ranks and global batch as columns.
"$RLX" -e "local s = rlx.study{name = 'dp', db = '$TMP/dp.db'}
s:sweep{models = {'resnet18'}, batch = {4}, ranks = {1, 2}, input = 32, classes = 10, iters = 3, warmup = 1, quiet = true}" \
  >/dev/null 2>&1 || fail "study with ranks = {1, 2} failed"
rows=$(sqlite3 "$TMP/dp.db" "SELECT ranks, global_batch, batch, status, label LIKE '%_2ranks_%' FROM runs ORDER BY ranks")
[ "$rows" = $'1|4|4|ok|0\n2|8|4|ok|1' ] || fail "stored rows: $rows"
per_rank=$(sqlite3 "$TMP/dp.db" "SELECT json_array_length(result, '\$.data_parallel.per_rank') FROM runs WHERE ranks = 2")
[ "$per_rank" = 2 ] || fail "the 2-rank row's per-rank figures: '$per_rank'"

# 4. More ranks than CPUs: refused before any rank starts, the reason and the fix in one line.
out=$(taskset -c "$(cut -d, -f1 <<<"$(awk '/^Cpus_allowed_list/ {print $2}' /proc/self/status | tr '-' ',')")" \
  "$RLX" -e "local r = rlx.train{model = $MODEL, batch = 4, input = 32, classes = 3, iters = 2, warmup = 0, ranks = 2,
  device = 'cpu'} print(r.ok, r.error)")
[ "$out" = $'false\tranks=2 needs a CPU per rank, and this process may use 1 CPU(s): lower ranks to 1 or fewer' ] ||
  fail "ranks above the CPUs: $out"

# 5. The rendezvous port in use.
python3 -c 'import socket,sys,time
s = socket.socket(); s.bind(("0.0.0.0", 0)); s.listen(); print(s.getsockname()[1], flush=True); time.sleep(30)' \
  >"$TMP/port" &
holder=$!
for _ in $(seq 50); do [ -s "$TMP/port" ] && break; sleep 0.1; done
port=$(cat "$TMP/port")
out=$("$RLX" -e "local r = rlx.train{model = $MODEL, batch = 4, input = 32, classes = 3, iters = 2, warmup = 0, ranks = 2,
  device = 'cpu', rendezvous_port = $port} print(r.ok, r.error)")
kill "$holder" 2>/dev/null
[ "$out" = "false	rendezvous_port $port is in use (another run or program listens there): choose another rendezvous_port, or leave it unset for a free one" ] ||
  fail "port in use: $out"

# 6. A rank killed with -9: the run fails naming it, the other rank is stopped, within seconds.
"$RLX" -e "local r = rlx.train{model = $MODEL, batch = 8, input = 32, classes = 3, iters = 100000, warmup = 1, ranks = 2,
  device = 'cpu'} print(r.ok, r.error)" >"$TMP/k9" 2>&1 &
launcher=$!
for _ in $(seq 100); do [ "$(pgrep -c -f "$RLX _rank")" = 2 ] && break; sleep 0.1; done
sleep 1
kill -9 "$(pgrep -n -f "$RLX _rank")"
start=$SECONDS
wait "$launcher"
(( SECONDS - start <= 10 )) || fail "the run took $((SECONDS - start)) s to end after a rank was killed"
grep -qE $'^false\trank [01] of 2 was killed by signal 9 \\(SIGKILL\\) while training; the other ranks were stopped$' "$TMP/k9" ||
  fail "rank killed: $(cat "$TMP/k9")"
ranks_left "$RLX" && fail "a rank outlived its run"

# 7. Ctrl-C (SIGINT to the foreground process group): rlx's interrupt, every rank ended.
cat >"$TMP/long.lua" <<LUA
rlx.train{model = $MODEL, batch = 8, input = 32, classes = 3, iters = 100000, warmup = 1, ranks = 2, device = 'cpu'}
LUA
setsid "$RLX" run "$TMP/long.lua" >"$TMP/cc" 2>&1 &
leader=$!
for _ in $(seq 100); do [ "$(pgrep -c -f "$RLX _rank")" = 2 ] && break; sleep 0.1; done
sleep 1
kill -INT -- -"$leader"
wait "$leader"
rc=$?
[ "$rc" = 130 ] || fail "Ctrl-C: exit $rc ($(cat "$TMP/cc"))"
grep -qx "rlx: interrupted" "$TMP/cc" || fail "Ctrl-C: $(cat "$TMP/cc")"
sleep 0.5
ranks_left "$RLX" && fail "a rank outlived Ctrl-C"

# 8. A rank that cannot start (the executable is gone): the run fails at once and says so.
mkdir -p "$TMP/bin" && cp "$RLX" "$(dirname "$RLX")/librlx_torch.so" "$TMP/bin/"
out=$("$TMP/bin/rlx" -e "rlx.devices() os.remove('$TMP/bin/rlx')
local r = rlx.train{model = $MODEL, batch = 4, input = 32, classes = 3, iters = 2, warmup = 0, ranks = 2,
  device = 'cpu'} print(r.ok, r.error)")
[[ "$out" == $'false\ta rank could not be started: \''"$TMP/bin/rlx (deleted)': No such file or directory (was rlx rebuilt or moved while it ran? start the run again)" ]] ||
  fail "a rank that cannot start: $out"

# 9. What data-parallel runs cannot do is refused from the options, naming the fix.
check_refusal() {
  local opts=$1 want=$2 got
  got=$("$RLX" -e "rlx.train{model = $MODEL, batch = 4, input = 32, ranks = 2, $opts}" 2>&1)
  [[ "$got" == *"$want"* ]] || fail "ranks = 2, $opts: $got"
}
check_refusal "device = 'cuda:0'" 'device "cuda:0" names one GPU, and ranks=2 needs one GPU per rank: use device="cuda"'
check_refusal "min_stable = true" "min_stable extends each rank's timed section on its own"
check_refusal "counters = true" "option 'counters' are collected in one process, and ranks > 1 trains in several"
check_refusal "rendezvous_port = 70000" "option 'rendezvous_port' must be at most 65535, got 70000"
got=$("$RLX" -e "rlx.train{model = $MODEL, ranks = 0}" 2>&1)
[ "$got" = "(command line):1: rlx.train: option 'ranks' must be an integer >= 1, got 0" ] || fail "ranks = 0: $got"
got=$("$RLX" train --model resnet18 --ranks 0 2>&1)
[[ "$got" == "rlx train: --ranks must be an integer from 1 to 1024, got '0'"* ]] || fail "--ranks 0: $got"
echo ok
