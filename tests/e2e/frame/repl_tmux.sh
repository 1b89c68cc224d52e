#!/usr/bin/env bash
# repl_tmux.sh RLX: the REPL in a real terminal (tmux, 80x50) on a study of 12 runs whose values
# are worked out by hand (make_study.lua): a table within 80 columns, a group_by result equal to
# SQL's AVG, help text, ?name, a plot written (PNG magic and size read from the file), and Tab
# completion of a frame's method.
set -euo pipefail
RLX=$1
SRC=${RLX_SOURCE_DIR:?}
T="$RLX_TEST_TMP/repl-tmux"
rm -rf "$T"; mkdir -p "$T"
SOCK="$T/tmux.sock"
fail() {
  echo "FAIL: $*" >&2
  echo "--- pane:" >&2; tmux -S "$SOCK" capture-pane -p -J -S - -t rlx >&2 2>/dev/null || true
  tmux -S "$SOCK" kill-server 2>/dev/null || true
  exit 1
}
"$RLX" run "$SRC/tests/e2e/frame/make_study.lua" --set db="$T/s.db" >/dev/null 2>&1 || fail "make_study"

# A private tmux server (its own socket, no config), one 80-column window running the REPL.
tmux -S "$SOCK" -f /dev/null new-session -d -s rlx -x 80 -y 50 \
  "env -u COLUMNS -u LINES HOME='$T' TERM=xterm-256color '$RLX' repl --db '$T/s.db'; sleep 600"
trap 'tmux -S "$SOCK" kill-server 2>/dev/null || true' EXIT

pane() { tmux -S "$SOCK" capture-pane -p -J -S - -t rlx; }
# (Output is saved to a file before grep -q reads it: grep -q stopping early would otherwise fail
# the pipeline under pipefail.)
# Waits (up to 60 s: the machine may be busy; nothing here is a timing check) until the pane's
# text after the last marker line matches the extended regex $1.
wait_for() {
  for _ in $(seq 1 300); do
    local text
    text=$(pane | sed -n "/^rlx> -- $MARK\$/,\$p")
    if grep -Eq -- "$1" <<<"$text"; then return 0; fi
    sleep 0.2
  done
  fail "timed out waiting for /$1/ after marker $MARK"
}
# Waits until the REPL has read every line typed so far and is idle at an empty prompt: one
# "rlx>" line per line read plus the empty one, last. Nothing is typed ahead while it evaluates
# (the terminal would echo it in cooked mode).
TYPED=0
wait_idle() {
  for _ in $(seq 1 300); do
    local text
    text=$(pane | sed 's/[[:space:]]*$//' | sed '/^$/d')
    if [ "$(tail -1 <<<"$text")" = "rlx>" ] && [ "$(grep -c '^rlx>' <<<"$text")" -gt "$TYPED" ]; then return 0; fi
    sleep 0.2
  done
  fail "timed out waiting for an idle prompt (marker $MARK)"
}
type_line() {
  tmux -S "$SOCK" send-keys -t rlx -l -- "$1"; tmux -S "$SOCK" send-keys -t rlx Enter
  TYPED=$((TYPED + 1))
}
# Types one line, preceded by a marker comment so each step's output can be cut out of the pane.
step() {
  wait_idle
  MARK=$1
  type_line "-- $MARK"
  wait_idle
  type_line "$2"
}
out() { pane | sed -n "/^rlx> -- $MARK\$/,\$p" | sed '1,2d'; }

MARK=start
wait_idle

