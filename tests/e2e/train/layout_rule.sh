#!/usr/bin/env bash
# layout_rule.sh RLX: one layout rule for every entry point (issue 48 item 12; rlx.plan.layout):
# the layout given wins, else this machine's calibration (the study's database, else the user's
# cache), else the model's default; rlx.train{} and study:sweep{} use what is stored and probe
# nothing; every result says which rule chose the layout. A calibration stored before issue 55
# (no CI) is not used.
set -u
RLX=$1
fail() { echo "FAIL: $*"; exit 1; }
dir=$RLX_TEST_TMP/layout_rule
rm -rf "$dir" && mkdir -p "$dir"
export XDG_CACHE_HOME=$dir/cache
RUN="model = 'vgg16', batch = 2, iters = 1, warmup = 0, input = 32, classes = 10, threads = 1"
show='print(r.ok, r.memory_format, r.memory_format_rule, r.memory_format_choice)'

# Nothing calibrated: the model's default, and why.
out=$("$RLX" -e "local r = rlx.train{$RUN} $show" 2>&1)
[ "$out" = "$(printf 'true\tchannels_last\tdefault\tvgg16 fp32 at 32x32 is not calibrated on this machine (rlx train --model vgg16, or a study, calibrates it)')" ] ||
  fail "nothing calibrated: $out"
[ ! -e "$dir/cache/rlx/calibrations.db" ] || fail "a lookup made the cache database"

# A calibration stored before issue 55 (best steps at batch 2, no CI, no verdict) did not hold: it
# is not used, and the result says why.
"$RLX" -e "local st = rlx.study{name = 'calibrations', db = rlx.calibrate.cache_db()}
st.db:put_calibration(st.env_id, {device = 'cpu', model = 'vgg16', precision = 'fp32', input = 32, threads = 0,
  memory_format = 'contiguous', per_image_s = 0.5, margin = 1.21, probe = {batch = 2, seconds = 3, setup_s = 1,
  noise = 1.01, samples = {contiguous = {1.0, 1.01}, channels_last = {1.21, 1.22}}}}) st:close()" ||
  fail "storing the older calibration"
out=$("$RLX" -e "local r = rlx.train{$RUN} $show" 2>&1)
[ "$out" = "$(printf 'true\tchannels_last\tdefault\tvgg16 fp32 at 32x32 was calibrated on this machine by the rule before issue 55 (best steps at batch 2, no CI), which did not hold (rlx train --model vgg16, or a study, measures it again)')" ] ||
  fail "an older calibration: $out"

# This machine's calibration in the user's cache (as `rlx train` or a study keeps it): VGG-16
# faster contiguous at batch 2, by its 95 % CI, probed with any thread count (threads = 0).
"$RLX" -e "local st = rlx.study{name = 'calibrations', db = rlx.calibrate.cache_db()}
st.db:put_calibration(st.env_id, {device = 'cpu', model = 'vgg16', precision = 'fp32', input = 32, threads = 0,
  memory_format = 'contiguous', per_image_s = 0.5, margin = 1.21, probe = {batch = 2, seconds = 3, setup_s = 1,
  rounds = 2, verdict = 'clear', ci = {low = 1.18, high = 1.24, df = 6},
  samples = {contiguous = {1.0, 1.01, 0.99, 1.0}, channels_last = {1.21, 1.22, 1.2, 1.21}}}}) st:close()" ||
  fail "storing the calibration"
out=$("$RLX" -e "local r = rlx.train{$RUN} $show" 2>&1)
[ "$out" = "$(printf 'true\tcontiguous\tcalibrated\tvgg16 fp32: contiguous, 1.21x faster than channels_last at batch 2 (95 %% CI 1.18-1.24); 0.5 s/image, probe 3 s in 2 rounds')" ] ||
  fail "rlx.train{} with a calibration: $out"
out=$("$RLX" -e "local r = rlx.train{$RUN, memory_format = 'auto'} $show" 2>&1)
[ "$(cut -f2,3 <<<"$out")" = "$(printf 'contiguous\tcalibrated')" ] || fail "memory_format = 'auto': $out"
# The layout given always wins.
out=$("$RLX" -e "local r = rlx.train{$RUN, memory_format = 'channels_last'} $show" 2>&1)
[ "$out" = "$(printf 'true\tchannels_last\tgiven\tyours')" ] || fail "given: $out"

# study:sweep{} takes the same rule, and stores the rule with the run.
out=$("$RLX" -e "local s = rlx.study{name = 's', db = '$dir/s.db', label = 'lr'}
s:sweep{models = {'vgg16'}, batch = {2}, iters = 1, warmup = 0, input = 32, classes = 10, threads = 1, quiet = true}
s:sweep{models = {'vgg16'}, batch = {2}, iters = 1, warmup = 0, input = 32, classes = 10, threads = 1, quiet = true,
  memory_format = 'channels_last'}
for _, r in ipairs(s:runs{}) do print(r.label, r.memory_format, r.result.memory_format_rule) end" 2>&1 | grep -v 'shared its cores')
[ "$out" = "$(printf 'lr_vgg16_fp32_bs2_run1\tcontiguous\tcalibrated\nlr_vgg16_fp32_channels_last_bs2_run1\tchannels_last\tgiven')" ] ||
  fail "study:sweep{}: $out"
echo ok
