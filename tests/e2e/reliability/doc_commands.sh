#!/usr/bin/env bash
# doc_commands.sh RLX: issue 56 item 1, every command line the documentation shows runs. It extracts
# each `rlx ...` line from the fenced code blocks of README.md and docs/*.md and from the header
# comments of experiments/*.lua (indented lines, and `rlx CMD ARGS` in backquotes there), joins lines ended
# with '\', and runs each in a scratch folder that holds what the docs assume (results/*.db from
# tests/fixtures/studies, an ncu CSV, an ImageFolder at data/imagenette2-160, the scripts of the
# docs' Lua blocks) in the form that does not train for long:
#   rlx run ...      --dry-run added (the plan, no training)
#   rlx train ...    --input 32 --batch-size 2 and 2 iterations (or 2-3 with --target-ci)
#   rlx peaks ...    --quick --repeats 1 --remeasure 0
#   rlx submit ...   --dry-run added (no sbatch is called)
#   rlx repl ...     with stdin at end of file
# Every command must exit 0; the failures are listed with their output and the test fails. The
# lines it ran are printed (a new doc line is tested without touching this script). Placeholders
# (<label>, a|b alternatives) are filled in; `rlx run experiments/all.lua --set with=...` is also
# run for real at the smallest size, and must write the combined report.
set -u
RLX=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$PWD
T="$RLX_TEST_TMP/reliability-doc-commands"
rm -rf "$T"
mkdir -p "$T/work"
fail() { echo "FAIL: $*"; exit 1; }

# --- the command lines, "file<TAB>command" ---------------------------------------------------------
extract() {
  local f
  for f in README.md docs/*.md; do
    awk -v f="$f" '
      /^```/ { inb = !inb; cont = ""; next }
      !inb { next }
      {
        line = $0
        if (cont != "") { sub(/^[ \t]+/, "", line); line = cont " " line; cont = "" }
        if (line ~ /\\$/) { sub(/[ \t]*\\$/, "", line); cont = line; next }
        sub(/^\$ /, "", line)
        if (line ~ /^(build\/)?rlx /) print f "\t" line
      }' "$f"
  done
  for f in experiments/*.lua; do
    awk -v f="$f" '
      !/^--/ { exit }
      {
        # An indented line is a command (all.lua lists them so); prose that starts with "rlx" is not.
        if ($0 ~ /^--[ \t][ \t]+rlx /) { line = $0; sub(/^--[ \t]*/, "", line); print f "\t" line; next }
        # In backquotes: a command with its arguments (`rlx import-kit` alone names the command).
        line = $0
        while (match(line, /`rlx [^` ]+ [^`]*`/)) {
          print f "\t" substr(line, RSTART + 1, RLENGTH - 2)
          line = substr(line, RSTART + RLENGTH)
        }
      }' "$f"
  done
}
extract >"$T/commands.tsv"
n=$(wc -l <"$T/commands.tsv")
[ "$n" -ge 40 ] || fail "only $n command lines found: did the extraction break?"

# --- what the docs assume is there -----------------------------------------------------------------
cd "$T/work" || exit 1
ln -s "$SRC/experiments" experiments
mkdir -p tests/e2e && ln -s "$SRC/tests/e2e/frame" tests/e2e/frame
mkdir -p results logs/ncu path/to code
F="$SRC/tests/fixtures/studies"
cp "$F/epyc-2c-study.db" results/p1-roofline.db
for name in epyc a b merged rtx4090 laptop gcp-l4 other OTHER A B; do cp "$F/epyc-2c-b-study.db" "$name.db"; done
cp "$F/h200-default-study.db" h200.db
cp "$F/h200-default-study.db" ../h200.db
# results/all.db: machines merged under one study (docs/scale-out.md); the REPL's databases (README,
# docs/cli.md) as the scripts before them would have left them (those run here as dry runs).
"$RLX" merge results/all.db "$F/epyc-2c-study.db" "$F/qemu-arm64-smoke.db" >/dev/null 2>&1 ||
  fail "making results/all.db"