# 1. study:runs{} is a table: a header with model and images_per_s, 12 runs, every line <= 80;
#    the columns with one value in every run on a line of their own, the others left out named.
step runs 'study:runs{}'
wait_for '^12 rows, [0-9]+ columns \([0-9]+ shown\)$'
out >"$T/runs.txt"
head -1 "$T/runs.txt" | grep -Eq '^model +batch +run +images_per_s' || fail "runs header: $(head -1 "$T/runs.txt")"
[ "$(grep -Ec '^(resnet18|mobilenet_v2) ' "$T/runs.txt")" -eq 12 ] || fail "12 run lines: $(cat "$T/runs.txt")"
grep -q '^not shown (too wide): ' "$T/runs.txt" || fail "left-out columns not named"
grep -q '^same in every row: study = explore, env = testbox, precision = fp32,' "$T/runs.txt" || fail "constant columns"
# Characters, not bytes: a cut cell ends in the 3-byte "…".
long=$(perl -CSD -ne 'chomp; print "$_\n" if length($_) > 80' "$T/runs.txt" | head -3)
[ -z "$long" ] || fail "lines longer than 80 columns: $long"

# 2. group_by/agg: one row per model, the mean SQL's AVG gives (30.5 and 90.5, see make_study.lua).
step agg 'study:runs{}:group_by{"model"}:agg{images_per_s = "mean", n = "count"}'
wait_for '^2 rows$'
out >"$T/agg.txt"
grep -Eq '^model +images_per_s +n$' "$T/agg.txt" || fail "agg header: $(cat "$T/agg.txt")"
grep -Eq '^mobilenet_v2 +90\.5 +6$' "$T/agg.txt" || fail "agg mobilenet_v2: $(cat "$T/agg.txt")"
grep -Eq '^resnet18 +30\.5 +6$' "$T/agg.txt" || fail "agg resnet18: $(cat "$T/agg.txt")"
step sql 'db:sql[[SELECT model, avg(images_per_s) AS images_per_s FROM runs GROUP BY model ORDER BY model]]'
wait_for '^2 rows$'
out >"$T/sql.txt"
grep -Eq '^mobilenet_v2 +90\.5$' "$T/sql.txt" || fail "SQL AVG mobilenet_v2: $(cat "$T/sql.txt")"
grep -Eq '^resnet18 +30\.5$' "$T/sql.txt" || fail "SQL AVG resnet18: $(cat "$T/sql.txt")"

# 3. help(rlx.train) prints its section (it mentions batch); ?rows:where prints that method's.
step help 'help(rlx.train)'
wait_for '\(docs/lua-api/train\.md\)'
out >"$T/help.txt"
grep -q '^## rlx.train(options) -> result$' "$T/help.txt" || fail "help heading"
grep -q '`batch`' "$T/help.txt" || fail "help(rlx.train) does not mention batch"
step qhelp '?rows:where'
wait_for '\(docs/lua-api/frame\.md\)'
out >"$T/qhelp.txt"
grep -q '^## rows:where{column = value, ...}' "$T/qhelp.txt" || fail "?rows:where"

# 4. A plot written from the prompt: the path printed, a PNG of 1200x800 pixels.
step plot "study:runs{}:plot{x = \"batch\", y = \"images_per_s\", by = \"model\", out = \"$T/p.png\"}"
wait_for "^$T/p\\.png\$"
[ "$(head -c 8 "$T/p.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "not a PNG"
# IHDR: width and height, big-endian, at bytes 16..23.
[ "$(od -An -tu1 -j16 -N8 "$T/p.png" | tr -s ' ' | sed 's/^ //;s/ $//')" = "0 0 4 176 0 0 3 32" ] ||
  fail "PNG size: $(od -An -tu1 -j16 -N8 "$T/p.png")"

# 5. Tab completion on a frame: r:gr<Tab> becomes r:group_by, then the line is finished by hand.
step frame 'r = study:runs{}'
wait_idle
MARK=complete
type_line "-- complete"
wait_idle
tmux -S "$SOCK" send-keys -t rlx -l -- 'r:gr'; tmux -S "$SOCK" send-keys -t rlx Tab
wait_for '^rlx> r:group_by$'
type_line '{"batch"}:agg{n = "count"}'
wait_for '^2 rows$'
out >"$T/complete.txt"
grep -Eq '^ +2 +6$' "$T/complete.txt" || fail "completed group_by result: $(cat "$T/complete.txt")"
grep -Eq '^ +4 +6$' "$T/complete.txt" || fail "completed group_by result: $(cat "$T/complete.txt")"
echo "repl in tmux ok"
