#!/usr/bin/env bash
# overwrite_db.sh RLX: no output flag replaces a study database (issue 25 finding 6: `rlx report
# report.md --out study.db`, `rlx env --markdown x.db` and `rlx export A.db --csv B.db` replaced
# SQLite files and exited 0; `rlx report DB --out DB` named an internal rlx.plot.mkdir). Each is
# refused with one line and the database is unchanged, byte for byte; so are a figure's out and
# rlx.fs.write_atomic. And rlx merge checks every input before it creates OUT (finding 11: a
# missing input left an empty OUT), and says which inputs a failed merge did not merge.
set -u
RLX=$1
T="$RLX_TEST_TMP/reliability-overwrite-db"
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
# A run stored without a precision (rlx.train's default, fp32, is filled in: the report's figures
# failed on a nil precision).
"$RLX" -e "local st = rlx.study{name = 's', db = 'a.db', label = 'lab'}
  st:store_run({model = 'm', batch = 2}, {ok = true, images_per_s = 5, iter_s = {mean = 1}}) st:close()" || fail "making a.db"
cp a.db b.db
sum_a=$(md5sum <a.db)
sum_b=$(md5sum <b.db)
"$RLX" report a.db --out rep --quiet || fail "report"

cp b.db c.png  # a database under a figure's name
# refused WANT ARGS...: exit 1, WANT as the first line on stderr (a script error's traceback
# follows it; a command's error is that line alone), the databases unchanged.
refused() {
  local want=$1
  shift
  "$RLX" "$@" >out 2>err
  local rc=$?
  [ "$rc" = 1 ] || fail "exit $rc for: $* ($(cat err))"
  [ "$(head -1 err)" = "$want" ] || fail "for: $*: stderr '$(cat err)', expected '$want'"
  case "$1" in -e) ;; *) [ "$(wc -l <err)" = 1 ] || fail "for: $*: more than one line: $(cat err)" ;; esac
  [ "$(md5sum <a.db)" = "$sum_a" ] && [ "$(md5sum <b.db)" = "$sum_b" ] && [ "$(md5sum <c.png)" = "$sum_b" ] ||
    fail "a database changed: $*"
}
refused "rlx report: 'b.db' is an SQLite database; refusing to overwrite it (choose another file name)" \
  report rep/report.md --out b.db
refused "rlx report: the report's folder: 'b.db' is a file, not a directory: give a directory" report a.db --out b.db
refused "rlx env: --markdown: 'b.db' is an SQLite database; refusing to overwrite it (choose another file name)" \
  env --markdown b.db
refused "rlx export: --csv: 'b.db' is an SQLite database; refusing to overwrite it (choose another file name)" \
  export a.db --csv b.db
refused "rlx export: --json: 'b.db' is an SQLite database; refusing to overwrite it (choose another file name)" \
  export a.db --json b.db
refused "(command line):1: rlx.plot.throughput: cannot write figure 'c.png': it is an SQLite database; refusing to overwrite it (choose another file name)" \
  -e "rlx.plot.throughput{series = {{label = 'a', x = {1, 2}, y = {1, 2}}}, out = 'c.png'}"
refused "(command line):1: rlx.fs.write_atomic: cannot write 'b.db': it is an SQLite database; refusing to overwrite it (choose another file name)" \
  -e "rlx.fs.write_atomic('b.db', 'text')"
"$RLX" -e "rlx.plot.throughput{series = {{label = 'a', x = {1, 2}, y = {1, 2}}}, out = 'b.png'}" || fail "a plain figure"

# rlx merge: a missing or unreadable input is found before OUT exists.
refused "rlx merge: no database at 'missing.db' (check the path)" merge new.db a.db missing.db
[ ! -e new.db ] || fail "merge created its output though an input was missing"
printf 'not a database\n' >notes.txt
"$RLX" merge new.db a.db notes.txt >out 2>err && fail "merge of a non-database succeeded"
grep -q "^rlx merge: 'notes.txt' is not a usable SQLite database" err || fail "merge: $(cat err)"
[ ! -e new.db ] || fail "merge created its output though an input was not a database"
echo ok
