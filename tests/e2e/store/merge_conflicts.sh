#!/usr/bin/env bash
# merge_conflicts.sh RLX: rlx merge of two databases holding different runs in the same slots
# (the same machine and label measured twice): each skipped run is reported on stderr with its
# reason; --as-repeats keeps them as repeats 3 and 4 (labels renumbered), idempotently; an ok run
# replaces a failed attempt of its slot.
set -euo pipefail
RLX=$1
T="$RLX_TEST_TMP/store-e2e-merge-conflicts"
rm -rf "$T"
mkdir -p "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
"$RLX" run tests/e2e/store/sweep.lua --set db="$T/a.db" --set label=same >/dev/null
"$RLX" run tests/e2e/store/sweep.lua --set db="$T/b.db" --set label=same >/dev/null

"$RLX" merge "$T/skip.db" "$T/a.db" "$T/b.db" >"$T/skip.out" 2>"$T/skip.err"
[ "$(grep -c 'skipped run same_m[12]_fp32_bs[24]_run[12] (id [0-9a-f]\{32\}, study sweep, ok): its slot is held by same_m' "$T/skip.err")" -eq 8 ] \
  || fail "8 skipped lines expected: $(cat "$T/skip.err")"
grep -q "rlx merge: $T/b.db: skipped run same_m1_fp32_bs2_run1 .* in $T/skip.db; keep both with --as-repeats" "$T/skip.err" \
  || fail "skip reason: $(cat "$T/skip.err")"
grep -q "skip.db: 8 runs in all (8 new, 8 skipped: their slots were taken)" "$T/skip.out" || fail "total: $(cat "$T/skip.out")"

for round in 1 2; do
  "$RLX" merge "$T/both.db" "$T/a.db" "$T/b.db" --as-repeats >"$T/both$round.out" 2>"$T/both$round.err"
  [ ! -s "$T/both$round.err" ] || fail "round $round: nothing is skipped with --as-repeats: $(cat "$T/both$round.err")"
  got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$T/both.db")
  [ "$got" = "ok=16 failed=0 samples=48 orphans=0 envs=1 integrity=ok" ] || fail "as repeats, round $round: $got"
done
grep -q "b.db: run same_m2_fp32_bs4_run2 (id .*, study sweep, ok) kept as repeat 4, label same_m2_fp32_bs4_run4" "$T/both1.out" \
  || fail "kept line: $(cat "$T/both1.out")"
grep -q "both.db: 16 runs in all (0 new)" "$T/both2.out" || fail "second merge added runs: $(cat "$T/both2.out")"
"$RLX" runs "$T/both.db" --model m1 --batch 2 >"$T/runs.out"
for n in 1 2 3 4; do grep -q "^same_m1_fp32_bs2_run$n *ok" "$T/runs.out" || fail "repeat $n: $(cat "$T/runs.out")"; done

# A failed attempt in the output is replaced by the input's ok run of the same slot.
"$RLX" -e "local db = rlx.db.open('$T/failed.db') db:close()"
"$RLX" merge "$T/failed.db" "$T/a.db" >/dev/null
"$RLX" -e "local db = rlx.db.open('$T/failed.db') db:exec(\"UPDATE runs SET status = 'failed', error = 'oom' WHERE label = 'same_m1_fp32_bs2_run1'\")"
"$RLX" merge "$T/failed.db" "$T/b.db" >"$T/failed.out" 2>"$T/failed.err"
grep -q "b.db: run same_m1_fp32_bs2_run1 (id .*, ok) replaced the failed attempt same_m1_fp32_bs2_run1" "$T/failed.out" \
  || fail "replaced: $(cat "$T/failed.out")"
[ "$(grep -c skipped "$T/failed.err")" -eq 7 ] || fail "the 7 other slots are skipped: $(cat "$T/failed.err")"
got=$("$RLX" run tests/e2e/store/check_db.lua --set db="$T/failed.db")
[ "$got" = "ok=8 failed=0 samples=24 orphans=0 envs=1 integrity=ok" ] || fail "after replacing: $got"
echo "merge conflicts ok"
