#!/usr/bin/env bash
# device_flag.sh RLX: `rlx train --device cuda` on a machine without a usable CUDA device says the
# fix as the flag (use --device cpu), not in the Lua API's words (use device="cpu"), which --json's
# error keeps. Skipped (77) where a CUDA device is visible: the run would train.
set -euo pipefail
RLX=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
if "$RLX" -e "for _, d in ipairs(rlx.devices()) do if tostring(d.id):match('^cuda') then os.exit(3) end end"; then :
else echo "a CUDA device is visible: skipped"; exit 77; fi
set +e
err=$("$RLX" train --model resnet18 --device cuda --batch-size 2 --iters 1 --warmup-iters 1 --input 32 \
  --memory-format contiguous 2>&1 >/dev/null); rc=$?
json=$("$RLX" train --model resnet18 --device cuda --batch-size 2 --iters 1 --warmup-iters 1 --input 32 \
  --memory-format contiguous --json 2>/dev/null)
set -e
[ $rc -eq 1 ] || fail "exit $rc: $err"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "not one line: $err"
case "$err" in
  "rlx train: device 'cuda' is not available: "*"; use --device cpu") ;;
  *) fail "message: $err" ;;
esac
case "$json" in *'use device=\"cpu\"'*) ;; *) fail "--json error changed: $json" ;; esac
echo "device flag ok"
