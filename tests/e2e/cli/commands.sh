#!/usr/bin/env bash
# commands.sh RLX: command-line fixes on a copy of the EPYC study (never the fixture itself):
# `rlx export --csv` keeps every value under its header, `rlx runs --summary --json` prints Table 2's
# numbers (not the runs), `rlx env --db` of a missing or non-database file fails in one line.
set -euo pipefail
RLX=$1
T="$RLX_TEST_TMP/cli-commands"
rm -rf "$T"
mkdir -p "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
cp tests/fixtures/studies/epyc-2c-study.db "$T/study.db"
sum=$(sha256sum tests/fixtures/studies/epyc-2c-study.db | cut -d' ' -f1)

# 1. The CSV export, cell by cell (export_columns.lua).
got=$("$RLX" run tests/e2e/cli/export_columns.lua --set db="$T/study.db" --set out="$T/runs.csv")
[ "$got" = "export columns ok" ] || fail "$got"

# 2. --summary --json: one record per configuration (3 models x 3 batches = 9), Table 2's numbers;
# resnet50 at batch 16 averages its 3 runs, so its mean is the mean of those runs' images_per_s as
# --json lists them.
"$RLX" runs "$T/study.db" --summary --json >"$T/summary.json"
"$RLX" runs "$T/study.db" --json >"$T/runs.json"
got=$("$RLX" -e "
local s = rlx.json.decode(io.open('$T/summary.json'):read('*a'))
local runs = rlx.json.decode(io.open('$T/runs.json'):read('*a'))
local rec
for _, r in ipairs(s) do if r.model == 'resnet50' and r.batch == 16 then rec = r end end
local sum, n = 0, 0
for _, r in ipairs(runs) do
  if r.model == 'resnet50' and r.batch == 16 then sum = sum + r.images_per_s; n = n + 1 end
end
print(#s, #runs, rec.n, rec.n_all, rec.env, rec.precision, n, math.abs(rec.images_per_s_mean - sum / n) < 1e-12,
  rec.labels, s[1].label == nil)")
want=$(printf '9\t27\t3\t3\tepyc-2c\tfp32\t3\ttrue\tepyc-2c_resnet50_fp32_bs16_run1 epyc-2c_resnet50_fp32_bs16_run2 epyc-2c_resnet50_fp32_bs16_run3\ttrue')
[ "$got" = "$want" ] || fail "--summary --json: got '$got', expected '$want'"
# No ok run kept: {} (as --json prints no runs), exit 0.
[ "$("$RLX" runs "$T/study.db" --summary --json --model nosuch)" = "{}" ] || fail "--summary --json of no runs"

# 3. rlx env --db: a missing file and a file that is not a database are one-line errors, exit 1,
# nothing on stdout.
env_err() {  # env_err DB EXPECTED-LINE
  set +e
  "$RLX" env --db "$1" >"$T/env.out" 2>"$T/env.err"; local rc=$?
  set -e
  [ $rc -eq 1 ] || fail "env --db $1: exit $rc"
  [ ! -s "$T/env.out" ] || fail "env --db $1 printed: $(cat "$T/env.out")"
  [ "$(cat "$T/env.err")" = "$2" ] || fail "env --db $1: $(cat "$T/env.err")"
}
env_err "$T/none.db" "rlx env: no database at '$T/none.db' (check the path)"
printf 'not sqlite\n' >"$T/junk.db"
env_err "$T/junk.db" "rlx env: '$T/junk.db' is not a usable SQLite database (file is not a database); is it the right file, or was it damaged? Restore it or start a new database"
[ ! -e "$T/none.db" ] || fail "env --db made the missing database"
# A real database still lists its calibrations section.
# (Into a file first: grep -q leaves the pipe at its first match, and rlx, still writing, would die of
# SIGPIPE, which pipefail counts.)
"$RLX" env --db "$T/study.db" >"$T/env-study.md" || fail "env --db of a study: exit $?"
grep -q "^## Training settings chosen on this machine" "$T/env-study.md" || fail "env --db of a study"

[ "$(sha256sum tests/fixtures/studies/epyc-2c-study.db | cut -d' ' -f1)" = "$sum" ] || fail "the fixture changed"
echo "cli commands ok"
