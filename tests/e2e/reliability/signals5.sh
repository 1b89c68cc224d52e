#!/usr/bin/env bash
# signals5.sh RLX: issue 56 item 3. A user's pcall loop swallowed SIGINT and SIGTERM (pcall caught
# the interrupt each time; only kill -9 ended it). Now (util/interrupt.h, docs/cli.md "Signals"):
#   - SIGTERM and SIGHUP end rlx: user Lua code is stopped again at every instruction, so the loop
#     ends at once with 143 / 129; where no hook can reach (a JIT-compiled loop) the process ends
#     2 s after the signal (kInterruptGraceS), with the same status and a line saying so;
#   - a second SIGINT ends it at once with 130 (one SIGINT may still be caught by a script:
#     tests/e2e/host/interrupt.sh);
#   - a pcall around C++ work that SIGTERM stopped (a child program) does not keep the loop going;
#   - supervised (rlx's parent forwards the signal) or not (RLX_SUPERVISE=0), alike;
#   - a sweep stopped that way withdraws its claim (rlx's own cleanup runs, or the supervising
#     parent does it after the deadline) and the database passes PRAGMA integrity_check;
#   - the REPL ends on SIGTERM instead of going back to its prompt.
set -u
RLX=$1
T="$RLX_TEST_TMP/reliability-signals5"
rm -rf "$T"
mkdir -p "$T"
pid=""
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# The bound the docs state is 2 s; a loaded 2-core machine gets 3 s more before this test calls it a hang.
LIMIT_S=5

# Waits until file $1 holds text $2 (60 s: rlx takes seconds to start on a loaded machine).
wait_for() { for _ in $(seq 600); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done; return 1; }

