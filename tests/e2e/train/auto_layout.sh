#!/usr/bin/env bash
# auto_layout.sh RLX: `rlx train`'s default --memory-format auto on a machine with nothing
# calibrated: the probe runs (with the default --threads 0 too), is kept and reused, --verbose
# says every setting used and who chose it, the user's choices win, and a CIFAR-10 run is probed
# at the size it trains at (32x32), not at 224.
set -u
RLX=$1
fail() { echo "FAIL: $*"; exit 1; }
dir=$RLX_TEST_TMP/auto_layout
rm -rf "$dir" && mkdir -p "$dir"
export XDG_CACHE_HOME=$dir/cache
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
train() { "$RLX" train --batch-size 2 --iters 1 --warmup-iters 0 --verbose "$@" 2>&1 >/dev/null; }

err=$(train --model resnet18 --input 32)
[[ "$err" == *"rlx train: calibrating resnet18 on this machine ($dir/cache/rlx/calibrations.db)"* ]] ||
  fail "no probe: $err"
[[ "$err" != *"no calibration"* ]] || fail "the probe failed: $err"
[[ "$err" =~ "  memory format: resnet18 fp32: "(channels_last|contiguous)", " ]] || fail "no layout line: $err"
[[ "$err" == *"  threads: $cpus (one per CPU this process may run on)"* ]] || fail "no threads line: $err"
[[ "$err" == *"  openmp: "* && "$err" == *"  thp: "* && "$err" == *"  malloc: "* ]] || fail "process settings: $err"
# A probe that other processes disturbed twice is used but not kept (rlx.calibrate): then the
# next run probes again, which is right, and reuse cannot be checked this time.
if [[ "$err" != *"not kept, probed again next time"* ]]; then
  err=$(train --model resnet18 --input 32)
  [[ "$err" == *"rlx train: resnet18's layout as calibrated on this machine before"* ]] || fail "not reused: $err"
  # Probed with one thread per CPU; a run on fewer threads is probed again (rlx.calibrate.current).
  if [ "$cpus" -gt 1 ]; then
    err=$(train --model resnet18 --input 32 --threads 1)
    [[ "$err" == *"rlx train: calibrating resnet18 on this machine"* ]] || fail "--threads 1 not probed again: $err"
  fi
fi
err=$(train --model resnet18 --input 32 --memory-format contiguous --threads 1)
[[ "$err" != *"calibrat"* ]] || fail "probed although the layout was given: $err"
[[ "$err" == *"  memory format: contiguous (yours: --memory-format)"* ]] || fail "user's layout: $err"
[[ "$err" == *"  threads: 1 (yours: --threads)"* ]] || fail "user's threads: $err"

# CIFAR-10 binary batches (3073-byte records: a label, then 32x32 R, G, B planes).
mkdir -p "$dir/cifar"
"$RLX" -e "local f = assert(io.open('$dir/cifar/data_batch_1.bin', 'wb'))
for i = 0, 9 do f:write(string.char(i), string.rep(string.char(i * 20), 3072)) end f:close()" || fail "cifar data"
err=$(train --model mobilenet_v2 --data "$dir/cifar")
[[ "$err" == *"memory format: mobilenet_v2 fp32: "* ]] || fail "cifar run not calibrated: $err"
[[ "$err" =~ "memory format: mobilenet_v2 fp32: "[a-z_]+", ".*" at batch 2" ]] || fail "cifar probe: $err"
if [[ "$err" != *"not kept, probed again next time"* ]]; then
  envs=$("$RLX" env)
  [[ "$envs" == *"| mobilenet_v2 | fp32 | cpu | 32 |"* ]] || fail "cifar probe not at 32x32: $envs"
  [[ "$envs" != *"| mobilenet_v2 | fp32 | cpu | 224 |"* ]] || fail "cifar probe at 224x224"
fi
echo ok
