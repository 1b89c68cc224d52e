#!/usr/bin/env bash
# unlabelled_runs.sh RLX: issue 48 item 2, `rlx train --db` never replaces a stored run silently.
# A second unlabelled run replaced the first (one row left), and of two at once one was lost. Now
# an unlabelled run is the next repeat of its configuration (chosen inside the write transaction,
# so two at once get two repeats) and says so; a run with a label already stored is refused before
# it trains, naming --replace; --replace replaces.
set -u
RLX=$1
T="$RLX_TEST_TMP/reliability-unlabelled-runs"
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
train=("$RLX" train --model resnet18 --batch-size 2 --input 32 --classes 10 --iters 1 --warmup-iters 0 --threads 1
  --memory-format contiguous --db d.db)
q() { sqlite3 d.db "$1"; }
"${train[@]}" >out1 2>err1 || fail "first run: $(cat err1)"
"${train[@]}" >out2 2>err2 || fail "second run: $(cat err2)"
# Both kept: repeats 1 and 2, labelled {env}_resnet18_fp32_bs2_run1 and _run2 (env: this machine's).
[[ "$(q "SELECT group_concat(repeat || ':' || label, ' ') FROM (SELECT repeat, label FROM runs ORDER BY repeat)")" =~ \
  ^1:[^\ ]+_resnet18_fp32_bs2_run1\ 2:[^\ ]+_resnet18_fp32_bs2_run2$ ]] ||
  fail "two runs kept: $(q 'SELECT repeat, label FROM runs')"
grep -q "^rlx train: d.db already held 1 run(s) of this configuration; this one is run 2 (label .*_run2); --replace replaces run 1 instead$" err2 ||
  fail "the second run did not say where it went: $(cat err2)"
# Two at once: both kept, as repeats 3 and 4.
"${train[@]}" >out3 2>err3 &
a=$!
"${train[@]}" >out4 2>err4 || fail "run 4: $(cat err4)"
wait $a || fail "run 3: $(cat err3)"
[ "$(q 'SELECT group_concat(repeat) FROM (SELECT repeat FROM runs ORDER BY repeat)')" = "1,2,3,4" ] ||
  fail "two at once: $(q 'SELECT repeat FROM runs')"
# A label names one run: a second one is refused before training, and --replace replaces it.
"${train[@]}" --label mine >out5 2>err5 || fail "labelled run: $(cat err5)"
id=$(q "SELECT id FROM runs WHERE label = 'mine'")
"${train[@]}" --label mine >out6 2>err6
[ $? = 1 ] || fail "a second run labelled mine was not refused"
[ "$(cat err6)" = "rlx train: study 'train' in d.db already holds a run labelled 'mine' (repeat 1); give another --label, or add --replace to replace it" ] ||
  fail "second label: $(cat err6)"
[ ! -s out6 ] || fail "the refused run trained: $(cat out6)"
"${train[@]}" --label mine --replace >out7 2>err7 || fail "--replace: $(cat err7)"
[ "$(q "SELECT count(*) FROM runs WHERE label = 'mine'")" = 1 ] || fail "--replace left two runs labelled mine"
[ "$(q "SELECT id FROM runs WHERE label = 'mine'")" != "$id" ] || fail "--replace kept the old run"
[ "$(q 'SELECT count(*) FROM runs')" = 5 ] || fail "runs: $(q 'SELECT count(*) FROM runs')"
echo ok
