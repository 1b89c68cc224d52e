#!/usr/bin/env bash
# messages3.sh RLX: issue 35 item 11, the third probe's messages that take more than one command:
# `export --layout seed --study nosuch` left an empty folder; a database without its runs table
# said "bad SQL"; `rlx status` after a submission sbatch refused said "4 slots submitted" beside
# "not submitted"; an ncu CSV's error line was skipped like ncu's log lines. (One-command cases are
# cases in tests/e2e/reliability.t.)
set -u
RLX=$1
SRC=$PWD
T="$RLX_TEST_TMP/reliability-messages3"
rm -rf "$T"
mkdir -p "$T/bin"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$RLX" -e "rlx.study{name = 'mine', db = 's.db'}:close()" || fail "making s.db"
"$RLX" export s.db --layout seed --study nosuch --out kit >out 2>err
[ $? = 1 ] || fail "export --study nosuch: exit"
[ "$(cat err)" = "rlx export: no study 'nosuch' in s.db (studies: mine)" ] || fail "export --study nosuch: $(cat err)"
[ ! -e kit ] || fail "export --study nosuch made kit/"

cp s.db norun.db
sqlite3 norun.db 'PRAGMA foreign_keys = OFF; DROP TABLE runs'
for cmd in runs status; do
  "$RLX" $cmd norun.db >out 2>err
  [ $? = 1 ] || fail "$cmd of a database without runs: exit"
  grep -q "^rlx $cmd: 'norun.db' is an rlx database (schema version [0-9]*) without its 'runs' table: it was damaged or edited by hand; use a backup or a copy rlx wrote$" err ||
    fail "$cmd of a database without runs: $(cat err)"
done

printf '#!/bin/sh\necho "sbatch: error: invalid partition specified: nosuch" >&2\nexit 1\n' >bin/sbatch
printf '#!/bin/sh\nexit 0\n' >bin/squeue
chmod +x bin/sbatch bin/squeue
PATH="$T/bin:$PATH" "$RLX" submit "$SRC/tests/slurm/study.lua" --set db=results/study.db --tasks 2 --partition nosuch \
  >out 2>err
[ $? = 1 ] || fail "a refused sbatch: exit"
PATH="$T/bin:$PATH" "$RLX" status results/study.db >out 2>err || fail "status: $(cat err)"
[ "$(head -1 out)" = "$T/results/study.db: no slots submitted: 8 slots not submitted (sbatch refused their submission: run rlx submit again)" ] ||
  fail "status after a refused sbatch: $(cat out)"
grep -q "[0-9] slots submitted:" out && fail "status still counts them submitted: $(cat out)"

printf '==PROF== Connected to process 1\n==ERROR== Failed to profile "k" in process 1\n"ID","Kernel Name","dram__bytes_read.sum","gpu__time_duration.sum"\n"","","byte","nsecond"\n"0","k","100","5"\n' \
  >err.csv
"$RLX" import-ncu err.csv >out 2>err
[ $? = 1 ] || fail "import-ncu of a file with an error line: exit"
grep -q 'err.csv:2: ncu reported an error: "==ERROR== Failed to profile "k" in process 1": the results beside it may be missing or wrong' err ||
  fail "import-ncu: $(cat err)"
echo ok
