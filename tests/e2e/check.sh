#!/usr/bin/env bash
# check.sh: runs one end-to-end case and checks its exit status and output.
#   check.sh --exit N --stdout RE --stderr RE --not-stderr RE --stdin FILE -- CMD ARGS...
# Empty regexes are not checked. A regex is matched against the whole output as one string, with
# Perl's engine (a superset of the extended syntax the tests use): ^ and $ anchor the start and the
# end, "." also matches a newline, and a newline in the pattern is a newline. (grep would split a
# pattern at each newline into alternatives, and an empty one matches anything.) Prints what it saw
# on failure.
set -u
want_exit=0; re_out=""; re_err=""; re_not_err=""; stdin_file=""
while [ $# -gt 0 ]; do
  case "$1" in
    --exit) want_exit=$2; shift 2 ;;
    --stdout) re_out=$2; shift 2 ;;
    --stderr) re_err=$2; shift 2 ;;
    --not-stderr) re_not_err=$2; shift 2 ;;
    --stdin) stdin_file=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "check.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
if [ -n "$stdin_file" ]; then "$@" <"$stdin_file" >"$out" 2>"$err"; else "$@" </dev/null >"$out" 2>"$err"; fi
code=$?
fail=0
[ "$code" = "$want_exit" ] || { echo "exit status $code, expected $want_exit"; fail=1; }
matches() { RE=$1 perl -e 'local $/; my $s = <STDIN>; exit($s =~ /$ENV{RE}/s ? 0 : 1)' <"$2"; }
if [ -n "$re_out" ] && ! matches "$re_out" "$out"; then echo "stdout does not match: $re_out"; fail=1; fi
if [ -n "$re_err" ] && ! matches "$re_err" "$err"; then echo "stderr does not match: $re_err"; fail=1; fi
if [ -n "$re_not_err" ] && matches "$re_not_err" "$err"; then echo "stderr matches: $re_not_err"; fail=1; fi
if [ $fail -ne 0 ]; then
  echo "--- command: $*"; echo "--- stdout:"; cat "$out"; echo "--- stderr:"; cat "$err"
  exit 1
fi
echo "ok: $*"
