#!/usr/bin/env bash
# options_docs.sh RLX [--write]: rlx.train's options are declared once (engine/train/options.cpp)
# and every reader follows the declarations (issue 53 point 1). Fails when
#  - the option table of docs/lua-api/train.md or the flag table of docs/cli.md ("rlx train")
#    differs from what the declarations generate (--write rewrites both tables instead);
#  - a declared option with a flag is missing from `rlx train --help`;
#  - study:sweep{} refuses a declared sweep option (pass, dimension), or takes one the
#    declarations do not give it;
#  - the report's knobs or the planner's defaults are not the declarations'.
# Run from the repository root.
set -euo pipefail
RLX=${1:?usage: options_docs.sh RLX [--write]}
export RLX_SCRIPTS_DIR=${RLX_SCRIPTS_DIR:-$PWD/scripts}
WRITE=${2:-}
fail() { echo "FAIL: $*"; exit 1; }
MARK="generated from engine/train/options.cpp"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

"$RLX" -e "io.write(require('rlx._train_options').markdown())" >"$T/lua.md"
"$RLX" -e "io.write(require('rlx.cli.train')._flags_markdown())" >"$T/cli.md"

# The table after the line that names the generator: replaced (--write) or compared.
table_in() {  # doc generated
  local doc=$1 generated=$2
  grep -q "$MARK" "$doc" || fail "$doc has no line saying the table is $MARK"
  awk -v mark="$MARK" -v gen="$generated" -v write="$WRITE" '
    function emit_generated() { while ((getline line < gen) > 0) print line }
    state == 0 { print; if (index($0, mark)) state = 1; next }
    state == 1 && /^\|/ { state = 2; if (write) emit_generated() }
    state == 2 && /^\|/ { if (!write) print > (gen ".doc"); next }
    state == 2 { state = 3 }
    { print }' "$doc" >"$T/rewritten"
  if [ "$WRITE" = --write ]; then
    cp "$T/rewritten" "$doc"
  elif ! diff -u "$generated.doc" "$generated" >"$T/diff"; then
    cat "$T/diff"
    fail "$doc: the option table differs from the declarations (- the doc, + generated); run $0 RLX --write"
  fi
}
table_in docs/lua-api/train.md "$T/lua.md"
table_in docs/cli.md "$T/cli.md"
[ "$WRITE" = --write ] && { echo "written"; exit 0; }

# Every flag in --help; every sweep option taken by study:sweep, and nothing else of rlx.train's.
"$RLX" train --help >"$T/help"
"$RLX" -e "for _, o in ipairs(rlx.train.OPTIONS) do if o.flag then print(o.flag) end end" >"$T/flags"
while read -r flag; do grep -qE -- "^  (--[a-z-]+, )?$flag( |$)" "$T/help" || fail "$flag is not in rlx train --help"; done <"$T/flags"
out=$("$RLX" -e "
local st = rlx.study{name = 'opts', db = ':memory:'}
local ok, err = pcall(st.plan, st, {models = 'resnet18', bogus_option = 1})
local valid = rlx.errors.message(err):match('valid options: (.*)%)$')
local taken = {}
for name in valid:gmatch('[%w_]+') do taken[name] = true end
local sweep = {pass = true, dimension = true, matrix = true}
for _, o in ipairs(rlx.train.OPTIONS) do
  local key = o.name == 'model' and 'models' or o.name
  if sweep[o.sweep] and not taken[key] then print('study:sweep does not take ' .. key) end
  if not sweep[o.sweep] and taken[key] and key ~= 'label' then print('study:sweep takes ' .. key .. ', declared sweep = \"\"') end
end
local knobs = {}
for _, k in ipairs(require('rlx.report.knobs').KNOBS) do knobs[#knobs + 1] = k.name .. '>' .. k.over end
local declared = {}
for _, o in ipairs(rlx.train.OPTIONS) do if o.knob_over then declared[#declared + 1] = o.name .. '>' .. o.knob_over end end
if table.concat(knobs, ' ') ~= table.concat(declared, ' ') then print('knobs: ' .. table.concat(knobs, ' ') .. ' declared: ' .. table.concat(declared, ' ')) end
local p = require('rlx.plan').protocol({})
if p.min_iters ~= rlx.train.OPTIONS.min_iters.default or p.max_iters ~= rlx.train.OPTIONS.max_iters.default then
  print('plan defaults ' .. p.min_iters .. '/' .. p.max_iters)
end
print('checked')")
[ "$out" = checked ] || fail "$out"
echo ok