cp "$F/epyc-2c-b-study.db" results/resnet50-cpu.db
"$RLX" run "$SRC/tests/e2e/frame/make_study.lua" --set db=explore.db >/dev/null 2>&1 || fail "making explore.db"
# rlx submit --plan-on-node plans inside srun: here a stand-in that runs the command on this machine.
mkdir -p "$T/bin"
printf '#!/bin/sh
while [ "${1#-}" != "$1" ]; do shift; done
exec "$@"
' >"$T/bin/srun"
chmod +x "$T/bin/srun"
export PATH="$T/bin:$PATH"
cp -r "$SRC/tests/fixtures/kit/mac" path/to/kit
"$RLX" run "$SRC/tests/e2e/kit/make_folder.lua" --set dir="$PWD/data/imagenette2-160" >/dev/null || fail "the ImageFolder"
# The docs' Lua blocks that commands run: README's bs.lua, getting-started's hello.lua.
awk '/^```lua/{inb=1; next} /^```/{if (inb) exit} inb' "$SRC/README.md" >bs.lua
awk '/^```lua/{inb=1; next} /^```/{if (inb) exit} inb' "$SRC/docs/getting-started.md" >hello.lua
grep -q "rlx.study" bs.lua || fail "README's bs.lua block not found"
grep -q "rlx.train" hello.lua || fail "getting-started's hello.lua block not found"
# The runs import-ncu attaches counters to (docs/counters.md), trained for a second each.
export LABEL=h100_resnet50_fp32_prof
for label in "$LABEL" resnet18_bs128 h100-resnet50-fp16-b64-r1; do
  "$RLX" train --arch resnet18 --batch-size 2 --input 32 --classes 10 --iters 2 --warmup-iters 1 --threads 1 \
    --memory-format contiguous --label "$label" --db results/gpu.db >/dev/null 2>&1 || fail "training run $label"
done
for f in "logs/ncu/$LABEL.csv" report.csv step.csv; do cp "$SRC/tests/fixtures/ncu/details_seed002.csv" "$f"; done

# --- run each --------------------------------------------------------------------------------------
failed=0
i=0
while IFS=$'\t' read -r file cmd; do
  i=$((i + 1))
  cmd=$(printf '%s' "$cmd" | sed -E 's/[[:space:]]+#([[:space:]].*)?$//; s/^build\/rlx /rlx /')
  # Placeholders: <label> is an environment label; a|b|c alternatives take the first.
  cmd=$(printf '%s' "$cmd" | sed -E 's/<label>/cpu-docs/g; s/=([a-z0-9_]+)(\|[a-z0-9_]+)+/=\1/g')
  sub=$(printf '%s' "$cmd" | awk '{print $2}')
  stdin=/dev/null
  case "$sub" in
    run) case " $cmd " in *" --help "*|*" --dry-run "*) ;; *) cmd="$cmd --dry-run" ;; esac ;;
    train)
      case " $cmd " in
        *" --target-ci "*) cmd="$cmd --input 32 --batch-size 2 --classes 10 --min-iters 2 --max-iters 3 --max-seconds 5 --threads 1" ;;
        *) cmd="$cmd --input 32 --batch-size 2 --classes 10 --iters 2 --warmup-iters 1 --threads 1" ;;
      esac
      ;;
    peaks) cmd="$cmd --quick --repeats 1 --remeasure 0" ;;
    submit) case " $cmd " in *" --dry-run "*) ;; *) cmd="$cmd --dry-run" ;; esac ;;
  esac
  run_cmd="\"\$RLX\" ${cmd#rlx }"
  start=$(date +%s)
  RLX="$RLX" timeout 300 bash -c "$run_cmd" <"$stdin" >"$T/out.$i" 2>&1
  rc=$?
  echo "[$rc] $(($(date +%s) - start))s $file: $cmd"
  if [ "$rc" != 0 ]; then
    failed=$((failed + 1))
    echo "  output:"; sed 's/^/    /' "$T/out.$i" | tail -n 20
  fi
done <"$T/commands.tsv"

# --- --set with= and title= for real: the combined report --------------------------------------------
"$RLX" run experiments/all.lua --set scale=smoke --set models=resnet18 --set batch=2 --set precision=fp32 \
  --set repeats=1 --set iters=1 --set warmup=0 --set budget=none --set devices=cpu --set db=results/with.db \
  --set figures=withrep/figures --set with=../h200.db --set "title=Two machines" >"$T/with.out" 2>&1 ||
  { failed=$((failed + 1)); echo "FAIL: the smoke run with --set with=: $(tail -n 20 "$T/with.out")"; }
grep -q "^report: withrep/report.html$" "$T/with.out" || { failed=$((failed + 1)); echo "FAIL: no report line"; }
grep -q "<title>Two machines</title>" withrep/report.html 2>/dev/null ||
  { failed=$((failed + 1)); echo "FAIL: report.html lacks the title"; }
grep -qi "h200" withrep/report.md 2>/dev/null || { failed=$((failed + 1)); echo "FAIL: report.md does not cover h200.db"; }

# A usage error in with= leaves no database behind.
"$RLX" run experiments/all.lua --set with=nosuch.db --set db=results/never.db >"$T/never.out" 2>&1
rc=$?
[ "$rc" = 2 ] || { failed=$((failed + 1)); echo "FAIL: with=nosuch.db exit $rc: $(cat "$T/never.out")"; }
[ ! -e results/never.db ] || { failed=$((failed + 1)); echo "FAIL: with=nosuch.db created the database"; }

[ "$failed" = 0 ] || fail "$failed of $i documented command lines (and the with= checks) failed"
echo "ok: $i documented command lines ran"
