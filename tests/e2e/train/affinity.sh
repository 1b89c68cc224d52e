#!/usr/bin/env bash
# affinity.sh RLX: rlx counts the CPUs it may run on (its affinity mask: taskset, a Slurm task's
# cpuset), not the machine's (engine/util/cpu_stat.h). Pinned to one CPU while two shells spin on
# another: the default thread count is 1, the load sampled at start sees the pinned CPU only
# (libgomp's default waiting kept), and a training run is not flagged contended by work on the
# other CPU. Unpinned, the same load is seen (the control: the spinners are real). OMP_PROC_BIND,
# with which libgomp pins the main thread to one place as it loads, still gets one thread per CPU,
# also with the short spin the load makes rlx set. Runs alone (RUN_SERIAL): another test on the
# pinned CPU would be real contention.
set -u
RLX=$1
fail() { echo "FAIL: $*"; exit 1; }
command -v taskset >/dev/null || { echo "taskset not installed (util-linux): skipped"; exit 77; }
# The first two CPUs this test may use (its cpuset need not start at CPU 0): A pinned, B loaded
# (the rest of a longer list, e.g. a cpuset 8-15, is dropped).
read -r A B _ < <(awk '/^Cpus_allowed_list/ { n = split($2, parts, ","); out = ""
  for (i = 1; i <= n; i++) { m = split(parts[i], r, "-"); hi = m > 1 ? r[2] : r[1]
    for (c = r[1]; c <= hi; c++) out = out " " c }
  print out }' /proc/self/status)
[ -n "${B:-}" ] || { echo "fewer than two CPUs to use: skipped"; exit 77; }
train='local r = rlx.train{model = dofile("tests/e2e/train/tiny_model.lua"), batch = 8, input = 32, classes = 3,
  iters = 40, warmup = 2}
print(r.ok, r.threads, r.contended, string.format("%.2f", r.other_cpu))'
note='print(rlx.version().openmp_wait)'

cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
got=$(taskset -c "$A" "$RLX" -e "$train")
[[ "$got" =~ ^true$'\t'1$'\t' ]] || fail "pinned to one CPU, idle: $got (want ok and 1 thread)"
got=$(OMP_PROC_BIND=true "$RLX" -e "$train")
[[ "$got" =~ ^true$'\t'$cpus$'\t' ]] || fail "OMP_PROC_BIND=true: $got (want $cpus threads)"

spinners=()
for _ in 1 2; do taskset -c "$B" bash -c 'while :; do :; done' & spinners+=($!); done
trap 'kill "${spinners[@]}" 2>/dev/null' EXIT
sleep 0.5
got=$(env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY "$RLX" -e "$note")
[[ "$got" == "openmp: GOMP_SPINCOUNT="* ]] || fail "unpinned beside the spinners: $got (want the short spin)"
got=$(env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY OMP_PROC_BIND=true "$RLX" -e "$train")
[[ "$got" =~ ^true$'\t'$cpus$'\t' ]] || fail "OMP_PROC_BIND=true, a short spin for the load: $got (want $cpus threads)"
got=$(env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY taskset -c "$A" "$RLX" -e "$note")
[[ "$got" == "openmp: libgomp's default waiting"* ]] || fail "pinned to CPU $A beside CPU $B's spinners: $got"
read -r ok threads contended other < <(env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY taskset -c "$A" "$RLX" -e "$train")
[ "$ok $threads $contended" = "true 1 false" ] || fail "pinned run: ok $ok, threads $threads, contended $contended"
awk -v o="$other" 'BEGIN{exit !(o < 0.5)}' || fail "pinned run: other processes used $other of its 1 CPU"
echo ok
