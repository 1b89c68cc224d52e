#!/usr/bin/env bash
# The OpenBLAS kernel choice before LibTorch loads (engine/startup/blas_choice.h), through the real
# child processes: RLX_TEST_BLAS_CORENAME=Prescott makes rlx believe OpenBLAS fell back to
# Prescott, so on any x86 machine with AVX2+FMA rlx checks the better kernel in a child process and
# loads LibTorch with OPENBLAS_CORETYPE set; RLX_TEST_BLAS_CHECK=fail makes that check see a wrong
# product. The expected kernel follows from this machine's /proc/cpuinfo flags, worked out here
# independently of rlx.
set -u
rlx=$1
tmp=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/blas.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; for f in "$tmp"/*; do echo "--- $f"; cat "$f"; done; exit 1; }

"$rlx" version --json >"$tmp/version.json" || fail "rlx version --json"
grep -q '"name": "OpenBLAS"' "$tmp/version.json" || { echo "SKIP: the BLAS is not OpenBLAS"; exit 77; }

flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
has() { for f in "$@"; do [[ "$flags" == *" $f "* ]] || return 1; done; }
if has avx512f avx512bw avx512vl avx512dq avx2 fma; then want=SkylakeX; want_env=SKYLAKEX
elif has avx avx2 fma; then want=Haswell; want_env=HASWELL
else want=""; fi
unset OPENBLAS_CORETYPE RLX_BLAS_AUTO

# 1. Without the hook: whatever OpenBLAS or rlx chose, the line names it and says why.
"$rlx" version >"$tmp/plain.out" || fail "rlx version"
grep -Eq '^BLAS +OpenBLAS [0-9.]+, [a-z]+ build; kernel [A-Za-z0-9_]+ \(.+\)$' "$tmp/plain.out" ||
  fail "rlx version has no BLAS kernel line"

export RLX_TEST_BLAS_CORENAME=Prescott
if [ -z "$want" ]; then
  # No AVX2+FMA: nothing better than Prescott is allowed; no re-exec.
  "$rlx" version >"$tmp/v.out" || fail "rlx version"
  grep -q 'kernel Prescott (OpenBLAS.s own choice for this CPU)' "$tmp/v.out" || fail "expected Prescott kept"
  echo ok; exit 0
fi

# 2. The override, as rlx version states it.
"$rlx" version >"$tmp/v.out" 2>"$tmp/v.err" || fail "rlx version with the override"
grep -q "kernel $want (OpenBLAS chose Prescott for this CPU; rlx set OPENBLAS_CORETYPE=$want_env: .* present; checked against a double reference)" \
  "$tmp/v.out" || fail "rlx version does not state the override"
[ -s "$tmp/v.err" ] && fail "stderr not empty with a passing check"

# 3. No restart: the pid stays the one started, and once LibTorch has loaded rlx takes
#    OPENBLAS_CORETYPE out of its environment again (OpenBLAS has read it).
RLX_SUPERVISE=0 "$rlx" -e 'rlx.devices() local s = rlx.version().startup
  print(io.open("/proc/self/stat"):read("*l"):match("^%d+")) print(#s.restarts, s.blas.set_by, os.getenv("OPENBLAS_CORETYPE"))
  os.exit(7)' >"$tmp/pid.out" &
pid=$!
wait "$pid"; code=$?
[ "$code" = 7 ] || fail "exit status $code, expected 7"
[ "$(head -1 "$tmp/pid.out")" = "$pid" ] || fail "the pid changed ($pid)"
[ "$(sed -n 2p "$tmp/pid.out")" = "$(printf '0\trlx\tnil')" ] || fail "restarts, set_by and the environment after the load"
echo 'print(6 * 7)' | "$rlx" repl >"$tmp/repl.out" 2>&1 || fail "repl on a pipe"
[ "$(cat "$tmp/repl.out")" = 42 ] || fail "repl output"

# 4. A child rlx inherits nothing of it: it decides for itself, and comes to the same kernel.
"$rlx" -e "rlx.devices() os.execute('$rlx -e \"print(os.getenv([[OPENBLAS_CORETYPE]]), rlx.version().blas.set_by)\" > $tmp/child.out')" ||
  fail "child rlx"
[ "$(cat "$tmp/child.out")" = "$(printf 'nil\trlx')" ] || fail "the child: $(cat "$tmp/child.out")"

# 5. A kernel that fails the check is dropped before anything ran on it: OpenBLAS's own choice is
#    loaded, with one warning; no restart.
RLX_TEST_BLAS_CHECK=fail "$rlx" -e 'local v = rlx.version() print(os.getenv("OPENBLAS_CORETYPE"), #v.startup.restarts)
  print(v.blas.set_by, v.blas.reason)' >"$tmp/fail.out" 2>"$tmp/fail.err" ||
  fail "a failing check must not stop rlx"
[ "$(head -1 "$tmp/fail.out")" = "$(printf 'nil\t0')" ] || fail "environment after dropping the kernel"
grep -Eq "^openblas	[A-Za-z0-9_]+ \(OpenBLAS's own choice; rlx's OPENBLAS_CORETYPE=$want_env was dropped: it failed the numerical check: sgemm NN m=67 n=45 k=129: element \(0, 0\) is" \
  "$tmp/fail.out" || fail "the dropped kernel is not stated"
[ "$(grep -c . "$tmp/fail.err")" = 1 ] &&
  grep -q "^rlx: OpenBLAS kernel $want dropped, back to OpenBLAS's own choice: it failed the numerical check" "$tmp/fail.err" ||
  fail "not one warning on stderr"

# 6. The user's OPENBLAS_CORETYPE wins, and the opt-out keeps OpenBLAS's choice.
OPENBLAS_CORETYPE=Haswell "$rlx" version >"$tmp/user.out" || fail "user coretype"
grep -q 'kernel Haswell (OPENBLAS_CORETYPE=Haswell set by the user; rlx leaves it alone)' "$tmp/user.out" || fail "user's value not kept"
RLX_BLAS_AUTO=0 "$rlx" version >"$tmp/off.out" || fail "opt-out"
grep -q "kernel Prescott (OpenBLAS's own choice; RLX_BLAS_AUTO=0 keeps it)" "$tmp/off.out" || fail "opt-out not honoured"
echo ok
