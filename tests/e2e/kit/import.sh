#!/usr/bin/env bash
# import.sh RLX TMPDIR: rlx import-kit (issue 34) on tests/fixtures/kit/mac, a hand-written kit folder
# (its README gives the numbers): the environment and runs it stores, an ncu CSV attached by label,
# a second import adding nothing, and bad input: one line naming the file, line and column, exit 1,
# and the database left exactly as it was.
set -euo pipefail
RLX=$1
T="$2/kit-import"
rm -rf "$T" && mkdir -p "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
has() { grep -qF -- "$1" "$2" || fail "$2 lacks: $1 ($(head -c 600 "$2"))"; }
q() { sqlite3 "$1" "$2"; }

# The import: 6 rows, one host, labels mac_resnet50_..., so the environment is 'mac'.
cp -r tests/fixtures/kit/mac "$T/mac"
# A --db that does not exist is refused (a typo must not make a database); --create makes it.
set +e
"$RLX" import-kit "$T/mac" --db "$T/typo.db" --synthetic >"$T/typo.out" 2>"$T/typo.err"; rc=$?
set -e
[ $rc -eq 1 ] && [ ! -e "$T/typo.db" ] || fail "--db typo.db: exit $rc, $(ls "$T")"
[ "$(cat "$T/typo.err")" = "rlx import-kit: no database at '$T/typo.db' (check the path; to start a new one there, add --create, or create = true)" ] ||
  fail "--db typo.db said: $(cat "$T/typo.err")"
"$RLX" import-kit "$T/mac" --db "$T/k.db" --synthetic --create >"$T/import.out"
has "environment 'mac' (imported, id " "$T/import.out"
has "6 runs read, +6 stored in $T/k.db (study p1-roofline)" "$T/import.out"
# The staging database is gone, with its WAL files.
[ -z "$(ls "$T" | grep import-kit)" ] || fail "staging files left: $(ls "$T")"
[ "$(q "$T/k.db" "SELECT count(*) FROM runs WHERE status = 'ok'")" = 6 ] || fail "runs stored"
# Mean iteration time = elapsed_sec / measured_iters: 20.0 / 10 = 2.0 s for 8 images/s at batch 16.
[ "$(q "$T/k.db" "SELECT iter_mean_s, device, input FROM runs WHERE label = 'mac_resnet50_fp32_bs16_run1'")" = \
  "2.0|cpu|224" ] || fail "run 1: $(q "$T/k.db" "SELECT iter_mean_s, device, input FROM runs LIMIT 1")"
# Repeats numbered per configuration in file order; the Apple GPU rows are device mps.
[ "$(q "$T/k.db" "SELECT group_concat(repeat) FROM (SELECT repeat FROM runs WHERE device = 'mps' ORDER BY label)")" = \
  "1,2,3" ] || fail "mps repeats"
# The environment: marked imported, with env_info.md's fields.
info=$(q "$T/k.db" "SELECT label, host, os, kernel, torch, gpu_name FROM environments")
# The GPU as env_info.md names it (the rows' device_name says "Apple M2 Pro" only).
[ "$info" = "mac|mbp.local|macOS 14.6|Darwin 23.6.0|2.5.1|Apple M2 Pro (16-core GPU, MPS)" ] || fail "environment: $info"
[ "$(q "$T/k.db" "SELECT json_extract(info, '\$.imported.from') FROM environments")" = "seed kit" ] || fail "imported mark"
# Each configuration's analytic complexity and estimated point, as rlx's own runs get: ResNet-50 at
# 224 trains 24.44 GFLOPs per image (docs/complexity.md, Table 1 of the EPYC report).
[ "$(q "$T/k.db" "SELECT count(*) FROM roofline_points WHERE source = 'estimated' AND level = 'dram'")" = 6 ] ||
  fail "estimated points"

# A second import of the same folder adds nothing.
"$RLX" import-kit "$T/mac" --db "$T/k.db" --synthetic >"$T/again.out"
has "6 runs read, +0 stored" "$T/again.out"
[ "$(q "$T/k.db" "SELECT count(*) FROM runs")" = 6 ] || fail "second import added runs"

# An ncu CSV named after a run's label is attached to it: tests/fixtures/ncu/two_processes.csv.
cp -r tests/fixtures/kit/mac "$T/ncu"
mkdir -p "$T/ncu/logs/ncu"
cp tests/fixtures/ncu/two_processes.csv "$T/ncu/logs/ncu/mac_resnet50_fp32_bs64_run2.csv"
"$RLX" import-kit "$T/ncu" --db "$T/n.db" --env macn --create >"$T/ncu.out"
has "ncu counters from 1 CSV" "$T/ncu.out"
[ "$(q "$T/n.db" "SELECT count(*) FROM counters c JOIN runs r ON r.id = c.run_id WHERE r.label =
  'mac_resnet50_fp32_bs64_run2' AND c.source = 'ncu:derived' AND c.name = 'dram_bytes'")" = 1 ] || fail "ncu counters"
[ "$(q "$T/n.db" "SELECT label FROM environments")" = macn ] || fail "--env label"

