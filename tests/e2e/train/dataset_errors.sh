#!/usr/bin/env bash
# dataset_errors.sh RLX MODEL: the ImageFolder loader's failures (issue 25 finding 8). With 2 good
# and 2 random-byte files in one class, --seed 0 trains and counts 2 skipped files (it said "all 4
# files failed to decode", skipped_files 0); a class folder this user cannot list is an error
# naming it (it became an empty class, silently).
set -u
RLX=$1
MODEL=$2
T=$(mktemp -d "${RLX_TEST_TMP:-/tmp}/dataset-errors.XXXXXX")
trap 'chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
as_user() { if [ "$(id -u)" -eq 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi; }
"$RLX" run tests/e2e/train/make_half_bad.lua --set dir="$T/d" || fail "making the dataset"
args=(train --model "$MODEL" --data "$T/d" --batch-size 4 --iters 2 --warmup-iters 0 --input 16 --threads 1)
for seed in 0 1 2 3; do
  out=$("$RLX" "${args[@]}" --seed $seed --json 2>"$T/err") || fail "seed $seed: $(cat "$T/err")"
  got=$(printf '%s' "$out" | "$RLX" -e 'local r = rlx.json.decode(io.read("*a")) print(r.ok, r.skipped_files)')
  [ "$got" = "$(printf 'true\t2')" ] || fail "seed $seed: ok and skipped_files: $got"
done
# Every file unreadable: the run fails, and still says how many it skipped (issue 56: skipped_files
# was set on success only, so this read 0).
mkdir -p "$T/bad/train/a"
for i in 1 2 3; do echo junk >"$T/bad/train/a/$i.jpg"; done
out=$("$RLX" train --model "$MODEL" --data "$T/bad" --batch-size 2 --iters 1 --warmup-iters 1 --input 16 --threads 1 \
  --json 2>/dev/null)
got=$(printf '%s' "$out" | "$RLX" -e 'local r = rlx.json.decode(io.read("*a")) print(r.ok, r.skipped_files)')
[ "$got" = "$(printf 'false\t3')" ] || fail "all files bad: ok and skipped_files: $got"
chmod 755 "$T" "$T/d" "$T/d/train"
chmod 000 "$T/d/train/b"
as_user "$RLX" "${args[@]}" >"$T/out" 2>"$T/err" && fail "an unreadable class folder trained"
[ "$(cat "$T/err")" = "rlx train: cannot list the folder '$T/d/train/b' of the dataset: Permission denied" ] ||
  fail "unreadable class folder: $(cat "$T/err")"
echo ok
