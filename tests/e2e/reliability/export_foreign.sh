#!/usr/bin/env bash
# export_foreign.sh RLX: issue 56 item 5. `rlx export DB --layout seed --out DIR` into a folder that
# holds the seed kit's own logs/metrics.csv replaced it silently; now files rlx did not write are
# named and kept (exit 2) unless --force, and files an earlier export wrote (its DIR/.rlx-export
# lists them with their content) are replaced as before.
set -u
RLX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$PWD
T="$RLX_TEST_TMP/reliability-export-foreign"
rm -rf "$T"
mkdir -p "$T/kit/logs"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
cp "$SRC/tests/fixtures/studies/epyc-2c-b-study.db" a.db

echo "the kit's own row" >kit/logs/metrics.csv
"$RLX" export a.db --layout seed --out kit >out 2>err
rc=$?
[ "$rc" = 2 ] || fail "export into the kit: exit $rc: $(cat err)"
grep -qF "rlx export: kit already holds 1 file(s) that rlx did not write: kit/logs/metrics.csv; writing seed 000's layout would replace them: choose an empty folder for --out, move them away, or add --force to replace them" err ||
  fail "export into the kit said: $(cat err)"
[ "$(cat kit/logs/metrics.csv)" = "the kit's own row" ] || fail "the kit's metrics.csv changed"
[ ! -e kit/analysis ] || fail "something was written: $(ls -R kit)"

# A new folder, then the same export again: rlx's own files are replaced without --force.
"$RLX" export a.db --layout seed --out new >out 2>err || fail "export into a new folder: $(cat err)"
[ -f new/.rlx-export ] || fail "no new/.rlx-export"
"$RLX" export a.db --layout seed --out new >out 2>err || fail "export again: $(cat err)"
# An edited file is the user's now.
echo "edited" >>new/logs/env_info.md
"$RLX" export a.db --layout seed --out new >out 2>err
[ $? = 2 ] || fail "export over an edited file: $(cat err)"
grep -qF "new/logs/env_info.md" err || fail "the edited file is not named: $(cat err)"

# --force replaces them; --force without --layout seed is a usage error.
"$RLX" export a.db --layout seed --out kit --force >out 2>err || fail "--force: $(cat err)"
[ "$(cat kit/logs/metrics.csv)" != "the kit's own row" ] || fail "--force kept the file"
"$RLX" export a.db --csv x.csv --force >out 2>err
[ $? = 2 ] || fail "--force with --csv: $(cat err)"
echo ok
