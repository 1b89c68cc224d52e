#!/usr/bin/env bash
# plan_accuracy.sh: the default study as a user runs it, logged as a file (`> log 2>&1`), then what
# issue 45's plan must show (docs/study.md "Time budget", "The console"): the plan's lines before
# the first run, each configuration's repeats, the left-out runs, the wall time against the one
# estimate, and one line per run in the log. Run it on an idle machine: every figure is a time.
#   bench/plan_accuracy.sh build/rlx [OUT=/tmp/rlx-plan] [more --set arguments for all.lua]
set -euo pipefail
rlx=${1:?usage: plan_accuracy.sh RLX [OUT] [--set ...]}
out=${2:-/tmp/rlx-plan}; shift $(( $# >= 2 ? 2 : 1 ))
mkdir -p "$out"; rm -rf "$out/study.db"* "$out/figures"
"$rlx" run experiments/all.lua --set db="$out/study.db" --set figures="$out/figures" "$@" >"$out/log" 2>&1 ||
  { tail -5 "$out/log"; exit 1; }
echo "== the plan, before the first run"
grep -E "^plan: " "$out/log"
echo "== repeats per configuration (ok runs; 3 wanted, cheap ones first)"
sqlite3 "$out/study.db" "SELECT model, precision, batch, COUNT(*) AS n, ROUND(AVG(total_s) / 60, 2) AS min_per_run
  FROM runs WHERE status = 'ok' GROUP BY model, precision, batch ORDER BY min_per_run"
echo "== left out in the end, and the time the study had left"
grep -E "^left out for the budget|fits now" "$out/log" || echo "(none)"
grep -E "^done in" "$out/log"
echo "== one line after each run (the log keeps them): $(grep -cE '^\[[0-9]+/[0-9]+\] .*: .* images/s, .*; study .* in' "$out/log") lines"
grep -E '^\[[0-9]+/[0-9]+\] .*images/s' "$out/log" | head -3
