#!/usr/bin/env bash
# study_protocols.sh: the three protocols of issue 21 item 6 on one machine, one after the other,
# each into its own database, then bench/study_quality.lua on each (docs/benchmarks.md, "Study
# protocols"):
#   old   the default before issue 21: 32x32, 1 warm-up + 4 measured iterations, 3 repeats
#   new   today's default: 224x224, warm-up until steady, timed to a 95 % CI of ±2 %, 30-min budget
#   seed  seed 001's protocol (224x224, 10 + 100 iterations, 3 repeats) for two configurations
#         (ResNet-50 and MobileNetV2, batch 16, fp32, 2 repeats), to extrapolate the whole matrix from
# Run it on an idle machine: every figure is a wall-clock time.
#   bench/study_protocols.sh build/rlx [OUT=/tmp/rlx-protocols] [WHICH="old new seed"]
set -euo pipefail
rlx=${1:?usage: study_protocols.sh RLX [OUT] [WHICH]}
out=${2:-/tmp/rlx-protocols}; which=${3:-old new seed}
mkdir -p "$out"
run() {  # name, then all.lua's --set arguments
  local name=$1; shift
  rm -rf "$out/$name" "$out/$name.db"*
  echo "== $name: $*"
  /usr/bin/time -f "$name wall %e s" "$rlx" run experiments/all.lua --set db="$out/$name.db" \
    --set figures="$out/$name/figures" "$@" >"$out/$name.out" 2>"$out/$name.err" || { tail -5 "$out/$name.err"; exit 1; }
  grep -E "^(plan|done in)" "$out/$name.out" || true
  tail -1 "$out/$name.err"
  "$rlx" run bench/study_quality.lua --set db="$out/$name.db"
}
for w in $which; do
  case $w in
    old) run old --set scale=smoke --set input=32 --set warmup=1 --set iters=4 --set repeats=3 ;;
    new) run new ;;
    seed) run seed --set scale=full --set models=resnet50,mobilenet_v2 --set batch=16 --set precision=fp32 --set repeats=2 ;;
    *) echo "unknown protocol '$w' (old, new, seed)" >&2; exit 2 ;;
  esac
done
