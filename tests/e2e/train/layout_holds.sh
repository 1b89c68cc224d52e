#!/usr/bin/env bash
# layout_holds.sh RLX: issue 55 item 8, a memory-layout choice that holds. On a 2-core Zen 5 the
# probe at batch 2 called VGG-16 a tie (so the default, channels_last) at 00:50 where the same
# probe had chosen contiguous at 23:00, and at batch 16 contiguous trained 1.13x faster. Now:
#   1. three calibrations in a row on this machine, each from an empty cache as a fresh machine
#      would make it (`rlx train --memory-format auto`), choose the same layout for a real CNN
#      (a clear win of the default and a tie that keeps it are one choice; the other layout only
#      by a clear win in each), and each states its 95 % CI and the batch it was decided at, the
#      batch the run trains at (--batch-size 16), in what it prints and what it stores;
#   2. a tie: an MLP trained in both layouts does the same work in each (no 4-D weight, and 1x1
#      images, whose two layouts are the same bytes), so each of three probes in a row is a tie,
#      the default kept, and says within how much (`within ±x %`) and at which batch, after the
#      extra rounds at that batch when the first three left it open.
# No timing threshold is asserted: only that the choices agree and what the texts and rows say. A
# calibration whose every round shared its cores with other processes decides nothing that is
# kept (rlx.calibrate): then the machine was too busy to test agreement on, and the test is
# skipped (exit 77) rather than judged on another program's load. It prints only "ok" when it
# passes; what each calibration said is in $RLX_TEST_TMP/layout_holds/log, and in a failure's line.
set -u
RLX=$1
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
dir=$RLX_TEST_TMP/layout_holds
rm -rf "$dir" && mkdir -p "$dir"
log=$dir/log
# MobileNetV2 at 128x128: channels_last 1.30-1.67x faster on a 2-core Zen 5 (5 probes, CI bottoms
# 1.04-1.36), about 4 s a probe. (ResNet-18 at 32x32 there was 1.13-1.24x with CI bottoms at
# 1.01-1.10, and a tie at 64x64: too close to call for a test that must not flake.)
MODEL=${LAYOUT_HOLDS_MODEL:-mobilenet_v2}
INPUT=${LAYOUT_HOLDS_INPUT:-128}

