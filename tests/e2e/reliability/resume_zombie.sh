#!/usr/bin/env bash
# resume_zombie.sh RLX: issue 35 item 1, a resume during a dying process, with real processes.
# 1. kill -9 of the supervising `rlx run` of a sweep leaves its child a zombie until it is reaped
#    (tests/e2e/reliability/subreaper.py keeps it one); the same sweep run at once used to leave the
#    zombie's slot "to it" and end with 7 of 8 runs and one `running` forever. A zombie is dead:
#    the slot is retried and the study completes.
# 2. A slot a live process is training is left to it, claimed again after the matrix, and named at
#    the end; experiments/all.lua then exits 1 saying the study is incomplete (it exited 0).
set -u
RLX=$1
SRC=$PWD
T="$RLX_TEST_TMP/reliability-resume-zombie"
rm -rf "$T"
mkdir -p "$T"
fail() { echo "FAIL: $*"; exit 1; }

DB="$T/zombie.db"
python3 tests/e2e/reliability/subreaper.py "$RLX" "$DB" test_m1_fp32_bs2_run1 >"$T/out" 2>"$T/err" ||
  fail "subreaper: $(cat "$T/out" "$T/err")"
grep -qx "child state before the rerun: Z" "$T/out" || fail "no zombie to test with: $(cat "$T/out")"
grep -qx "rerun exit 0" "$T/out" || fail "the rerun: $(cat "$T/out")"
grep -q "^rerun stdout: ran [0-9]* skipped [0-9]* ok [0-9]* failed 0$" "$T/out" || fail "rerun stdout: $(cat "$T/out")"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$DB")
[ "$got" = "ok=8 failed=0 samples=24 orphans=0 envs=1 integrity=ok" ] || fail "after the rerun: $got"
# Retried as attempt 2, its death unknown (nobody supervised the zombie's end).
got=$("$RLX" -e "local r = rlx.db.open('$DB', {readonly = true}):first([[SELECT attempt, deaths FROM runs
  WHERE label = 'test_m1_fp32_bs2_run1']]) print(r.attempt, rlx.json.decode(r.deaths)[1].cause)")
[ "$got" = "$(printf '2\tunknown')" ] || fail "the zombie's slot: $got"

# 2: a live process trains one of two runs of a study while another runs the same study.
DB="$T/busy.db"
"$RLX" -e "local st = rlx.study{name = 'p1-roofline', db = '$DB', label = 'e2e'}
  st:store_peaks({dram_gbps = 10, fp32_gflops = 100}, {device = 'cpu'}) st:close()" || fail "setup"
study=(--set db="$DB" --set scale=smoke --set label=e2e --set models=resnet50 --set batch=16,32
  --set precision=fp32 --set repeats=1)
RLX_TEST_SPIN_LABEL=e2e_resnet50_fp32_bs32_run1 "$RLX" run tests/e2e/reliability/all_busy.lua "${study[@]}" \
  --set figures="$T/figs_a/figures" >"$T/a.out" 2>"$T/a.err" &
a=$!
for _ in $(seq 1 600); do grep -q "^training " "$T/a.err" && break; sleep 0.1; done
grep -q "^training e2e_resnet50_fp32_bs32_run1" "$T/a.err" || { kill -9 $a; fail "process a: $(cat "$T/a.err")"; }
"$RLX" run tests/e2e/reliability/all_busy.lua "${study[@]}" --set figures="$T/figs_b/figures" >"$T/b.out" 2>"$T/b.err"
rc=$?
kill -TERM $a
wait $a
[ "$rc" = 1 ] || fail "the incomplete study exited $rc: $(cat "$T/b.out" "$T/b.err")"
grep -q "^\[again 1/1\] e2e_resnet50_fp32_bs32_run1: being trained by process [0-9]* on .*; left to it$" "$T/b.err" ||
  fail "the slot was not claimed again after the matrix: $(cat "$T/b.err")"
tail -1 "$T/b.err" | grep -q "^experiments/all.lua: the study is incomplete: 1 run(s) were still being trained by other processes when it ended: e2e_resnet50_fp32_bs32_run1 (process [0-9]* on .* since [0-9T:Z-]*); the figures and report leave them out: run the same command again once those processes have finished$" ||
  fail "the last line: $(tail -1 "$T/b.err")"
echo ok
