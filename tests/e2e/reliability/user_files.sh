#!/usr/bin/env bash
# user_files.sh RLX: issue 48 item 1, one rule for every file a user names (engine/util/text_file.h):
# a FIFO or a link to /dev/zero where rlx expects a script, a model file, a database, a Markdown
# report, an ncu CSV or a kit's files is refused at once (each case under `timeout 60`: a hang fails
# it) with one line naming the file, exit 1 or 2, and nothing made. import-kit hung forever on a
# FIFO at logs/metrics.csv or logs/env_info.md and skipped one at logs/ncu/LABEL.csv silently.
set -u
RLX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$PWD
T="$RLX_TEST_TMP/reliability-user-files"
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
mkfifo fifo.lua fifo.db fifo.csv fifo.md
ln -s /dev/zero zero.lua
# refused NAME EXIT EXPECTED-LINE CMD...: exit EXIT within 10 s, stderr exactly one line matching.
refused() {
  local name=$1 want=$2 line=$3
  shift 3
  timeout -k 5 60 "$@" >out 2>err
  local rc=$?
  [ "$rc" != 124 ] || fail "$name: hung"
  [ "$rc" = "$want" ] || fail "$name: exit $rc, expected $want: $(cat err)"
  [ "$(grep -cv "^Try 'rlx" err)" = 1 ] || fail "$name: not one line: $(cat err)"
  grep -q -- "$line" err || fail "$name: said '$(cat err)', expected '$line'"
}
why="is a FIFO, not a regular file: rlx reads only regular files (this one would block or never end); put the file itself there"
refused "rlx run FIFO" 2 "^rlx: the script 'fifo.lua' $why$" "$RLX" run fifo.lua
refused "rlx run a link to /dev/zero" 2 "^rlx: the script 'zero.lua' is a device, not a regular file" "$RLX" run zero.lua
refused "rlx train --model FIFO.lua" 2 "^rlx train: the model file 'fifo.lua' $why$" \
  "$RLX" train --model fifo.lua --iters 1 --warmup-iters 0
refused "rlx models FIFO.lua" 2 "^rlx models: the model file 'fifo.lua' $why$" "$RLX" models fifo.lua
refused "rlx runs FIFO.db" 1 "^rlx runs: .*the database 'fifo.db' $why" "$RLX" runs fifo.db
refused "rlx status FIFO.db" 1 "^rlx status: the database '.*fifo.db' $why" "$RLX" status fifo.db
refused "rlx train --db FIFO.db" 1 "^rlx train: --db: the database 'fifo.db' $why$" \
  "$RLX" train --model resnet18 --iters 1 --warmup-iters 0 --db fifo.db
refused "rlx.db.open(FIFO)" 1 "rlx.db.open: the database 'fifo.db' $why$" "$RLX" -e "rlx.db.open('fifo.db')"
refused "rlx merge OUT FIFO" 1 "fifo.db' $why" "$RLX" merge out.db fifo.db
[ ! -e out.db ] || fail "merge made out.db"
refused "rlx import-ncu FIFO.csv" 1 "^rlx import-ncu: the ncu CSV 'fifo.csv' $why$" "$RLX" import-ncu fifo.csv
refused "rlx report FIFO.md" 1 "the Markdown file 'fifo.md' $why" "$RLX" report fifo.md --out f.html
[ ! -e f.html ] || fail "report made f.html"
refused "rlx submit FIFO.lua" 2 "^rlx submit: the script 'fifo.lua' $why$" "$RLX" submit fifo.lua --dry-run
# A kit folder with a FIFO at each of its files (and env_info.md linked to /dev/zero).
kit() { rm -rf "$1"; cp -r "$SRC/tests/fixtures/kit/mac" "$1"; }
"$RLX" -e "rlx.db.open('k.db'):close()" || fail "making k.db"
kit k1 && rm k1/logs/metrics.csv && mkfifo k1/logs/metrics.csv
refused "import-kit: metrics.csv a FIFO" 1 "^rlx import-kit: the kit's metrics.csv 'k1/logs/metrics.csv' $why$" \
  "$RLX" import-kit k1 --db k.db
kit k2 && rm -f k2/logs/env_info.md && mkfifo k2/logs/env_info.md
refused "import-kit: env_info.md a FIFO" 1 "^rlx import-kit: the kit's env_info.md 'k2/logs/env_info.md' $why$" \
  "$RLX" import-kit k2 --db k.db
kit k3 && rm -f k3/logs/env_info.md && ln -s /dev/zero k3/logs/env_info.md
refused "import-kit: env_info.md a link to /dev/zero" 1 "the kit's env_info.md 'k3/logs/env_info.md' is a device" \
  "$RLX" import-kit k3 --db k.db
kit k4 && mkdir -p k4/logs/ncu && mkfifo k4/logs/ncu/mac_resnet50_fp32_bs16_run1.csv
refused "import-kit: an ncu CSV a FIFO" 1 "the ncu CSV 'k4/logs/ncu/mac_resnet50_fp32_bs16_run1.csv' $why$" \
  "$RLX" import-kit k4 --db k.db
[ "$(sqlite3 k.db 'SELECT count(*) FROM runs')" = 0 ] || fail "an import stored runs"
echo ok
