#!/usr/bin/env bash
# calibration_corrupt.sh RLX: issue 48 item 7, a calibration row edited by hand
# (memory_format = 'bogus' || char(27) || '[2J'). `rlx env --db` wrote the raw ESC to the terminal
# and showed a NaN margin; `rlx train --db` exited 2 with a usage error about an option the user
# never gave. The store checks each row on read (engine/store/plans.cpp): the row is left out with
# one warning saying what was wrong, escaped; `rlx train` measures again and replaces it.
set -u
RLX=$1
T="$RLX_TEST_TMP/reliability-calibration-corrupt"
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
ESC=$'\033'
"$RLX" -e "local st = rlx.study{name = 'train', db = 'd.db'}
  st.db:put_calibration(st.env_id, {device = 'cpu', model = 'resnet18', precision = 'fp32', input = 32,
    memory_format = 'contiguous', per_image_s = 0.01, margin = 1.3, probe = {batch = 2, threads = 1}, threads = 1})
  st:close()" || fail "storing a calibration"
sqlite3 d.db "UPDATE calibrations SET memory_format = 'bogus' || char(27) || '[2J'"
"$RLX" env --db d.db >out 2>err || fail "rlx env: exit $?: $(cat err)"
! grep -q "$ESC" out err || fail "rlx env wrote a raw ESC"
! grep -qi "nan" out || fail "rlx env showed NaN: $(grep -i nan out)"
grep -q "^rlx env: warning: database 'd.db': the cpu calibration of 'resnet18' ('fp32', input 32, threads 1) is unusable: memory_format 'bogus\\\\027\[2J' is not channels_last or contiguous; it is ignored, and measured again where needed$" err ||
  fail "rlx env's warning: $(cat err)"
"$RLX" train --model resnet18 --batch-size 2 --input 32 --classes 10 --iters 1 --warmup-iters 0 --threads 1 \
  --db d.db >out 2>err || fail "rlx train: exit $?: $(cat err)"
! grep -q "$ESC" out err || fail "rlx train wrote a raw ESC"
grep -q "^rlx train: warning: database 'd.db': the cpu calibration of 'resnet18'" err || fail "rlx train's warning: $(cat err)"
# The run trained in a real layout (measured again; the new probe replaces the row unless other
# processes shared its cores, when it serves this run only: rlx.calibrate.ensure).
case "$(sqlite3 d.db "SELECT memory_format FROM runs")" in
  contiguous | channels_last) ;;
  *) fail "the run's layout: $(sqlite3 d.db 'SELECT memory_format FROM runs')" ;;
esac
echo ok