# 1. Three calibrations in a row of a real CNN at a small input, each in an empty cache.
lines=()
for i in 1 2 3; do
  err=$(XDG_CACHE_HOME=$dir/cache$i "$RLX" train --model "$MODEL" --input "$INPUT" --classes 10 --batch-size 16 \
    --iters 1 --warmup-iters 0 --verbose 2>&1 >/dev/null) || fail "rlx train $i: $err"
  line=$(grep -m1 "^  memory format: " <<<"$err") || fail "calibration $i said no layout: $err"
  [[ "$line" != *"not kept, probed again next time"* ]] ||
    skip "calibration $i shared its cores with other processes in every round, twice: $line"
  echo "calibration $i: ${line#  memory format: }" >>"$log"
  lines+=("$line")
  # Printed: the batch it was decided at (the run's) and the 95 % CI.
  [[ "$line" =~ "memory format: $MODEL fp32: "(channels_last|contiguous)", ".*" at batch 16".*"95 % CI "[0-9.]+-[0-9.]+ ]] ||
    fail "calibration $i does not state its batch and CI: $line"
  # Stored: the verdict and the CI with the probe, in the cache that rlx train keeps it in.
  stored=$(XDG_CACHE_HOME=$dir/cache$i "$RLX" -e "local st = rlx.study{name = 'calibrations', db = rlx.calibrate.cache_db()}
    local c = st.db:calibrations(st.env_id, 'cpu')[1]
    print(c.memory_format, c.probe.batch, c.probe.verdict, type(c.probe.ci.low) == 'number' and
      type(c.probe.ci.high) == 'number' and c.probe.ci.low <= c.margin and c.margin <= c.probe.ci.high)" 2>&1)
  [[ "$stored" =~ ^(channels_last|contiguous)$'\t'16$'\t'(clear|tie|open)$'\t'true$ ]] ||
    fail "calibration $i stored no verdict and CI: $stored"
done
# The three choices agree. Their verdicts may differ only where the choice cannot: a tie keeps the
# default (channels_last), so a clear win of the default and a tie are the same choice, while
# contiguous is chosen only by a clear win, which all three must then find.
layout() { sed -E 's/^  memory format: [a-z0-9_]+ fp32: ([a-z_]+), .*/\1/' <<<"$1"; }
for i in 1 2; do
  [ "$(layout "${lines[$i]}")" = "$(layout "${lines[0]}")" ] ||
    fail "the layouts differ: 1: ${lines[0]} / $((i + 1)): ${lines[$i]}"
done
for i in 0 1 2; do
  [ "$(layout "${lines[$i]}")" = channels_last ] || [[ "${lines[$i]}" == *" faster than channels_last "* ]] ||
    fail "contiguous chosen without a clear win: ${lines[$i]}"
done

# 2. A tie: the same work in both layouts. Three probes in a row, each a tie within its CI, the
# default kept, the batch named; a probe the first three rounds leave open takes more at that batch.
# A "clear" verdict on identical work is the CI's designed error: drawn from this VM's runs, about
# 1 % of probes (rlx.calibrate.CLEAR). Such a probe is made once more, as rlx.calibrate.ensure makes
# a contended one again, and two in a row fail.
max_rounds=$("$RLX" -e 'print(rlx.calibrate.MAX_ROUNDS)')
mlp_probe() {
  XDG_CACHE_HOME=$dir/cache-mlp "$RLX" -e "
local mlp = {name = 'mlp', layers = {{'flatten'}, {'linear', out = 4096}, {'relu'}, {'linear', out = 4096}, {'relu'},
  {'linear', out = 10}}}
local function trainer(o) o.model = mlp return rlx.train(o) end
local c = rlx.calibrate.probe{model = 'mlp', input = 1, classes = 10, batch = 256, trainer = trainer}
print(string.format('%s\t%s\t%d\t%s\t%s', c.memory_format, c.probe.verdict, c.probe.rounds,
  tostring(c.contended == true), rlx.calibrate.margin_text(c)))" 2>&1
}
for i in 1 2 3; do
  out=$(mlp_probe) || fail "MLP probe $i: $out"
  echo "MLP probe $i: $out" >>"$log"
  if [ "$(cut -f2 <<<"$out")" = clear ]; then
    out=$(mlp_probe) || fail "MLP probe $i, again: $out"
    echo "MLP probe $i, again after a chance win: $out" >>"$log"
  fi
  IFS=$'\t' read -r format verdict rounds shared text <<<"$out"
  [ "$shared" = false ] || skip "MLP probe $i shared its cores with other processes in every round: $text"
  [ "$format" = channels_last ] || fail "MLP probe $i chose $format: $text"
  case "$verdict" in
    tie) [[ "$text" =~ ^"a tie with contiguous at batch 256 (within ±"[0-9]+" %: 95 % CI "[0-9.]+-[0-9.]+"): the default, "("which costs at most "[0-9]+" %"|"which the CI finds no slower")$ ]] ||
      fail "MLP probe $i's tie text: $text" ;;
    open) [ "$rounds" = "$max_rounds" ] || fail "MLP probe $i left open after $rounds rounds, not $max_rounds"
      [[ "$text" =~ ^"a tie with contiguous at batch 256 after $max_rounds rounds (within ±"[0-9]+" %: 95 % CI "[0-9.]+-[0-9.]+", the machine's noise): the default, "("which may cost up to "[0-9]+" %"|"which the CI finds no slower"|"whose cost the noise hides")$ ]] ||
      fail "MLP probe $i's text after the extra rounds: $text" ;;
    *) fail "MLP probe $i: identical work was not a tie, twice: $verdict: $text" ;;
  esac
done
echo ok
