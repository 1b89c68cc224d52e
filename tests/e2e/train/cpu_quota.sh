#!/usr/bin/env bash
# cpu_quota.sh RLX: a cgroup's CPU quota caps the threads rlx uses by default (engine/util/
# cpu_quota.h). In a real cgroup (v1's cpu controller, or v2 where the parent delegates `cpu`)
# allowed 1 CPU of time while the affinity mask keeps every CPU: rlx.env.cpu_quota names the group's
# file, usable_cpus is 1, rlx.train's default threads 1 with the quota recorded, the peaks measure
# on 1 core, `rlx env` and `rlx train --verbose` say why. At 1.5 CPUs: 2 (rounded up). Outside the
# group: no quota, every CPU. Skipped (77) where no cgroup can be made (not root, read-only
# cgroupfs, no cpu controller) or with fewer than two CPUs. Runs alone (RUN_SERIAL): a throttled
# group beside other tests is only slower, but the thread counts here must not depend on them.
set -u
RLX=$1
fail() { echo "FAIL: $*"; exit 1; }
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
[ "$cpus" -ge 2 ] || { echo "fewer than two CPUs: skipped"; exit 77; }

# A child group of this process's own, and how to set its quota.
if [ -w /sys/fs/cgroup/cpu/cpu.cfs_quota_us ] || [ -w "/sys/fs/cgroup/cpu$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3 }' /proc/self/cgroup)/cpu.cfs_quota_us" ]; then
  parent=/sys/fs/cgroup/cpu$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ { print $3 }' /proc/self/cgroup)
  group=${parent%/}/rlx-quota-test-$$
  mkdir "$group" 2>/dev/null || { echo "cannot make a v1 cpu cgroup under $parent: skipped"; exit 77; }
  set_quota() { echo "$1" >"$group/cpu.cfs_period_us" && echo "$2" >"$group/cpu.cfs_quota_us"; }
  file=$group/cpu.cfs_quota_us
else
  parent=/sys/fs/cgroup$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
  grep -qw cpu "$parent/cgroup.subtree_control" 2>/dev/null || { echo "no writable cgroup with a cpu controller: skipped"; exit 77; }
  group=${parent%/}/rlx-quota-test-$$
  mkdir "$group" 2>/dev/null || { echo "cannot make a v2 cgroup under $parent: skipped"; exit 77; }
  set_quota() { echo "$2 $1" >"$group/cpu.max"; }
  file=$group/cpu.max
fi
trap 'rmdir "$group" 2>/dev/null' EXIT
# Runs RLX ARGS... inside the group (the subshell moves itself in, then becomes rlx).
in_group() { bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$group" "$RLX" "$@"; }

set_quota 100000 100000 || fail "cannot set the quota in $group"
got=$(in_group -e 'local q = rlx.env.cpu_quota() print(rlx.env.usable_cpus(), q.cpus, q.source)')
[ "$got" = $'1\t1\t'"$file" ] || fail "1-CPU quota: $got (want 1, 1 and $file)"
got=$(in_group -e 'local r = rlx.train{model = dofile("tests/e2e/train/tiny_model.lua"), batch = 4, input = 32,
  classes = 3, iters = 2, warmup = 1} print(r.ok, r.threads, r.cpu_quota)')
[ "$got" = $'true\t1\t1' ] || fail "rlx.train's default under a 1-CPU quota: $got (want 1 thread, quota 1)"
got=$(in_group -e 'local p = rlx.peaks.measure{quick = true, only = "fp32", repeats = 1} print(p.threads, p.cpu_quota)')
[ "$got" = $'1\t1' ] || fail "peaks under a 1-CPU quota: $got (want 1 thread, quota 1)"
got=$(in_group env)
[[ "$got" == *"(1 here: its affinity mask and the cgroup's CPU quota of 1 CPU, rounded up: $file)"* ]] ||
  fail "rlx env does not name the quota: $(grep 'Decided by' <<<"$got")"
got=$(in_group train --model tests/e2e/train/tiny_model.lua --input 32 --classes 3 --batch-size 4 --warmup-iters 1 \
  --iters 2 --memory-format contiguous --verbose 2>&1 >/dev/null)
[[ "$got" == *"threads: 1 (one per CPU this process may run on; the cgroup's CPU quota allows 1 CPU: $file)"* ]] ||
  fail "rlx train --verbose: $(grep 'threads:' <<<"$got")"

set_quota 100000 150000 || fail "cannot set a 1.5-CPU quota"
got=$(in_group -e 'print(rlx.env.usable_cpus(), rlx.env.cpu_quota().cpus)')
[ "$got" = $'2\t1.5' ] || fail "1.5-CPU quota: $got (want 2 CPUs, quota 1.5)"

got=$("$RLX" -e 'print(rlx.env.usable_cpus(), rlx.env.cpu_quota())')
[ "$got" = "$cpus"$'\tnil' ] || fail "outside the group: $got (want $cpus and no quota)"
echo ok
