#!/usr/bin/env bash
# openmp_wait.sh RLX: libgomp's waiting chosen at start (engine/util/openmp_wait.h). The idle
# case cannot be asserted while ctest runs other tests beside this one, so the machine is made
# busy on purpose (two spinning shells, ~2 cores) and the shared case is checked, with the user's
# choice, an inherited choice and the commands that do not sample.
set -u
RLX=$1
fail() { echo "FAIL: $*"; exit 1; }
note='print(rlx.version().openmp_wait)'
# The Lua runs in the child of rlx's supervisor (engine/util/supervisor.h): the process that
# started, and restarted, is its parent.
pid_and_env='local f = io.open("/proc/self/stat"); local ppid = f:read("*a"):match("^%d+ %b() %S+ (%d+)"); f:close()
print(ppid, os.getenv("RLX_OMP_WAIT"), os.getenv("GOMP_SPINCOUNT"))'

got=$(OMP_WAIT_POLICY=PASSIVE "$RLX" -e "$note")
[ "$got" = "openmp: waiting left as the environment sets it (OMP_WAIT_POLICY=PASSIVE)" ] || fail "user policy: $got"
got=$(GOMP_SPINCOUNT=123 OMP_WAIT_POLICY=active "$RLX" -e "$note")
[ "$got" = "openmp: waiting left as the environment sets it (OMP_WAIT_POLICY=active, GOMP_SPINCOUNT=123)" ] ||
  fail "user spin count: $got"
got=$("$RLX" version | grep -c "openmp: libgomp's default waiting (not chosen in this program)")
[ "$got" = 1 ] || fail "rlx version sampled the load"

spinners=()
for _ in 1 2; do (while :; do :; done) & spinners+=($!); done
trap 'kill "${spinners[@]}" 2>/dev/null' EXIT
sleep 0.5
got=$(env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY "$RLX" -e "$note")
[[ "$got" =~ ^openmp:\ GOMP_SPINCOUNT=10000,\ a\ short\ spin\ before\ sleeping:\ [0-9.]+\ other\ cores\ busy\ at\ start\ \(a\ long\ spin\ holds\ a\ core\ the\ other\ thread\ needs\)$ ]] ||
  fail "shared machine: $got"
# The restart keeps the pid (execve) and marks the spin count as rlx's own.
read -r pid marker count < <(env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY "$RLX" -e "$pid_and_env")
[ "$marker" = "$pid" ] && [ "$count" = 10000 ] || fail "restart: pid $pid, RLX_OMP_WAIT=$marker, GOMP_SPINCOUNT=$count"
# A spin count a parent rlx chose (another pid in the marker) is not the user's: decided again.
read -r pid marker count < <(RLX_OMP_WAIT=1 GOMP_SPINCOUNT=10000 "$RLX" -e "$pid_and_env")
[ "$marker" = "$pid" ] && [ "$count" = 10000 ] || fail "inherited: pid $pid, RLX_OMP_WAIT=$marker, GOMP_SPINCOUNT=$count"
got=$(RLX_OMP_WAIT=1 GOMP_SPINCOUNT=10000 "$RLX" -e "$note")
[[ "$got" == "openmp: GOMP_SPINCOUNT=10000, a short spin"* ]] || fail "inherited note: $got"
# Training records what it used in its result.
got=$(env -u GOMP_SPINCOUNT "$RLX" train --model resnet18 --input 16 --classes 3 --batch-size 2 --iters 1 \
  --warmup-iters 0 --threads 1 --memory-format contiguous --json 2>/dev/null | grep '"openmp_wait"')
[[ "$got" == *'"openmp: GOMP_SPINCOUNT=10000, a short spin'* ]] || fail "train result: $got"
echo ok
