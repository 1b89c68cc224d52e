#!/usr/bin/env bash
# openmp_wait.sh RLX: libgomp's waiting chosen before LibTorch (and libgomp) load
# (engine/startup/openmp_choice.h). The idle case cannot be asserted while ctest runs other tests
# beside this one, so the machine is made busy on purpose (two spinning shells, ~2 cores) and the
# shared case is checked, with the user's choice, invalid OpenMP variables (issue 48 item 4:
# treated as unset with one warning of rlx's, libgomp printing none), OMP_NUM_THREADS's bound
# (item 3: the same as --threads), what reaches a child process, and the commands that do not
# sample.
set -u
RLX=$1
fail() { echo "FAIL: $*"; exit 1; }
note='print(rlx.version().openmp_wait)'
clean=(env -u GOMP_SPINCOUNT -u OMP_WAIT_POLICY -u OMP_NUM_THREADS)

got=$("${clean[@]}" OMP_WAIT_POLICY=PASSIVE "$RLX" -e "$note")
[ "$got" = "openmp: waiting left as the environment sets it (OMP_WAIT_POLICY=PASSIVE)" ] || fail "user policy: $got"
got=$("${clean[@]}" GOMP_SPINCOUNT=123 OMP_WAIT_POLICY=active "$RLX" -e "$note")
[ "$got" = "openmp: waiting left as the environment sets it (OMP_WAIT_POLICY=active, GOMP_SPINCOUNT=123)" ] ||
  fail "user spin count: $got"
got=$("${clean[@]}" GOMP_SPINCOUNT=' 20k ' "$RLX" -e "$note")
[ "$got" = "openmp: waiting left as the environment sets it (GOMP_SPINCOUNT= 20k )" ] || fail "spin count 20k: $got"
got=$("${clean[@]}" "$RLX" version | grep -c "openmp: libgomp's default waiting (not chosen in this program)")
[ "$got" = 1 ] || fail "rlx version sampled the load"

