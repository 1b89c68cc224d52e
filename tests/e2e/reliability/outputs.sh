#!/usr/bin/env bash
# outputs.sh RLX: issue 17 items 1 and 2. rlx export never writes over the database it reads
# (same name, symlink or hard link), and a write error (/dev/full) is a failure with a message,
# for export --csv/--json and env --markdown. Every output appears complete or not at all: no
# temporary file is left behind, and a failed export leaves an older good output as it was.
set -uo pipefail
RLX=$1
T="$RLX_TEST_TMP/reliability-outputs"
rm -rf "$T"
mkdir -p "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
is_sqlite() { [ "$(head -c 15 "$1")" = "SQLite format 3" ]; }
"$RLX" run tests/e2e/store/sweep.lua --set db="$T/a.db" --set label=machine-a >/dev/null || fail "sweep"
ln -s a.db "$T/link.db"
ln "$T/a.db" "$T/hard.db"
before=$(md5sum <"$T/a.db")

# 1. The output is the input: refused before anything is written, exit 1, one line.
for flag in --csv --json; do
  for out in "$T/a.db" "$T/link.db" "$T/hard.db"; do
    "$RLX" export "$T/a.db" $flag "$out" >"$T/out" 2>"$T/err"; code=$?
    [ $code -eq 1 ] || fail "export $flag $out: exit $code, expected 1: $(cat "$T/err")"
    grep -q "^rlx export: the output '$out' is the same file as the input '$T/a.db': writing it would destroy the input; choose another output file$" "$T/err" \
      || fail "export $flag $out message: $(cat "$T/err")"
    is_sqlite "$T/a.db" || fail "export $flag $out damaged the database"
    [ "$(md5sum <"$T/a.db")" = "$before" ] || fail "export $flag $out changed the database"
  done
done
# The database named through a link is the input too.
"$RLX" export "$T/link.db" --csv "$T/a.db" 2>"$T/err" && fail "export link.db --csv a.db succeeded"
grep -q "is the same file as the input" "$T/err" || fail "export via link: $(cat "$T/err")"
[ "$(md5sum <"$T/a.db")" = "$before" ] || fail "export via link changed the database"
# Both outputs checked before either is written.
"$RLX" export "$T/a.db" --csv "$T/ok.csv" --json "$T/a.db" 2>"$T/err" && fail "export --json a.db succeeded"
[ ! -e "$T/ok.csv" ] || fail "the CSV was written although the JSON output is the input"

# 2. Write errors: /dev/full fails with the cause, for every writer.
for flag in --csv --json; do
  "$RLX" export "$T/a.db" $flag /dev/full >"$T/out" 2>"$T/err"; code=$?
  [ $code -eq 1 ] || fail "export $flag /dev/full: exit $code, expected 1: $(cat "$T/err")"
  grep -q "^rlx export: cannot write '/dev/full': No space left on device$" "$T/err" \
    || fail "export $flag /dev/full message: $(cat "$T/err")"
  grep -q "runs from" "$T/err" && fail "export $flag /dev/full claimed success: $(cat "$T/err")"
done
"$RLX" env --markdown /dev/full >"$T/out" 2>"$T/err"; code=$?
[ $code -eq 1 ] || fail "env --markdown /dev/full: exit $code, expected 1: $(cat "$T/err")"
grep -q "^rlx env: cannot write '/dev/full': No space left on device$" "$T/err" || fail "env message: $(cat "$T/err")"
grep -q "^wrote" "$T/out" && fail "env --markdown /dev/full claimed success"
# Stdout that cannot be written is an error too.
"$RLX" export "$T/a.db" --csv - >/dev/full 2>"$T/err" && fail "export --csv - >/dev/full succeeded"
grep -q "^rlx export: cannot write to stdout: No space left on device$" "$T/err" || fail "stdout message: $(cat "$T/err")"

# Normal outputs are complete, and leave no temporary file.
"$RLX" export "$T/a.db" --csv "$T/a.csv" --json "$T/a.json" 2>/dev/null || fail "export"
[ "$(wc -l <"$T/a.csv")" -eq 9 ] || fail "CSV rows: $(wc -l <"$T/a.csv")"
"$RLX" env --markdown "$T/env.md" >/dev/null || fail "env --markdown"
grep -q "^# Environment" "$T/env.md" || fail "env.md: $(head -3 "$T/env.md")"
ls -A "$T" | grep -q '\.tmp-' && fail "temporary files left: $(ls -A "$T")"
# A failed export (missing study table in a non-database) leaves the old output as it was.
cp "$T/a.csv" "$T/keep.csv"
"$RLX" export CMakeLists.txt --csv "$T/a.csv" 2>/dev/null && fail "export of a non-database succeeded"
cmp -s "$T/a.csv" "$T/keep.csv" || fail "a failed export changed the old output"
echo "outputs ok"
