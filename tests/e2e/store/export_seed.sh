#!/usr/bin/env bash
# export_seed.sh RLX: rlx export DB --layout seed --out DIR writes seed 000's seven files, read back
# by export_seed_check.lua; a second export replaces them; a SQLite database where a file goes is
# refused before anything is written; usage errors exit 2.
set -euo pipefail
RLX=$1
T="$RLX_TEST_TMP/store-e2e-export-seed"
rm -rf "$T"
mkdir -p "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
"$RLX" run tests/e2e/store/export_seed_make.lua --set dir="$T" >/dev/null
"$RLX" export "$T/kit.db" --layout seed --out "$T/kit" >"$T/out" 2>"$T/err"
[ "$(wc -l <"$T/out")" -eq 7 ] || fail "expected the 7 paths: $(cat "$T/out")"
grep -q "rlx export: 4 ok runs (4 roofline points) from $T/kit.db in seed 000's layout" "$T/err" || fail "$(cat "$T/err")"
got=$("$RLX" run tests/e2e/store/export_seed_check.lua --set dir="$T")
[ "$got" = "seed layout ok" ] || fail "$got"
"$RLX" export "$T/kit.db" --layout seed --out "$T/kit" --study kit >/dev/null 2>&1 || fail "second export"
[ "$("$RLX" run tests/e2e/store/export_seed_check.lua --set dir="$T")" = "seed layout ok" ] || fail "second export"

# A database where analysis/roofline_points.csv goes: refused, exit 1, nothing written.
rm -rf "$T/kit2" && mkdir -p "$T/kit2/analysis"
cp "$T/kit.db" "$T/kit2/analysis/roofline_points.csv"
if "$RLX" export "$T/kit.db" --layout seed --out "$T/kit2" >"$T/out2" 2>"$T/err2"; then fail "overwrote a database"; fi
grep -q "^rlx export: '$T/kit2/analysis/roofline_points.csv' is a SQLite database; refusing to overwrite it" "$T/err2" \
  || fail "$(cat "$T/err2")"
[ ! -e "$T/kit2/logs" ] || fail "files written before the refusal"
cmp -s "$T/kit.db" "$T/kit2/analysis/roofline_points.csv" || fail "the database was changed"

set +e
"$RLX" export "$T/kit.db" --layout seed >/dev/null 2>"$T/err3"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "needs --out DIR" "$T/err3" || fail "no --out: $rc $(cat "$T/err3")"
set +e
"$RLX" export "$T/kit.db" --layout seed --out "$T/k" --csv x.csv >/dev/null 2>"$T/err4"; rc=$?
set -e
[ $rc -eq 2 ] || fail "--layout with --csv: $rc"
echo "export seed ok"
