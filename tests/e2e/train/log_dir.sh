#!/usr/bin/env bash
# log_dir.sh: `rlx train --log-dir DIR` appends each run to DIR/metrics.csv with seed 000's columns:
# the header once, one row per run (two runs here, the second with a label needing quotes), a file
# with other columns is refused with nothing written, and a missing directory is made.
set -u
rlx=$1
model=$2
dir=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/logdir.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "$*"; [ -f "$dir/metrics.csv" ] && cat "$dir/metrics.csv"; exit 1; }
args=(train --model "$model" --batch-size 2 --iters 2 --warmup-iters 0 --input 16 --classes 3 --threads 1)
"$rlx" "${args[@]}" --label run1 --log-dir "$dir" >/dev/null || fail "first run failed"
"$rlx" "${args[@]}" --label 'a,b' --log-dir "$dir" >/dev/null || fail "second run failed"
header='timestamp,label,host,device,arch,precision,batch_size,warmup_iters,iters,elapsed_s,images_per_s'
[ "$(head -1 "$dir/metrics.csv")" = "$header" ] || fail "wrong header"
[ "$(wc -l <"$dir/metrics.csv")" = 3 ] || fail "expected a header and two rows"
[ "$(grep -c '^timestamp,' "$dir/metrics.csv")" = 1 ] || fail "header written twice"
# Row 1: 11 fields; label, device, arch, precision, batch, warmup, iters as given.
row=$(sed -n 2p "$dir/metrics.csv")
[ "$(echo "$row" | awk -F, '{print NF}')" = 11 ] || fail "row 1 has not 11 fields"
echo "$row" | grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z,run1,[^,]*,cpu,tiny,fp32,2,0,2,[0-9.e-]+,[0-9.e+]+$' ||
  fail "row 1 does not match: $row"
sed -n 3p "$dir/metrics.csv" | grep -q ',"a,b",' || fail "label with a comma is not quoted"
# Other columns: refused, file unchanged.
mkdir "$dir/other" && printf 'a,b\n1,2\n' >"$dir/other/metrics.csv"
if "$rlx" "${args[@]}" --log-dir "$dir/other" >/dev/null 2>"$dir/err"; then fail "other columns accepted"; fi
grep -q "has other columns" "$dir/err" || fail "message: $(cat "$dir/err")"
[ "$(cat "$dir/other/metrics.csv")" = "$(printf 'a,b\n1,2')" ] || fail "a refused file was changed"
# A missing directory is made, as the seed's kit does (issue 25: it used to train, then fail).
"$rlx" "${args[@]}" --log-dir "$dir/new/logs" >/dev/null 2>"$dir/err" || fail "a new directory: $(cat "$dir/err")"
[ "$(wc -l <"$dir/new/logs/metrics.csv")" = 2 ] || fail "expected a header and one row in the new directory"
echo ok