# stop NAME SIGNALS CODE [ENV...]: runs `rlx -e CODE` (it prints "looping" first), sends each
# signal 0.8 s apart (further apart than copies of one signal), and sets rc and secs (from the
# last signal to the end).
stop() {
  local name=$1 sigs=$2 code=$3
  shift 3
  env "$@" "$RLX" -e "io.stderr:write('looping\n') $code" 2>"$T/$name.err" &
  pid=$!
  wait_for "$T/$name.err" looping || fail "$name: the loop did not start: $(cat "$T/$name.err")"
  sleep 0.3
  local first=1 s
  for s in $sigs; do
    [ $first = 1 ] || sleep 0.8
    first=0
    kill -"$s" "$pid"
  done
  local t0 end
  t0=$(date +%s%N)
  for _ in $(seq $((LIMIT_S * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid"
    wait "$pid" 2>/dev/null
    pid=""
    fail "$name: still running ${LIMIT_S} s after SIG$sigs: $(cat "$T/$name.err")"
  fi
  wait "$pid"
  rc=$?
  pid=""
  end=$(date +%s%N)
  secs=$(((end - t0) / 1000000000))
}

LOOP='while true do pcall(function() for i = 1, 1e6 do end end) end'
JIT='jit.on() local x = 0 while true do x = x + 1 end'
for sup in 1 0; do
  stop "term$sup" TERM "$LOOP" RLX_SUPERVISE=$sup
  [ $rc = 143 ] || fail "pcall loop, SIGTERM (supervised=$sup): exit $rc: $(cat "$T/term$sup.err")"
  [ $secs -lt 2 ] || fail "pcall loop, SIGTERM (supervised=$sup): $secs s, not at once"
  grep -qx 'rlx: stopped by SIGTERM' "$T/term$sup.err" || fail "SIGTERM's line: $(cat "$T/term$sup.err")"

  stop "hup$sup" HUP "$LOOP" RLX_SUPERVISE=$sup
  [ $rc = 129 ] || fail "pcall loop, SIGHUP (supervised=$sup): exit $rc: $(cat "$T/hup$sup.err")"

  stop "int$sup" "INT INT" "$LOOP" RLX_SUPERVISE=$sup
  [ $rc = 130 ] || fail "pcall loop, two SIGINTs (supervised=$sup): exit $rc: $(cat "$T/int$sup.err")"
  grep -q '^rlx: SIGINT again: stopped at once' "$T/int$sup.err" || fail "second SIGINT's line: $(cat "$T/int$sup.err")"

  stop "intterm$sup" "INT TERM" "$LOOP" RLX_SUPERVISE=$sup
  [ $rc = 143 ] || fail "pcall loop, SIGINT then SIGTERM (supervised=$sup): exit $rc: $(cat "$T/intterm$sup.err")"

  # SIGTERM stops C++ work (a child program) and the pcall around it catches the interrupt: the
  # hook goes on and stops the loop at once, without waiting for the deadline.
  stop "child$sup" TERM "while true do pcall(rlx._core.host.run, {'sleep', '5'}) end" RLX_SUPERVISE=$sup
  [ $rc = 143 ] || fail "pcall loop around a child, SIGTERM (supervised=$sup): exit $rc: $(cat "$T/child$sup.err")"
  grep -q 'still running' "$T/child$sup.err" && fail "pcall loop around a child: ended by the deadline, not at once"

  # A compiled loop runs no hook: the deadline ends it, 2 s after the signal.
  stop "jit$sup" TERM "$JIT" RLX_SUPERVISE=$sup
  [ $rc = 143 ] || fail "JIT loop, SIGTERM (supervised=$sup): exit $rc: $(cat "$T/jit$sup.err")"
  [ $secs -ge 1 ] || fail "JIT loop: ended after $secs s, before the grace"
  grep -q '^rlx: SIGTERM, and still running 2 s later: stopped at once' "$T/jit$sup.err" ||
    fail "the deadline's line: $(cat "$T/jit$sup.err")"
done

# A sweep whose trainer (the user's code) spins in a pcall loop: SIGTERM ends it, its claim is
# withdrawn and the database stays whole; a rerun trains the slot.
cat >"$T/sweep.lua" <<'EOF'
local P = rlx.params
local study = rlx.study{name = "sig", db = P.db, label = "test"}
local function trainer(o)
  if o.label == P.spin_label then
    io.stderr:write("training " .. o.label .. "\n")
    if P.jit then jit.on() local x = 0 while true do x = x + 1 end end
    while true do pcall(function() for i = 1, 1e6 do end end) end
  end
  local s = {}
  for i = 1, o.iters do s[i] = 0.01 * i end
  return {ok = true, images_per_s = 100 * o.batch, seconds = 0.01 * o.iters, samples = s,
    iter_s = {mean = 0.02, sd = 0.01, median = 0.02, min = 0.01, max = 0.03, p5 = 0.01, p95 = 0.03}}
end
local r = study:sweep{models = {"m1"}, batch = {2, 4}, repeats = 1, iters = 3, warmup = 0, trainer = trainer,
  quiet = true}
print(string.format("ran %d skipped %d", r.ran, r.skipped))
EOF
X=test_m1_fp32_bs4_run1
check_db() {  # $1: what stopped it
  local db=$1 why=$2
  [ "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok ] || fail "$why: integrity_check: $(sqlite3 "$db" 'PRAGMA integrity_check')"
  local rows
  rows=$(sqlite3 "$db" "SELECT label || ':' || status FROM runs ORDER BY label" | tr '\n' ' ')
  [ "$rows" = "test_m1_fp32_bs2_run1:ok " ] || fail "$why: the rows after the signal: '$rows'"
  env "$RLX" run "$T/sweep.lua" --set db="$db" >"$T/rerun.out" 2>&1 || fail "$why: rerun: $(cat "$T/rerun.out")"
  grep -qx 'ran 1 skipped 1' "$T/rerun.out" || fail "$why: the rerun did not train the slot again: $(cat "$T/rerun.out")"
}
for how in hook jit; do
  db="$T/$how.db"
  extra=()
  [ $how = jit ] && extra=(--set jit=1)
  "$RLX" run "$T/sweep.lua" --set db="$db" --set spin_label=$X "${extra[@]}" >/dev/null 2>"$T/sweep-$how.err" &
  pid=$!
  wait_for "$T/sweep-$how.err" "^training $X" || fail "sweep ($how): the slot did not start: $(cat "$T/sweep-$how.err")"
  kill -TERM $pid
  for _ in $(seq $((LIMIT_S * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && fail "sweep ($how): still running ${LIMIT_S} s after SIGTERM"
  wait $pid
  rc=$?
  pid=""
  [ $rc = 143 ] || fail "sweep ($how): exit $rc: $(cat "$T/sweep-$how.err")"
  # Withdrawn by the sweep itself (the hook) or by the supervising parent (the deadline).
  grep -q "$X: not finished (.*SIGTERM\|exit status 143).*withdrawn" "$T/sweep-$how.err" ||
    fail "sweep ($how): no withdrawal line: $(cat "$T/sweep-$how.err")"
  check_db "$db" "sweep ($how)"
done

# The REPL on a pipe: SIGTERM during an evaluation ends the REPL (143), not only the evaluation.
mkfifo "$T/in"
"$RLX" repl <"$T/in" >"$T/repl.out" 2>"$T/repl.err" &
pid=$!
exec 3>"$T/in"
echo "io.stderr:write('looping\n') $LOOP" >&3
wait_for "$T/repl.err" looping || fail "the REPL did not start the loop"
kill -TERM $pid
for _ in $(seq $((LIMIT_S * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && fail "the REPL still runs ${LIMIT_S} s after SIGTERM"
exec 3>&-
wait $pid
rc=$?
pid=""
[ $rc = 143 ] || fail "the REPL after SIGTERM: exit $rc: $(cat "$T/repl.err")"
echo ok
