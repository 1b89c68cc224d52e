#!/usr/bin/env bash
# affinity.sh RLX: rlx counts the CPUs it may run on (its affinity mask: taskset, a Slurm task's
# cpuset), not the machine's (engine/util/cpu_stat.h). Pinned to CPU 0 while two shells spin on
# CPU 1: the default thread count is 1, the load sampled at start sees CPU 0 only (libgomp's
# default waiting kept), and a training run is not flagged contended by work on the other CPU.
# Unpinned, the same load is seen (the control: the spinners are real). Runs alone (RUN_SERIAL):
# another test on CPU 0 would be real contention.
set -u
RLX=$1
fail() { echo "FAIL: $*"; exit 1; }
command -v taskset >/dev/null || { echo "taskset not installed (util-linux): skipped"; exit 77; }
taskset -c 1 true 2>/dev/null || { echo "no CPU 1 to load: skipped"; exit 77; }
train='local r = rlx.train{model = dofile("tests/e2e/train/tiny_model.lua"), batch = 8, input = 32, classes = 3,
  iters = 40, warmup = 2}
print(r.ok, r.threads, r.contended, string.format("%.2f", r.other_cpu))'
note='print(rlx.version().openmp_wait)'

got=$(taskset -c 0 "$RLX" -e "$train")
[[ "$got" =~ ^true$'\t'1$'\t' ]] || fail "pinned to one CPU, idle: $got (want ok and 1 thread)"

spinners=()
for _ in 1 2; do taskset -c 1 bash -c 'while :; do :; done' & spinners+=($!); done
trap 'kill "${spinners[@]}" 2>/dev/null' EXIT
sleep 0.5
got=$(env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY "$RLX" -e "$note")
[[ "$got" == "openmp: GOMP_SPINCOUNT="* ]] || fail "unpinned beside the spinners: $got (want the short spin)"
got=$(env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY taskset -c 0 "$RLX" -e "$note")
[[ "$got" == "openmp: libgomp's default waiting"* ]] || fail "pinned to CPU 0 beside CPU 1's spinners: $got"
read -r ok threads contended other < <(env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY taskset -c 0 "$RLX" -e "$train")
[ "$ok $threads $contended" = "true 1 false" ] || fail "pinned run: ok $ok, threads $threads, contended $contended"
awk -v o="$other" 'BEGIN{exit !(o < 0.5)}' || fail "pinned run: other processes used $other of its 1 CPU"
echo ok