# Invalid values: one warning each, in rlx's words (libgomp never sees them, so it prints none),
# rlx's own choice applies, and the record says what was ignored.
record='local w = rlx.version().startup.openmp_wait
print(w.choice, w.ignored and rlx.json.encode(w.ignored), os.getenv("OMP_WAIT_POLICY"), os.getenv("GOMP_SPINCOUNT"))'
for v in abc banana -5 1e23; do
  out=$("${clean[@]}" OMP_WAIT_POLICY="$v" "$RLX" -e "$record" 2>"$RLX_TEST_TMP/omp.err")
  err=$(cat "$RLX_TEST_TMP/omp.err")
  [ "$err" = "rlx: ignoring OMP_WAIT_POLICY=\"$v\": not a wait policy (ACTIVE or PASSIVE); rlx goes on as if it were unset" ] ||
    fail "OMP_WAIT_POLICY=$v: stderr: $err"
  [[ "$out" =~ ^(libgomp_default|short_spin|load_unknown)$'\t'\{\"OMP_WAIT_POLICY\":\"$v\"\}$'\t'nil$'\t'nil$ ]] ||
    fail "OMP_WAIT_POLICY=$v: $out"
  out=$("${clean[@]}" GOMP_SPINCOUNT="$v" "$RLX" -e "$record" 2>"$RLX_TEST_TMP/omp.err")
  err=$(cat "$RLX_TEST_TMP/omp.err")
  [ "$err" = "rlx: ignoring GOMP_SPINCOUNT=\"$v\": not a spin count (a whole number with an optional k, M, G or T, or INFINITE); rlx goes on as if it were unset" ] ||
    fail "GOMP_SPINCOUNT=$v: stderr: $err"
  [[ "$out" =~ ^(libgomp_default|short_spin|load_unknown)$'\t'\{\"GOMP_SPINCOUNT\":\"$v\"\}$'\t'nil$'\t'nil$ ]] ||
    fail "GOMP_SPINCOUNT=$v: $out"
done
# OMP_NUM_THREADS that is not a count is ignored the same way; the training's threads are rlx's
# default then (one per CPU it may run on).
out=$("${clean[@]}" OMP_NUM_THREADS=abc "$RLX" -e 'local w = rlx.version().startup.openmp_wait
print(w.ignored.OMP_NUM_THREADS, rlx.env.default_threads().from)' 2>"$RLX_TEST_TMP/omp.err")
[ "$(cat "$RLX_TEST_TMP/omp.err")" = 'rlx: ignoring OMP_NUM_THREADS="abc": not a thread count (a whole number from 1, or a list such as 4,2); rlx goes on as if it were unset' ] ||
  fail "OMP_NUM_THREADS=abc: stderr: $(cat "$RLX_TEST_TMP/omp.err")"
[ "$out" = $'abc\tcpus' ] || fail "OMP_NUM_THREADS=abc: $out"
# OMP_NUM_THREADS above --threads' bound stops the commands that train at once, as --threads does.
hw=$(getconf _NPROCESSORS_ONLN)
want="rlx: OMP_NUM_THREADS must be at most $((8 * hw)) (8 per hardware thread; this machine has $hw), got 999; set it to a smaller count or unset it"
for cmd in "-e print(1)" "train --model resnet18 --iters 1"; do
  # shellcheck disable=SC2086
  got=$(timeout 60 env OMP_NUM_THREADS=999 "$RLX" $cmd 2>&1); rc=$?
  [ "$rc" = 2 ] && [ "$got" = "$want" ] || fail "OMP_NUM_THREADS=999 rlx $cmd: exit $rc: $got"
done
got=$(timeout 60 env OMP_NUM_THREADS=4,999 "$RLX" -e 'print(1)' 2>&1); rc=$?
[ "$rc" = 2 ] && [ "$got" = "$want" ] || fail "OMP_NUM_THREADS=4,999: exit $rc: $got"
got=$("$RLX" train --model resnet18 --threads 999 --iters 1 2>&1 | head -1)
[ "$got" = "rlx train: option 'threads' must be at most $((8 * hw)) (8 per hardware thread; this machine has $hw), got 999" ] ||
  fail "--threads 999: $got"
[ "$(OMP_NUM_THREADS=999 "$RLX" runs --help >/dev/null 2>&1; echo $?)" = 0 ] || fail "a command that does not train refused OMP_NUM_THREADS"

spinners=()
for _ in 1 2; do (while :; do :; done) & spinners+=($!); done
trap 'kill "${spinners[@]}" 2>/dev/null' EXIT
sleep 0.5
got=$("${clean[@]}" "$RLX" -e "$note")
shared_re='^openmp: GOMP_SPINCOUNT=([0-9]+), a short spin before sleeping \(([0-9.]+) ms at ([0-9.]+) ns a spin, measured\): [0-9.]+ other cores busy at start \(a long spin holds a core the other thread needs\)$'
[[ "$got" =~ $shared_re ]] || fail "shared machine: $got"
# The count is the wait (0.27 ms, engine/util/openmp_wait.h) over the spin measured on this core,
# rounded (the spin is printed to 0.01 ns), and the printed wait is the count times the spin.
spins=${BASH_REMATCH[1]} wait_ms=${BASH_REMATCH[2]} spin=${BASH_REMATCH[3]}
awk -v n="$spins" -v s="$spin" -v ms="$wait_ms" 'BEGIN{
  if (n == 100 || n == 300000) exit 0
  if ((n * s - 270000)^2 > (0.5 * s + 0.005 * n)^2 || (ms - n * s / 1e6)^2 > 0.006^2) exit 1 }' ||
  fail "spin count $spins at $spin ns a spin, $wait_ms ms"
# No restart for it (libgomp reads the variable when LibTorch loads), and the variable is taken out
# of the environment once read: a child process decides for itself.
got=$("${clean[@]}" "$RLX" -e 'local s = rlx.version().startup print(#s.restarts, s.openmp_wait.choice,
  os.getenv("GOMP_SPINCOUNT"))')
[ "$got" = $'0\tshort_spin\tnil' ] || fail "after the load: $got"
# Training records what it used in its result, as fields.
got=$("${clean[@]}" "$RLX" train --model resnet18 --input 16 --classes 3 --batch-size 2 --iters 1 \
  --warmup-iters 0 --threads 1 --memory-format contiguous --json 2>/dev/null |
  "$RLX" -e 'local w = rlx.json.decode(io.read("*a")).startup.openmp_wait print(w.choice, w.spin_count > 0, w.sample_ms)')
[ "$got" = $'short_spin\ttrue\t80' ] || fail "train result: $got"
echo ok
