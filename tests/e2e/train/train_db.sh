#!/usr/bin/env bash
# train_db.sh: `rlx train --db PATH --label L` stores the run (study "train"), with its counted
# iterations, so `rlx import-ncu FILE --run L --db PATH` can attach ncu's counters to it (seed
# 000's path: ncu around one rlx train, then the import) and give it a measured roofline point.
set -u
rlx=$1
model=$2
fixture=$3
dir=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/traindb.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "$*"; exit 1; }
"$rlx" train --model "$model" --batch-size 2 --iters 2 --warmup-iters 0 --input 16 --classes 3 --threads 1 \
  --counter-iters 2 --label tiny_run --db "$dir/t.db" >/dev/null || fail "rlx train --db failed"
"$rlx" runs "$dir/t.db" | grep -q '^tiny_run  *ok ' || fail "run not listed: $("$rlx" runs "$dir/t.db")"
out=$("$rlx" import-ncu "$fixture" --run tiny_run --db "$dir/t.db") || fail "import failed: $out"
echo "$out" | grep -q "stored 28 counters with run 'tiny_run' (study 'train')" || fail "import: $out"
echo "$out" | grep -q "measured roofline point (ncu) dram" || fail "no measured point: $out"
"$rlx" -e "local db = rlx.db.open('$dir/t.db') local r = db:runs{label = 'tiny_run'}[1]
  local p = db:points{source = 'measured', level = 'dram'}[1]
  print(r.counter_iters, r.stable ~= nil, p.counters_source, math.abs(p.seconds - r.iter_s.mean) < 1e-12)" |
  grep -q "^2	true	ncu	true$" || fail "stored fields wrong"
echo ok
