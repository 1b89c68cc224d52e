#!/usr/bin/env bash
# escapes.sh RLX: issue 35 item 4, control characters reached the terminal and the report. One
# rule (engine/util/printable.h, rlx.show.printable) for every place rlx prints or writes a user's
# string: --set values with a control character are refused (exit 2); a model table's name too;
# strings a database already holds print as \ddd in progress lines, warnings, rlx status, rlx runs
# and report.md/html; CSV cells a spreadsheet would run as formulas start with '.
set -u
RLX=$1
SRC=$PWD
T="$RLX_TEST_TMP/reliability-escapes"
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
ESC=$'\033'
BEL=$'\007'
raw() { grep -q "[$ESC$BEL]" "$@"; }  # raw ESC or BEL bytes in the files

"$RLX" run "$SRC/experiments/all.lua" --set "zone=us${ESC}]0;PWN${BEL}" --dry-run >out 2>err
rc=$?
[ "$rc" = 2 ] || fail "zone with ESC: exit $rc"
[ "$(head -1 err)" = 'rlx: --set zone=us\027]0;PWN\007: the key or value holds a control character (shown as \ddd; a line break, a tab, ESC): type it without' ] ||
  fail "zone with ESC: $(cat -v err)"
raw out err && fail "zone with ESC: raw bytes printed"
"$RLX" run "$SRC/experiments/all.lua" --set "instance=g2
standard" --dry-run >out 2>err
[ $? = 2 ] || fail "instance with a line break was accepted"
[ ! -e results ] || fail "a refused --set made results/"

"$RLX" -e "rlx.train{model = {name = 'm\27[2J', layers = {{'flatten'}, {'linear'}}}, iters = 1, warmup = 0, input = 8}" \
  >out 2>err
[ $? = 1 ] || fail "a model name with ESC trained"
grep -q "model field 'name' must be printable text, got 'm\\\\027\[2J'" err || fail "model name: $(cat -v err)"
raw err && fail "model name: raw bytes"
"$RLX" -e "rlx.study{name = 'x', db = '$T/x.db', label = 'a${ESC}b'}" >out 2>err && fail "a label with ESC"
raw err && fail "label: raw bytes"

# rlx train --label is refused with a control character, as --set label= is (issue 56 item 6: it
# was stored raw), and the message escapes it.
"$RLX" train --model resnet18 --batch-size 2 --input 32 --classes 10 --iters 1 --warmup-iters 0 --threads 1 \
  --label "x${ESC}]0;t${BEL}" >out 2>err
[ $? = 2 ] || fail "train --label with ESC: $(cat -v err)"
raw out err && fail "train --label: raw bytes: $(cat -v err)"
grep -qF "rlx train: --label 'x\027]0;t\007': the value holds a control character" err || fail "train --label: $(cat err)"
"$RLX" run "$SRC/tests/e2e/reliability/make_hostile.lua" --set db="$T/h.db" >out 2>err || fail "make: $(cat -v err)"
raw out err && fail "the sweep printed raw bytes: $(cat -v err)"
grep -q 'env_m\\027\[2J\\027\]0;PWN\\007_fp32_bs2_run1' err || fail "progress line: $(cat -v err)"
"$RLX" status "$T/h.db" >out 2>err
raw out err && fail "rlx status printed raw bytes: $(cat -v out)"
"$RLX" runs "$T/h.db" >out 2>err || fail "rlx runs: $(cat err)"
raw out err && fail "rlx runs printed raw bytes"
"$RLX" report "$T/h.db" --out "$T/rep" >out 2>err || fail "rlx report: $(cat -v err)"
raw out err "$T/rep/report.md" "$T/rep/report.html" && fail "the report holds raw bytes"
grep -q 'PWN\\007' "$T/rep/report.md" || fail "the report lost the error text: $(grep -c PWN "$T/rep/report.md")"
"$RLX" export "$T/h.db" --csv "$T/h.csv" 2>err || fail "export: $(cat err)"
grep -qF "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"" "$T/h.csv" || fail "the formula cell: $(grep HYPER "$T/h.csv")"
grep -q ',=HYPERLINK\|,"=HYPERLINK' "$T/h.csv" && fail "a formula cell went out as a formula"
echo ok
