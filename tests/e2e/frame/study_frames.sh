#!/usr/bin/env bash
# study_frames.sh RLX: frames on a real study database (make_study.lua: 12 runs, values worked out
# by hand there). Group means equal SQL's AVG and the hand-worked values; the REPL prints exactly
# the expected tables on stdin; the printer keeps to a width; rlx runs prints through it.
set -euo pipefail
RLX=$1
SRC=${RLX_SOURCE_DIR:?}
T="$RLX_TEST_TMP/frame-study"
rm -rf "$T"; mkdir -p "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
"$RLX" run "$SRC/tests/e2e/frame/make_study.lua" --set db="$T/s.db" >/dev/null

# group_by/agg means against SQL's AVG on the same database, and against the hand-worked values:
# per model 30.5 and 90.5; per model and batch base * batch + 0.5, SD 0.25.
got=$("$RLX" -e "
local s = rlx.study{name = 'explore', db = '$T/s.db'}
for _, r in ipairs(s:runs{}:group_by{'model'}:agg{images_per_s = 'mean', n = 'count'}) do
  local sql = s.db:first('SELECT avg(images_per_s) AS m FROM runs WHERE model = ?', r.model).m
  print(r.model, r.n, string.format('%.17g', r.images_per_s), math.abs(r.images_per_s - sql) < 1e-12)
end
for _, r in ipairs(s:runs{}:group_by{'model', 'batch'}:agg{images_per_s = {'mean', 'sd'}}) do
  print(r.model, r.batch, string.format('%.17g %.17g', r.images_per_s_mean, r.images_per_s_sd))
end
print(rlx.frame.is(s:runs{}), rlx.frame.is(s:points{}), rlx.frame.is(s.db:query('SELECT 1 AS x')))")
want=$'mobilenet_v2\t6\t90.5\ttrue\nresnet18\t6\t30.5\ttrue
mobilenet_v2\t2\t60.5 0.25\nmobilenet_v2\t4\t120.5 0.25\nresnet18\t2\t20.5 0.25\nresnet18\t4\t40.5 0.25
true\ttrue\ttrue'
[ "$got" = "$want" ] || fail "group means: $got"

# The REPL on stdin prints records as tables (no width limit: stdout is not a terminal).
got=$(printf '%s\n' 'study:runs{}:group_by{"model"}:agg{images_per_s = "mean", n = "count"}' \
  'study:runs{model = "resnet18", batch = 4}:select{"run", "images_per_s", "status"}' \
  'r = study:runs{}:group_by{"model", "batch"}:agg{images_per_s = "mean"}' \
  'r:pivot{rows = "batch", cols = "model", value = "images_per_s"}' \
  'study:runs{}:group_by("model")' \
  'db:sql[[SELECT model, count(*) AS n FROM runs GROUP BY model ORDER BY n DESC, model]]' \
  'rlx.show(study:runs{}:sort("images_per_s", "desc"), {cols = {"label", "images_per_s"}, max_rows = 2})' \
  '#study:runs{}, study:runs{}[1].model' \
  | env -u COLUMNS "$RLX" repl --db "$T/s.db")
want='model         images_per_s  n
------------  ------------  -
mobilenet_v2          90.5  6
resnet18              30.5  6
2 rows
run  images_per_s  status
---  ------------  ------
  1         40.25  ok
  2         40.50  ok
  3         40.75  ok
3 rows
images_per_s: batch down, model across
batch  mobilenet_v2  resnet18
-----  ------------  --------
    2          60.5      20.5
    4         120.5      40.5
2 rows
12 rows in 2 groups by model; summarise them with :agg{column = "mean", n = "count", ...}
model         n
------------  -
mobilenet_v2  6
resnet18      6
2 rows
label                               images_per_s
----------------------------------  ------------
testbox_mobilenet_v2_fp32_bs4_run3        120.75
testbox_mobilenet_v2_fp32_bs4_run2        120.50
... 10 more rows
12 rows'
last=$(printf '%s\n' "$got" | tail -1)
got=$(printf '%s\n' "$got" | sed '$d')
[ "$got" = "$want" ] || fail "repl tables:
$got
--- want:
$want"
[ "$last" = $'12\t"mobilenet_v2"' ] || fail "several values on one line: $last"

# Width: every line of a wide table fits in 60 columns, the left-out columns are named.
"$RLX" -e "rlx.show(rlx.study{name = 'explore', db = '$T/s.db'}:runs{}, {width = 60})" >"$T/w60.txt"
long=$(perl -CSD -ne 'chomp; print "$_\n" if length($_) > 60' "$T/w60.txt")
[ -z "$long" ] || fail "lines over 60 columns: $long"
grep -Eq '^12 rows, [0-9]+ columns \([0-9]+ shown\)$' "$T/w60.txt" || fail "count line: $(cat "$T/w60.txt")"
grep -q '^not shown (too wide): ' "$T/w60.txt" || fail "left-out columns not named"

# rlx runs prints through the same printer: every column to a pipe, cut to COLUMNS when set.
"$RLX" runs "$T/s.db" >"$T/runs.txt"
head -1 "$T/runs.txt" | grep -Eq '^label +status +images_per_s +iter_mean_s +iter_sd_s +seconds +memory_format +finished_at +error$' ||
  fail "runs header: $(head -1 "$T/runs.txt")"
grep -Eq "^testbox_resnet18_fp32_bs4_run3 +ok +40\\.75 +0\\.098160 +0 +0\\.098160 +20[0-9-]+T" "$T/runs.txt" ||
  fail "runs row: $(cat "$T/runs.txt")"
[ "$(tail -1 "$T/runs.txt")" = "12 runs (12 ok, 0 not ok)" ] || fail "runs count: $(tail -1 "$T/runs.txt")"
COLUMNS=60 "$RLX" runs "$T/s.db" >"$T/runs60.txt"
long=$(perl -CSD -ne 'chomp; print "$_\n" if length($_) > 60' "$T/runs60.txt")
[ -z "$long" ] || fail "rlx runs lines over 60 columns: $long"
grep -q '^12 runs (12 ok, 0 not ok)$' "$T/runs60.txt" || fail "runs60 count"
grep -q '^not shown (too wide): ' "$T/runs60.txt" || fail "runs60 left out: $(cat "$T/runs60.txt")"
grep -q 'finished_at' "$T/runs60.txt" || fail "runs60 does not name finished_at: $(cat "$T/runs60.txt")"
echo "study frames ok"
