#!/usr/bin/env bash
# requires.sh: a Lua module requires what it uses at its top, when it loads (docs/architecture.md,
# "Lazy requires"): a require inside a function hides a cycle or a dependency. The exceptions are
# the one list in docs/architecture.md's section "Lazy requires", each a file, the modules it may
# require lazily and why; this guard reads that list. Looked for, in scripts/rlx: a call
# require("rlx...") on an indented line (a function's body: rlx's Lua indents every block) or after
# the word function on its line (a one-line function). A require inside a string is no call.
source "$(dirname "$0")/common.sh"
doc=docs/architecture.md
# The documented list: "- `scripts/rlx/FILE.lua` -> `rlx.a`, `rlx.b`: why" lines of the section
# (none is a valid list: the section must be there).
grep -qE '^#+ Lazy requires' "$doc" || { echo "FAIL: no section 'Lazy requires' in $doc"; exit 1; }
lazy=$(awk '/^#+ Lazy requires/ {on = 1; next} /^#/ {on = 0} on && /^- `scripts\/rlx\// {
  split($0, parts, ":"); head = parts[1]
  n = split(head, ticks, "`"); file = ticks[2]
  for (i = 4; i <= n; i += 2) print file " " ticks[i]
}' "$doc")
# in_function: "path:line:module:code" of each require inside a function.
in_function() {
  code_lines "$@" | awk '{
    split($0, h, ":"); code = substr($0, length(h[1]) + length(h[2]) + 3)
    rest = code; pre = ""
    while (match(rest, /require *\(? *["\047][^"\047]+["\047]/)) {
      before = pre substr(rest, 1, RSTART - 1); call = substr(rest, RSTART, RLENGTH)
      prev = substr(before, length(before), 1)
      inside = (code ~ /^[ \t]/) || (before ~ /(^|[^A-Za-z0-9_])function([^A-Za-z0-9_]|$)/)
      if (prev !~ /["\047A-Za-z0-9_.]/ && inside) {
        mod = call; sub(/^require *\(? *["\047]/, "", mod); sub(/["\047]$/, "", mod)
        print h[1] ":" h[2] ":" mod ":" code
      }
      pre = before call; rest = substr(rest, RSTART + RLENGTH)
    }
  }'
}
sample=$(mktemp)
trap 'rm -f "$sample"' EXIT
printf '%s\n' 'local M = require("rlx.errors")' 'local function f() return require("rlx.study").x end' \
  'function M.g()' '  local s = require("rlx.show")' '  local code = string.format("require(%q)", "x")' 'end' >"$sample"
got=$(in_function "$sample" | cut -d: -f3 | tr '\n' ' ')
[ "$got" = "rlx.study rlx.show " ] || { echo "FAIL: the require detector found '$got' in its sample, not 'rlx.study rlx.show '"; exit 1; }
# Files of other work in progress: every require in them is let through until that work lands.
pending='
'
found=$(in_function $(lua_files scripts/rlx))
hits=$(printf '%s\n' "$found" | awk -v lazy="$lazy" -v pending="$pending" '
  BEGIN {
    n = split(lazy, l, "\n"); for (i = 1; i <= n; i++) ok[l[i]] = 1
    n = split(pending, p, "\n"); for (i = 1; i <= n; i++) if (p[i] !~ /^(#|$)/) skip[p[i]] = 1
  }
  NF { split($0, h, ":"); if (!((h[1] " " h[3]) in ok) && !(h[1] in skip)) print }')
# A listed lazy require that is gone is a claim no longer true: the list says what is, no more.
stale=$(printf '%s\n' "$lazy" | while read -r file mod; do
  [ -n "$file" ] || continue
  printf '%s\n' "$found" | grep -q "^$file:[0-9]*:$mod:" || echo "$doc lists '$file -> $mod', which $file no longer requires inside a function: remove it from the list"
done)
report "a require inside a function (move it to the top of the module, or add it with its reason to $doc's 'Lazy requires')" \
  "$(printf '%s\n%s\n' "$hits" "$stale" | sed '/^$/d')"
