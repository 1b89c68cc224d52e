#!/usr/bin/env bash
# scaling.sh RLX TMP dp|plain: the report's data-parallel scaling section (issue 52, §6.8).
#   dp:    a copy of the HAND-MADE tests/fixtures/studies/dp-handmade.db (1-rank and 2-rank ResNet-18
#          runs; make_dp_handmade.sh) reported, every number of §6.8, its memory table, Figure E and the
#          hypotheses naming ranks checked against values worked by hand (scaling.lua); `rlx runs
#          --ranks` lists a row's runs only; the input's bytes unchanged.
#   plain: a copy of torch-2.15-smoke.db (no run with ranks > 1): no scaling section, no Ranks column,
#          no Figure E, a ranks hypothesis untested with the reason.
set -euo pipefail
rlx=$1
d=$2/report_scaling_$3
rm -rf "$d" && mkdir -p "$d"
F=tests/fixtures/studies
fail() { echo "FAIL: $*"; exit 1; }
check() {  # every line of the Lua check's output must be "ok\t..."
  "$rlx" run tests/e2e/report/scaling.lua "$@" > "$d/checks" 2> "$d/stderr" || { cat "$d/checks" "$d/stderr"; fail "scaling.lua"; }
  if grep -qv '^ok	' "$d/checks"; then grep -v '^ok	' "$d/checks"; fail "scaling.lua's checks"; fi
  [ -s "$d/checks" ] || fail "scaling.lua checked nothing"
}
case "$3" in
  dp)
    cp "$F/dp-handmade.db" "$d/dp.db"
    check --set fixture="$d/dp.db" --set out="$d/out"
    "$rlx" runs "$d/dp.db" --batch 4 --ranks 2 > "$d/runs"
    grep -qF 'epyc-2c_resnet18_fp32_contiguous_2ranks_bs4_run1' "$d/runs" || fail "rlx runs --ranks 2 lacks run1"
    grep -qF 'epyc-2c_resnet18_fp32_contiguous_2ranks_bs4_run2' "$d/runs" || fail "rlx runs --ranks 2 lacks run2"
    grep -qF '2 runs (2 ok, 0 not ok)' "$d/runs" || fail "rlx runs --ranks 2 listed other runs"
    "$rlx" runs "$d/dp.db" --batch 4 --ranks 1 > "$d/runs1"
    grep -qF '2 runs (2 ok, 0 not ok)' "$d/runs1" && ! grep -qF '_2ranks_' "$d/runs1" || fail "rlx runs --ranks 1"
    cmp -s "$F/dp-handmade.db" "$d/dp.db" || fail "the report changed its input database"
    ;;
  plain)
    cp "$F/torch-2.15-smoke.db" "$d/plain.db"
    check --set plain="$d/plain.db" --set out="$d/out"
    cmp -s "$F/torch-2.15-smoke.db" "$d/plain.db" || fail "the report changed its input database"
    ;;
  *) fail "usage: scaling.sh RLX TMP dp|plain" ;;
esac
echo "scaling $3 ok"
