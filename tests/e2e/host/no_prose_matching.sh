#!/usr/bin/env bash
# no_prose_matching.sh: facts cross from C++ to Lua as fields, never as text to match (issue 47).
# No Lua module in scripts/rlx pattern-matches (match, find, gmatch, gsub) a text that C++ writes:
# the start-up's notes (engine/startup: "openmp: GOMP_SPINCOUNT=...", "thp: ...", "malloc: ...",
# "blas: ...", the OpenBLAS kernel's reason), the peaks' methods ("emulated: ...") and the figures'
# warnings. Each phrase below is one of theirs; the report, `rlx train --verbose`, `rlx version`
# and `rlx env` read `startup = {...}` fields instead (scripts/rlx/_startup_text.lua).
set -u
cd "$(dirname "$0")/../../.." || exit 1
phrases='openmp:|thp:|malloc:|blas:|sgd:|GOMP_SPINCOUNT|OMP_WAIT_POLICY|huge pages|transparent huge|OPENBLAS_CORETYPE|OpenBLAS|own choice|other cores busy|short spin|\^emulated|variance_fixed_config'
pattern="(:|string\\.)(match|find|gmatch|gsub)[ (].*($phrases)"
# The rule catches what it is for: the report's old line.
echo 'if text:match("^openmp: GOMP_SPINCOUNT=") then' | grep -Eq "$pattern" || { echo "FAIL: the pattern misses a match"; exit 1; }
hits=$(grep -rnE "$pattern" scripts/rlx)
if [ -n "$hits" ]; then
  echo "FAIL: Lua pattern-matches text that C++ writes (read a field instead):"
  echo "$hits"
  exit 1
fi
echo ok
