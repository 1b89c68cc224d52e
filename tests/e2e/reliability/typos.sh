#!/usr/bin/env bash
# typos.sh RLX: typos that created things or did nothing (issue 25 finding 10). `rlx peaks --db`
# with a file that is no database fails at once (it measured for 12 s, then failed with a
# traceback); with a new database it warns that no study is there; into a study's database it adds
# no study of its own. `--set db=DIR/x.db --dry-run` creates neither DIR nor the database, `--set
# devices=gpu` is a usage error (it ran nothing and exited 0), and store_peaks refuses a negative
# bandwidth (it was stored and printed as measured).
set -u
RLX=$1
SRC=$PWD
T="$RLX_TEST_TMP/reliability-typos"
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
peaks=(peaks --quick --only l1 --repeats 1)

printf 'garbage\n' >garbage.db
"$RLX" "${peaks[@]}" --db garbage.db >out 2>err && fail "peaks into garbage.db succeeded"
[ "$(cat err)" = "rlx peaks: --db: 'garbage.db' is not an SQLite database: give the path of a study database, or a new file name" ] ||
  fail "garbage.db: $(cat err)"
[ ! -s out ] || fail "measured before refusing garbage.db: $(cat out)"

"$RLX" "${peaks[@]}" --db typo.db >out 2>err || fail "peaks into a new database: $(cat err)"
[ "$(cat err)" = "rlx peaks: warning: typo.db holds no study (a new database, or a typo?): the peaks are stored there for the studies it will hold; a study's database is results/<study>.db" ] ||
  fail "new database: $(cat err)"

"$RLX" -e "local st = rlx.study{name = 'mine', db = 'study.db'} st:close()" || fail "making study.db"
"$RLX" "${peaks[@]}" --db study.db >out 2>err || fail "peaks into a study: $(cat err)"
[ ! -s err ] || fail "a warning for a study's database: $(cat err)"
got=$("$RLX" -e "local db = rlx.db.open('study.db', {readonly = true}) print(table.concat(db:study_names(), ','), #db:query('SELECT * FROM peaks') > 0)")
[ "$got" = "$(printf 'mine\ttrue')" ] || fail "studies and peaks of study.db: $got"

# A dry run plans a database that does not exist in memory: nothing is created.
"$RLX" run "$SRC/experiments/all.lua" --set db="$T/none/x.db" --set scale=smoke --dry-run >out 2>err ||
  fail "dry run: $(cat err)"
grep -q "^dry run: " out || fail "no plan: $(cat out)"
[ ! -e "$T/none" ] || fail "the dry run created the database's directory"
[ ! -e results ] && [ ! -e figures ] || fail "the dry run created results/ or figures/"

"$RLX" run "$SRC/experiments/all.lua" --set devices=gpu --dry-run >out 2>err
rc=$?
[ "$rc" = 2 ] || fail "devices=gpu: exit $rc"
[ "$(head -1 err)" = "experiments/all.lua: --set devices= takes cpu and/or cuda (e.g. cpu,cuda), got 'gpu'" ] ||
  fail "devices=gpu: $(cat err)"

"$RLX" -e "local st = rlx.study{name = 'mine', db = 'study.db'} st:store_peaks{dram_gbps = -5}" >out 2>err &&
  fail "a negative bandwidth was stored"
[ "$(head -1 err)" = "(command line):1: study:store_peaks: dram_gbps = -5 is not a peak: bandwidths (_gbps) and FLOP rates (_gflops) must be positive, finite numbers" ] ||
  fail "store_peaks: $(cat err)"
echo ok
