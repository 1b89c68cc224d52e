#!/usr/bin/env bash
# log_dir.sh: `rlx train --log-dir DIR` appends each run to DIR/metrics.csv with seed 000's columns
# (the kit's run_train.py header): the header once, one row per run (two runs here, the second with a
# label needing quotes), a file of an earlier run_train.py keeps its header, a file with other
# columns is refused with nothing written, and a missing directory is made.
set -u
rlx=$1
model=$2
dir=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/logdir.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail() { echo "$*"; [ -f "$dir/metrics.csv" ] && cat "$dir/metrics.csv"; exit 1; }
args=(train --model "$model" --batch-size 2 --iters 2 --warmup-iters 0 --input 16 --classes 3 --threads 1)
"$rlx" "${args[@]}" --label run1 --log-dir "$dir" >/dev/null || fail "first run failed"
"$rlx" "${args[@]}" --label 'a,b' --log-dir "$dir" >/dev/null || fail "second run failed"
# Seed 000's header, as the kit's code/run_train.py writes it.
header='timestamp,hostname,arch,backend,device_name,batch_size,warmup_iters,measured_iters,precision,lr,momentum,weight_decay,elapsed_sec,images_per_sec,images_processed,data_root,label,torch_version,channels_last,grad_accum_steps,deterministic,cudnn_benchmark'
[ "$(head -1 "$dir/metrics.csv")" = "$header" ] || fail "wrong header"
[ "$(wc -l <"$dir/metrics.csv")" = 3 ] || fail "expected a header and two rows"
[ "$(grep -c '^timestamp,' "$dir/metrics.csv")" = 1 ] || fail "header written twice"
# Row 1: 22 fields; Unix seconds; arch, backend, device name, batch, warm-up, iters as given; SGD's
# defaults; 2 x 2 = 4 images; synthetic data; Python's booleans (the tiny CNN trains channels_last,
# rlx's default for a model with a convolution).
row=$(sed -n 2p "$dir/metrics.csv")
[ "$(echo "$row" | awk -F, '{print NF}')" = 22 ] || fail "row 1 has not 22 fields"
torch=$("$rlx" -e "print(rlx.version().torch)")
echo "$row" | grep -Eq "^[0-9]{10},[^,]+,tiny,cpu,CPU,2,0,2,fp32,0\.1,0\.9,0\.0001,[0-9.e-]+,[0-9.e+]+,4,synthetic,run1,$torch,True,1,False,False\$" ||
  fail "row 1 does not match: $row"
now=$(date +%s); ts=${row%%,*}
[ $((now - ts)) -ge 0 ] && [ $((now - ts)) -lt 600 ] || fail "timestamp $ts is not now ($now)"
sed -n 3p "$dir/metrics.csv" | grep -q ',"a,b",' || fail "label with a comma is not quoted"
# A file of the earlier run_train.py (18 of the columns) keeps its header; the row follows it.
mkdir "$dir/old"
old='timestamp,hostname,arch,backend,device_name,batch_size,warmup_iters,measured_iters,precision,lr,momentum,weight_decay,elapsed_sec,images_per_sec,images_processed,data_root,label,torch_version'
printf '%s\n' "$old" >"$dir/old/metrics.csv"
"$rlx" "${args[@]}" --label old --log-dir "$dir/old" >/dev/null || fail "append to the older header failed"
[ "$(head -1 "$dir/old/metrics.csv")" = "$old" ] || fail "older header changed"
sed -n 2p "$dir/old/metrics.csv" | grep -Eq "^[0-9]{10},[^,]+,tiny,cpu,CPU,2,0,2,fp32,0\.1,0\.9,0\.0001,[0-9.e-]+,[0-9.e+]+,4,synthetic,old,$torch\$" ||
  fail "row under the older header: $(sed -n 2p "$dir/old/metrics.csv")"
# Other columns: refused, file unchanged.
mkdir "$dir/other" && printf 'a,b\n1,2\n' >"$dir/other/metrics.csv"
if "$rlx" "${args[@]}" --log-dir "$dir/other" >/dev/null 2>"$dir/err"; then fail "other columns accepted"; fi
grep -q "metrics.csv has other columns than seed 000's metrics.csv (column 'a' of its first line 'a,b'); use another log directory" "$dir/err" ||
  fail "message: $(cat "$dir/err")"
[ "$(cat "$dir/other/metrics.csv")" = "$(printf 'a,b\n1,2')" ] || fail "a refused file was changed"
# A missing directory is made, as the seed's kit does (issue 25: it used to train, then fail).
"$rlx" "${args[@]}" --log-dir "$dir/new/logs" >/dev/null 2>"$dir/err" || fail "a new directory: $(cat "$dir/err")"
[ "$(wc -l <"$dir/new/logs/metrics.csv")" = 2 ] || fail "expected a header and one row in the new directory"
echo ok
