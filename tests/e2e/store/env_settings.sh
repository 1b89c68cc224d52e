#!/usr/bin/env bash
# env_settings.sh RLX: `rlx env` ends with the training settings chosen on this machine: each
# calibrated layout with its margin (from --db and from rlx train's cache), in the printed
# Markdown, in --markdown FILE and as `calibrations` in --json; and the settings each training
# process decides at start, with the CPUs this process may run on.
set -u
RLX=$1
fail() { echo "FAIL: $*"; exit 1; }
dir=$RLX_TEST_TMP/env_settings
rm -rf "$dir" && mkdir -p "$dir"
export XDG_CACHE_HOME=$dir/cache  # an empty cache: only --db's calibration is listed
db=$dir/s.db
"$RLX" -e "local st = rlx.study{name = 's', db = '$db'}
st.db:put_calibration(st.env_id, {device = 'cpu', model = 'vgg16', precision = 'fp32', input = 224,
  memory_format = 'contiguous', per_image_s = 0.75, margin = 1.46, probe = {batch = 2, noise = 1.05, samples = {}}})
st:close()" || fail "could not store a calibration"

row='| vgg16 | fp32 | cpu | 224 | - | contiguous | 1.46x faster than channels_last | 0.75 |'
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
out=$("$RLX" env --db "$db")
[[ "$out" == *"## Training settings chosen on this machine"* ]] || fail "no settings section"
[[ "$out" == *"$row"* ]] || fail "no calibration row: $out"
[[ "$out" == *"threads, one per CPU it may run on ($cpus here: its affinity mask)"* ]] || fail "threads line"
out=$("$RLX" env)
[[ "$out" == *"No model's memory layout measured here yet"* ]] || fail "without --db, an empty cache: $out"
"$RLX" env --db "$db" --markdown "$dir/env_info.md" >/dev/null || fail "--markdown"
grep -qF "$row" "$dir/env_info.md" || fail "--markdown FILE has no calibration row"
"$RLX" env --db "$db" --json | tr -d ' \n' | grep -q '"calibrations":\[{[^]]*"margin":"1.46xfasterthanchannels_last"' ||
  fail "--json has no calibrations"
if command -v taskset >/dev/null && [ "$cpus" -gt 1 ]; then
  out=$(taskset -c "$(taskset -pc $$ | sed 's/.*: *//; s/[,-].*//')" "$RLX" env)
  [[ "$out" == *"(1 here: its affinity mask)"* ]] || fail "pinned to one CPU: $(grep -o '([0-9]* here[^)]*)' <<<"$out")"
fi
echo ok
