# common.sh: shared by the ownership guards (tests/guards/*.sh, docs/architecture.md "Ownership
# guards"). Each guard scans the source tree for the signatures of one claim and fails, naming
# file:line, on a hit that its allow list does not name with a reason.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1

# code_lines FILE...: "path:line:code" for every line with code, comments left out (Lua's "--" and
# C++'s "//" to the end of the line, when at the start or after a blank; a comment may describe a
# violation without being one).
code_lines() {
  awk '{
    line = $0
    if (FILENAME ~ /\.lua$/) sub(/(^|[ \t])--.*$/, "", line); else sub(/(^|[ \t])\/\/.*$/, "", line)
    if (line ~ /[^ \t]/) print FILENAME ":" FNR ":" line
  }' "$@"
}

# lua_files / cpp_files DIR...: the sources a guard reads, sorted.
lua_files() { find "$@" -name '*.lua' -type f | sort; }
cpp_files() { find "$@" \( -name '*.cpp' -o -name '*.h' \) -type f | sort; }

# allowed ALLOW_LIST: reads "path:line:code" hits on stdin and drops those the list allows. A line
# "path  why" allows every hit in that file; "path |fixed text| why" only the hits whose line holds
# that text (a file may keep one exception, not any). Blank lines and lines starting with # are
# comments. The list is in single quotes in each guard: its texts hold no single quote.
allowed() {
  awk -v list="$1" '
    BEGIN {
      n = split(list, rows, "\n")
      for (i = 1; i <= n; i++) {
        r = rows[i]
        if (r ~ /^[ \t]*(#|$)/) continue
        split(r, f, /[ \t]+/)
        k++; path[k] = f[1]; text[k] = ""
        if (match(r, /\|[^|]+\|/)) text[k] = substr(r, RSTART + 1, RLENGTH - 2)
      }
    }
    {
      split($0, h, ":")
      for (i = 1; i <= k; i++)
        if (h[1] == path[i] && (text[i] == "" || index($0, text[i]) > 0)) next
      print
    }'
}

# report NAME HITS: prints the hits and fails when there are any.
report() {
  if [ -n "$2" ]; then
    echo "FAIL: $1:"
    echo "$2"
    exit 1
  fi
  echo "ok"
}

# catches NAME PATTERN SAMPLE: the guard's own check that its pattern finds a known violation,
# so a pattern broken by an edit fails instead of passing everything.
catches() {
  printf '%s\n' "$3" | grep -Eq -- "$2" || { echo "FAIL: the $1 pattern misses: $3"; exit 1; }
}
