#!/usr/bin/env bash
# figures.sh RLX: issue 17 item 3. A figure redraw that fails (a 3,000-character model name in the
# legend) leaves the good figure already there byte for byte (PNG, SVG, PDF), leaves no temporary
# file, and the message names the label, not the figure size.
set -uo pipefail
RLX=$1
T="$RLX_TEST_TMP/reliability-figures"
rm -rf "$T"
mkdir -p "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
for ext in png svg pdf; do
  "$RLX" -e "rlx.plot.throughput{out = '$T/o.$ext', series = {{label = 'resnet18', x = {1, 2}, y = {10, 20}}}}" \
    || fail "good $ext figure"
  [ -s "$T/o.$ext" ] || fail "good $ext figure is empty"
  cp "$T/o.$ext" "$T/good.$ext"
  "$RLX" -e "rlx.plot.throughput{out = '$T/o.$ext', series = {{label = string.rep('m', 3000), x = {1, 2}, y = {10, 20}}}}" \
    2>"$T/err" && fail "a 3000-character label drew a $ext figure"
  head -1 "$T/err" | grep -q "^(command line):1: rlx.plot.throughput: the legend label 'mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm...' (3000 characters) is too long for a 1200-pixel-wide figure: shorten it to at most about [0-9]* characters, or make the figure wider$" \
    || fail "$ext message: $(head -1 "$T/err")"
  grep -q "figure too small" "$T/err" && fail "the message blames the figure size"
  cmp -s "$T/o.$ext" "$T/good.$ext" || fail "the failed redraw changed the good $ext figure ($(wc -c <"$T/o.$ext") bytes)"
done
ls -A "$T" | grep -q '\.tmp-' && fail "temporary files left: $(ls -A "$T")"
echo "figures ok"
