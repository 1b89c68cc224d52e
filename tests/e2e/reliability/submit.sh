#!/usr/bin/env bash
# submit.sh RLX: hostile input to `rlx submit` (issue 25 finding 9), no cluster needed. A line
# break in --sbatch-arg (or any value that becomes a line of the sbatch script: refused as every
# flag's control characters are, issue 56) and a job name with
# a quote are usage errors (one added `echo INJECTED` to the job script); --set declare=1 is the
# usage error rlx run gives (it exited 1); SIGTERM while the script is being planned stops the
# planning child too and removes its plan file (both were left behind, the child at 100 % CPU).
set -u
RLX=$1
T="$RLX_TEST_TMP/reliability-submit"
rm -rf "$T"
mkdir -p "$T"
fail() { echo "FAIL: $*"; exit 1; }
printf 'print("planned")\n' >"$T/s.lua"

usage() {
  local want=$1
  shift
  "$RLX" submit "$T/s.lua" --dry-run "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" = 2 ] || fail "exit $rc for $*: $(cat "$T/err")"
  [ "$(head -1 "$T/err")" = "$want" ] || fail "for $*: '$(head -1 "$T/err")', expected '$want'"
  ! grep -q INJECTED "$T/out" || fail "the injected line reached the script: $(cat "$T/out")"
}
usage "rlx submit: --sbatch-arg '--account=lab\\necho INJECTED': the value holds a control character (shown as \\ddd; a line break, a tab, ESC): type it without" \
  --sbatch-arg=$'--account=lab\necho INJECTED'
usage "rlx submit: --partition 'gpu\\necho INJECTED': the value holds a control character (shown as \\ddd; a line break, a tab, ESC): type it without" \
  --partition $'gpu\necho INJECTED'
usage "rlx submit: --job-name 'a\"b': a job name may hold letters, digits, '.', '_' and '-' only" --job-name 'a"b'
usage "rlx submit: --set declare=...: 'declare' is reserved (rlx.params.declare); give the parameter another name" \
  --set declare=1

# SIGTERM while planning: the planning rlx ends too and its plan file is gone.
printf 'io.open(os.getenv("RLX_TEST_MARK"), "w"):close()\nwhile true do end\n' >"$T/spin.lua"
RLX_TEST_MARK="$T/started" "$RLX" submit "$T/spin.lua" --dry-run >"$T/out" 2>"$T/err" &
pid=$!
for _ in $(seq 600); do [ -e "$T/started" ] && break; sleep 0.1; done
[ -e "$T/started" ] || { kill -9 "$pid"; fail "the plan did not start: $(cat "$T/err")"; }
child=$(ps -o pid= --ppid "$pid" | tr -d ' ' | head -1)
[ -n "$child" ] || { kill -9 "$pid"; fail "no planning child"; }
plan=$(tr '\0' '\n' <"/proc/$child/cmdline" | grep -o '/tmp/lua_[A-Za-z0-9]*' | head -1)
[ -n "$plan" ] && [ -e "$plan" ] || { kill -9 "$pid"; fail "no plan file in the child's command line"; }
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" = 143 ] || fail "rlx submit after SIGTERM: exit $rc: $(cat "$T/err")"
for _ in $(seq 50); do kill -0 "$child" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$child" 2>/dev/null; then kill -9 "$child"; fail "the planning child $child still runs"; fi
[ ! -e "$plan" ] || fail "the plan file $plan was left behind"
grep -q "^rlx: stopped by SIGTERM$" "$T/err" || fail "no line saying why: $(cat "$T/err")"
echo ok
