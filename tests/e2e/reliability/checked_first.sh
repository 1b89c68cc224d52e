#!/usr/bin/env bash
# checked_first.sh RLX: issue 35 item 8, what `rlx train` writes to is checked before it trains.
# A --db of a newer schema (user_version 999) and a --log-dir whose metrics.csv has other columns
# were refused only after the training; a binary header printed raw bytes. Now: one line, exit 1,
# nothing on stdout (no run trained), the files unchanged.
set -u
RLX=$1
T="$RLX_TEST_TMP/reliability-checked-first"
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
train=("$RLX" train --model resnet18 --batch-size 2 --input 32 --classes 10 --iters 1 --warmup-iters 0 --threads 1)
"$RLX" -e "rlx.db.open('future.db'):close()" || fail "making future.db"
sqlite3 future.db 'PRAGMA user_version = 999'
sum=$(md5sum future.db)
"${train[@]}" --db future.db >out 2>err
[ $? = 1 ] || fail "future schema: exit $?"
grep -q "^rlx train: --db: 'future.db' was written by a newer rlx (schema version 999, this rlx knows up to [0-9]*); upgrade rlx to use it$" err ||
  fail "future schema: $(cat err)"
[ ! -s out ] || fail "future schema: trained first: $(cat out)"
[ "$(md5sum future.db)" = "$sum" ] || fail "future.db changed"
mkdir logs
printf 'a,b\n1,2\n' >logs/metrics.csv
"${train[@]}" --log-dir logs >out 2>err
[ $? = 1 ] || fail "foreign columns: exit"
[ "$(cat err)" = "rlx train: logs/metrics.csv has other columns than seed 000's metrics.csv (column 'a' of its first line 'a,b'); use another log directory" ] ||
  fail "foreign columns: $(cat err)"
[ ! -s out ] || fail "foreign columns: trained first: $(cat out)"
printf '\033[2J\001,b\n' >logs/metrics.csv
"${train[@]}" --log-dir logs >out 2>err
[ $? = 1 ] || fail "binary header: exit"
grep -q "[$(printf '\033\001')]" err && fail "binary header: raw bytes: $(cat -v err)"
grep -qF "column '\\027[2J\\001'" err || fail "binary header: $(cat -v err)"
[ ! -s out ] || fail "binary header: trained first"
echo ok
