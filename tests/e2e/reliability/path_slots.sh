#!/usr/bin/env bash
# path_slots.sh RLX: issue 56 item 4, no path a user can name blocks. The slots come from the CLI's
# own declarations: every flag and positional of every `rlx NAME` command (rlx.cli.NAME._cmd) that
# declares `path = ...` (rlx.cli._args), plus the host's own (rlx run FILE, rlx repl --db,
# RLX_SCRIPTS_DIR). A flag whose metavar or name looks like a path (PATH, FILE, DIR, db, out, ...)
# and declares no `path` fails the test, and so does a slot without a command line below: a new
# entry point cannot be forgotten. Each slot gets a FIFO, then a directory where a file is due (a
# file where a folder is due), and must be refused in under 2 s with a non-zero exit and one line
# naming the problem (no traceback). A device (/dev/zero) gets the same for file and database slots.
set -u
RLX=$1
T="$RLX_TEST_TMP/reliability-path-slots"
rm -rf "$T"
mkdir -p "$T/dir"
fail() { echo "FAIL: $*"; exit 1; }
LIMIT_S=2
cp tests/fixtures/studies/epyc-2c-study.db "$T/good.db"
mkfifo "$T/fifo"
: >"$T/file"

# Every declared path slot: "COMMAND<TAB>SLOT<TAB>KIND" (SLOT is the flag, or #N for positional N);
# "UNDECLARED ..." for a flag that looks like a path and says nothing.
"$RLX" -e '
local looks = {PATH = true, FILE = true, DIR = true, ["FILE.lua"] = true}
local names = {db = true, dbs = true, out = true, dir = true, file = true, files = true, manifest = true,
  script = true, data = true, log_dir = true, markdown = true, csv = true, json_out = true}