# Bad input: one line with file:line:column and the fix, exit 1, the database unchanged.
before=$(sha256sum "$T/k.db" | cut -d' ' -f1)
bad() {  # bad NAME EXPECTED-LINE: runs import-kit on $T/NAME into k.db
  set +e
  timeout -k 5 60 "$RLX" import-kit "$T/$1" --db "$T/k.db" >"$T/$1.out" 2>"$T/$1.err"
  local rc=$?
  set -e
  [ $rc -eq 1 ] || fail "$1: exit $rc"
  [ "$(wc -l <"$T/$1.err")" -eq 1 ] || fail "$1: not one line: $(cat "$T/$1.err")"
  has "$2" "$T/$1.err"
  [ "$(sha256sum "$T/k.db" | cut -d' ' -f1)" = "$before" ] || fail "$1 changed the database"
  [ -z "$(ls "$T" | grep import-kit)" ] || fail "$1 left its staging database: $(ls "$T")"
}
mk() { rm -rf "$T/$1"; cp -r tests/fixtures/kit/mac "$T/$1"; }
# Line 3 (the second run), column of batch_size: "sixteen".
mk word
sed -i '3s/,resnet50,cpu,CPU,16,/,resnet50,cpu,CPU,sixteen,/' "$T/word/logs/metrics.csv"
col=$(( $(sed -n 3p "$T/word/logs/metrics.csv" | grep -bo sixteen | cut -d: -f1) + 1 ))
bad word "rlx import-kit: $T/word/logs/metrics.csv:3:$col: batch_size 'sixteen' is not a whole number >= 1; correct the row or delete it"
# No elapsed_sec column.
mk header
sed -i '1s/elapsed_sec/elapsed/' "$T/header/logs/metrics.csv"
bad header "$T/header/logs/metrics.csv:1:1: the header has no column 'elapsed_sec'"
# A row from another host (line 5: the fourth run).
mk host
sed -i '5s/mbp.local/other-host/' "$T/host/logs/metrics.csv"
bad host "$T/host/logs/metrics.csv:5:12: hostname 'other-host' differs from line 2's 'mbp.local': a kit folder holds one machine's runs"
# An unclosed quote on line 7, column 1.
mk quote
printf '"1764100000,mbp.local\n' >>"$T/quote/logs/metrics.csv"
bad quote "$T/quote/logs/metrics.csv:8:1: this quoted field is never closed"
# An ncu CSV whose label no row has.
mk orphan
mkdir -p "$T/orphan/logs/ncu" && cp tests/fixtures/ncu/two_processes.csv "$T/orphan/logs/ncu/mac_x_prof.csv"
bad orphan "$T/orphan/logs/ncu/mac_x_prof.csv: no row of logs/metrics.csv has the label 'mac_x_prof'"
# A malformed ncu CSV: the importer's own file:line message.
mk ncubad
mkdir -p "$T/ncubad/logs/ncu" && cp tests/fixtures/ncu/malformed/ragged.csv "$T/ncubad/logs/ncu/mac_resnet50_fp32_bs16_run1.csv"
bad ncubad "$T/ncubad/logs/ncu/mac_resnet50_fp32_bs16_run1.csv:"
# Values out of bounds, or that disagree: batch_size 10^12; images_per_sec 1e308 with elapsed_sec
# 1e308 (batch x iters / elapsed is 1.6e-306, not 1e308); elapsed_sec beyond a year.
mk batch
sed -i '3s/,resnet50,cpu,CPU,16,/,resnet50,cpu,CPU,1000000000000,/' "$T/batch/logs/metrics.csv"
bad batch "$T/batch/logs/metrics.csv:3:39: batch_size '1000000000000' is more than 1048576, the most rlx imports"
mk huge
sed -i '3s/,16\.0,10\.0,160,/,1e308,1e308,160,/' "$T/huge/logs/metrics.csv"
bad huge "elapsed_sec '1e308' is more than 31536000 seconds (a year): no timed loop of a kit runs that long"
mk ips
sed -i '3s/,16\.0,10\.0,160,/,16.0,999.0,160,/' "$T/ips/logs/metrics.csv"
bad ips "images_per_sec 999.0 does not agree with batch_size x measured_iters / elapsed_sec = 16 x 10 / 16.0 = 10 (more than 1 % apart); run_train.py writes that quotient: correct the row or delete it"
mk slow
sed -i '3s/,16\.0,10\.0,160,/,40000000,0.000004,160,/' "$T/slow/logs/metrics.csv"
bad slow "elapsed_sec '40000000' is more than 31536000 seconds (a year)"
# Files that are not regular files are refused at once, by name, never read: a FIFO as
# metrics.csv, as env_info.md and as an ncu CSV; a link to /dev/zero as env_info.md.
mk fifo && rm "$T/fifo/logs/metrics.csv" && mkfifo "$T/fifo/logs/metrics.csv"
bad fifo "the kit's metrics.csv '$T/fifo/logs/metrics.csv' is a FIFO, not a regular file: rlx reads only regular files"
mk envfifo && rm -f "$T/envfifo/logs/env_info.md" && mkfifo "$T/envfifo/logs/env_info.md"
bad envfifo "the kit's env_info.md '$T/envfifo/logs/env_info.md' is a FIFO, not a regular file"
mk envzero && rm -f "$T/envzero/logs/env_info.md" && ln -s /dev/zero "$T/envzero/logs/env_info.md"
bad envzero "the kit's env_info.md '$T/envzero/logs/env_info.md' is a device, not a regular file"
mk ncufifo && mkdir -p "$T/ncufifo/logs/ncu" && mkfifo "$T/ncufifo/logs/ncu/mac_resnet50_fp32_bs16_run1.csv"
bad ncufifo "the ncu CSV '$T/ncufifo/logs/ncu/mac_resnet50_fp32_bs16_run1.csv' is a FIFO, not a regular file"
# No metrics.csv at all; and a missing --db is a usage error.
mkdir -p "$T/empty"
bad empty "cannot read $T/empty/logs/metrics.csv"
set +e
"$RLX" import-kit "$T/mac" >/dev/null 2>"$T/usage.err"; rc=$?
set -e
[ $rc -eq 2 ] && has "rlx import-kit: --db PATH is required" "$T/usage.err" || fail "usage: $rc $(cat "$T/usage.err")"
echo "import-kit ok"
