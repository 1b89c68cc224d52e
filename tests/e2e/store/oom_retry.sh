#!/usr/bin/env bash
# oom_retry.sh RLX: a slot killed by the real OOM killer (a 300 MiB memory cgroup made for the
# test; exit 77 when no memory cgroup can be made, e.g. not root) is recorded with that cause, from
# the cgroup's oom_kill count, and is not retried with the same configuration: the same command
# completes the rest of the study, skips that slot and the other repeat of its configuration, and
# names the batch size to lower. retry_crashed tries them anyway.
set -euo pipefail
RLX=$1
T="$RLX_TEST_TMP/store-e2e-oom"
rm -rf "$T"
mkdir -p "$T"
DB="$T/oom.db"
SLOT=test_m1_fp32_bs4_run1
fail() { echo "FAIL: $*" >&2; exit 1; }

# A memory cgroup under this process's own: v1 (memory controller) or v2.
CG=""
v1=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)
v2=$(awk -F: '$1 == "0" && $2 == "" {print $3}' /proc/self/cgroup)
limit=$((300 * 1024 * 1024))
if [ -n "$v1" ] && [ -d "/sys/fs/cgroup/memory$v1" ]; then
  CG="/sys/fs/cgroup/memory${v1%/}/rlx-oom-test-$$"
  if mkdir "$CG" 2>/dev/null && echo $limit >"$CG/memory.limit_in_bytes" 2>/dev/null; then
    # No swap to escape into: memory + swap capped at the same limit where the kernel counts it.
    [ -e "$CG/memory.memsw.limit_in_bytes" ] && echo $limit >"$CG/memory.memsw.limit_in_bytes" 2>/dev/null || true
  else
    rmdir "$CG" 2>/dev/null || true
    CG=""
  fi
elif [ -n "$v2" ] && [ -d "/sys/fs/cgroup${v2%/}" ]; then
  CG="/sys/fs/cgroup${v2%/}/rlx-oom-test-$$"
  if ! { mkdir "$CG" 2>/dev/null && echo $limit >"$CG/memory.max" && echo 0 >"$CG/memory.swap.max"; } 2>/dev/null; then
    rmdir "$CG" 2>/dev/null || true
    CG=""
  fi
fi
if [ -z "$CG" ]; then
  echo "no memory cgroup can be made here (needs root and a cgroup memory controller): skipped"
  exit 77
fi
trap 'rmdir "$CG" 2>/dev/null || true' EXIT
in_cgroup() { sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG" "$@"; }

set +e
in_cgroup "$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set hog_label=$SLOT >"$T/out1" 2>"$T/err1"
rc=$?
set -e
[ "$rc" -eq 137 ] || fail "the sweep should die of the OOM killer's SIGKILL (137), got $rc: $(cat "$T/err1")"
grep -q "^rlx: $SLOT: process [0-9]* was killed by the kernel's OOM killer (SIGKILL; the memory cgroup's oom_kill count went [0-9]* -> [0-9]*) while training it; marked crashed in $DB (the same command goes on without it: lower its batch size" "$T/err1" \
  || fail "the supervisor's line: $(cat "$T/err1")"
got=$("$RLX" -e "local r = rlx.db.open('$DB', {readonly = true}):first([[SELECT deaths FROM runs WHERE label = '$SLOT']])
  local d = rlx.json.decode(r.deaths)[1] print(d.cause, d.oom, d.signal)")
[ "$got" = "$(printf 'oom\ttrue\t9')" ] || fail "the death: $got"

# The same command: 6 more runs, the OOM-killed slot and its repeat 2 not tried.
out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set hog_label=$SLOT 2>"$T/err2")
[ "$out" = "ran 5 skipped 1 ok 5 failed 0 crashed 2" ] || fail "rerun: $out $(cat "$T/err2")"
grep -q "$SLOT: m1 at batch 4 was killed by the kernel's OOM killer (SIGKILL; .*); not retried with the same configuration: lower the batch size below 4 (or the input size)" "$T/err2" \
  || fail "the OOM advice: $(cat "$T/err2")"
grep -q "test_m1_fp32_bs4_run2: m1 at batch 4 was killed by the kernel's OOM killer (.*) (as $SLOT, a repeat of it); not retried" "$T/err2" \
  || fail "the repeat's advice: $(cat "$T/err2")"
plan=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --dry-run)
echo "$plan" | grep -q "dry run: 0 to run, 8 skipped; nothing to run" || fail "plan: $plan"

# retry_crashed: both are tried (without the hog they finish).
out=$("$RLX" run tests/e2e/store/sweep.lua --set db="$DB" --set retry_crashed=1 2>/dev/null)
[ "$out" = "ran 2 skipped 6 ok 2 failed 0" ] || fail "retry_crashed: $out"
echo "oom retry ok"