local cmds = {}
for _, m in ipairs(rlx._core.host.modules()) do
  local n = m:match("^rlx%.cli%.(.+)$")
  if n and not n:match("^_") then cmds[#cmds + 1] = n end
end
table.sort(cmds)
for _, n in ipairs(cmds) do
  local spec = require("rlx.cli." .. n)._cmd
  if not spec then print("UNDECLARED " .. n .. ": the module sets no _cmd") else
    for _, o in ipairs(spec.options or {}) do
      if o.path then print(spec.name .. "\t" .. o[2] .. "\t" .. o.path)
      elseif o.type ~= "boolean" and (looks[o.metavar or ""] or names[o[1]]) then
        print("UNDECLARED " .. spec.name .. " " .. o[2]) end
    end
    for i, p in ipairs(spec.positionals or {}) do
      if p.path then print(spec.name .. "\t#" .. i .. "\t" .. p.path)
      elseif names[p[1]] then print("UNDECLARED " .. spec.name .. " positional " .. p[1]) end
    end
  end
end' >"$T/slots" 2>&1 || fail "listing the slots: $(cat "$T/slots")"
grep -q UNDECLARED "$T/slots" && fail "path slots without a declared path kind: $(grep UNDECLARED "$T/slots")"
[ "$(wc -l <"$T/slots")" -ge 20 ] || fail "too few slots found: $(cat "$T/slots")"

# The command line of each slot; @ is where the path goes. The host's own slots are added at the end.
declare -A LINE=(
  ["env --db"]="env --db @"
  ["env --markdown"]="env --markdown @"
  ["export --csv"]="export $T/good.db --csv @"
  ["export --json"]="export $T/good.db --json @"
  ["export --out"]="export $T/good.db --layout seed --out @"
  ["export #1"]="export @ --csv $T/x.csv"
  ["import-kit --db"]="import-kit tests/fixtures/kit/mac --db @"
  ["import-kit #1"]="import-kit @ --db $T/kit.db --create"
  ["import-ncu --db"]="import-ncu tests/fixtures/ncu/details_seed002.csv --run x --db @"
  ["import-ncu #1"]="import-ncu @"
  ["merge #1"]="merge $T/m.db @"
  ["models #1"]="models @"
  ["peaks --db"]="peaks --quick --only dram --repeats 1 --db @"
  ["report --out"]="report $T/good.db --no-html --quiet --out @"
  ["report --hypotheses"]="report $T/good.db --no-html --quiet --out $T/rep --hypotheses @"
  ["report #1"]="report @ --out $T/rep2"
  ["runs #1"]="runs @"
  ["shard #2"]="shard run @ 0"
  ["status #1"]="status @"
  ["submit --figures"]="submit tests/e2e/store/sweep.lua --dry-run --set db=$T/s.db --figures @"
  ["submit --report"]="submit tests/e2e/store/sweep.lua --dry-run --set db=$T/s.db --report @"
  ["submit #1"]="submit @ --dry-run"
  ["train --model"]="train --model @ --iters 1 --warmup-iters 0"
  ["train --data"]="train --model resnet18 --data @ --iters 1 --warmup-iters 0"
  ["train --log-dir"]="train --model resnet18 --iters 1 --warmup-iters 0 --log-dir @"
  ["train --db"]="train --model resnet18 --iters 1 --warmup-iters 0 --db @"
)
HOST_SLOTS=$'run\t#1\tfile\nrepl --db\t--db\tdatabase\n-e --set db\tscripts_dir\tdir'

# try NAME PATH: runs the slot's line with PATH in it; checks the time, the status and the one line.
try() {
  local name=$1 path=$2 line=$3
  local argv=() w
  for w in $line; do argv+=("${w//@/$path}"); done
  local t0 rc ms
  t0=$(date +%s%N)
  if [ "$name" = "-e --set db scripts_dir" ]; then
    RLX_SCRIPTS_DIR="$path" timeout -k 1 10 "$RLX" version </dev/null >"$T/out" 2>"$T/err"
  else
    timeout -k 1 10 "$RLX" "${argv[@]}" </dev/null >"$T/out" 2>"$T/err"
  fi
  rc=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  [ $rc = 124 ] || [ $rc = 137 ] && fail "rlx $line with $path: still running after 10 s"
  [ $ms -lt $((LIMIT_S * 1000)) ] || fail "rlx $line with $path: took $ms ms"
  [ $rc != 0 ] || fail "rlx $line with $path: exit 0: $(cat "$T/out" "$T/err")"
  grep -q traceback "$T/err" && fail "rlx $line with $path: a traceback: $(cat "$T/err")"
  [ "$(grep -vc '^Try ' "$T/err")" = 1 ] || fail "rlx $line with $path: not one line: $(cat "$T/err")"
  echo "ok ($ms ms, exit $rc) rlx ${argv[*]}: $(head -c 160 "$T/err")"
}

n=0
while IFS=$'\t' read -r cmd slot kind; do
  key="$cmd $slot"
  if [ "$slot" = scripts_dir ]; then
    # RLX_SCRIPTS_DIR's module files: a FIFO and a folder at rlx/init.lua.
    mkdir -p "$T/sd1/rlx" "$T/sd2/rlx/init.lua"
    mkfifo "$T/sd1/rlx/init.lua"
    try "$key" "$T/sd1" "version"
    try "$key" "$T/sd2" "version"
    n=$((n + 2))
    continue
  fi
  case "$key" in
    "run #1") line="run @" ;;
    "repl --db --db") line="repl --db @" ;;
    *) line=${LINE[$key]:-} ;;
  esac
  [ -n "$line" ] || fail "no command line for the path slot '$key' ($kind): add one to LINE in $0"
  try "$key" "$T/fifo" "$line"
  case "$kind" in
    file | database) try "$key" "$T/dir" "$line"; try "$key" /dev/zero "$line"; n=$((n + 3)) ;;
    dir | output_dir) try "$key" "$T/file" "$line"; n=$((n + 2)) ;;
    output) try "$key" "$T/dir" "$line"; n=$((n + 2)) ;;
  esac
done < <(cat "$T/slots"; echo "$HOST_SLOTS")
echo "ok: $n cases, every one refused in under $LIMIT_S s"
