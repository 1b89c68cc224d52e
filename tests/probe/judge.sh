# judge.sh: the probes' judge (sourced by probe4.sh and probe5.sh). Expects W (the work folder),
# N (the case counter), OWNER (ours or a helper's name), COUNT and THEIRS (per-class tallies),
# ESC, BEL, TIMEOUT and SETUP to be set by the probe.

# judge NAME WANT RC DIR [CHECK]: prints and counts the case's class. WANT: fail (a refusal is
# expected), ok (exit 0 expected) or any. CHECK: a shell condition run in DIR that must hold.
judge() {
  local name=$1 want=$2 rc=$3 dir=$4 check=${5:-true} class=good
  local lines
  lines=$(grep -cv "^Try 'rlx\|^rlx [a-z-]*: warning: " "$dir/err")
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then class=hang
  elif [ "$rc" -gt 128 ] && [ "$rc" != 130 ] && [ "$rc" != 143 ] && [ "$want" != any ]; then class=signal
  elif ! (cd "$dir" && eval "$check") >/dev/null 2>&1; then
    case "$check" in *LOSS*) class=loss ;; *) class=bug ;; esac
  elif [ "$want" = ok ] && [ "$rc" != 0 ]; then class=bug
  elif [ "$want" = fail ] && [ "$rc" = 0 ]; then class=bug
  elif [ "$want" = fail ] && { grep -q "stack traceback" "$dir/err" || [ "$lines" -gt 1 ] || [ "$lines" = 0 ]; }; then
    class=poor
  elif grep -q "[$ESC$BEL]" "$dir/out" "$dir/err"; then class=poor
  fi
  if [ "$OWNER" = ours ]; then COUNT[$class]=$((COUNT[$class] + 1)); else THEIRS[$class]=$((THEIRS[$class] + 1)); fi
  printf '%-6s %s%s (exit %s)\n' "$class" "$([ "$OWNER" = ours ] || echo "[$OWNER] ")" "$name" "$rc"
  if [ "$class" != good ]; then sed 's/^/         /' "$dir/err" | head -3 | cat -v; fi
}

# probe NAME WANT [CHECK] -- CMD...: runs CMD in a fresh folder (with $SETUP run there first), then
# judges it.
SETUP=true
probe() {
  local name=$1 want=$2 check=true
  shift 2
  if [ "$1" != -- ]; then check=$1; shift; fi
  shift
  N=$((N + 1))
  local dir="$W/$N"
  mkdir -p "$dir"
  (cd "$dir" && eval "$SETUP" && timeout -k 5 "$TIMEOUT" "$@" >out 2>err)
  judge "$name" "$want" $? "$dir" "$check"
}
