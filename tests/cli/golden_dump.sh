#!/bin/sh
# usage: golden_dump.sh TRAK_CONVERT TRACE EXPECTED WANT_EXIT [OPTIONS...]
# Compares trak-convert's stdout with a dump written by apitrace itself, and
# checks the exit status: 1 for traces cut inside a call, after the same
# lines and one error line; 0w for a container cut between two whole calls,
# with one warning line; 0 with nothing on stderr. EXPECTED may be gzip'd
# (NAME.gz), for large dumps.
tool=$1 trace=$2 expected=$3 want=$4
shift 4
[ -f "$trace" ] || { echo "missing $trace"; exit 1; }
out=$(mktemp) err=$(mktemp) plain=$(mktemp)
trap 'rm -f "$out" "$err" "$plain"' EXIT
case $expected in
  *.gz) gzip -dc "$expected" >"$plain" && expected=$plain ;;
esac
"$tool" "$@" "$trace" >"$out" 2>"$err"; rc=$?
lines=0
case $want in
  1) lines=1 ;;
  0w) want=0 lines=1 ;;
esac
fail=0
[ "$rc" = "$want" ] || { echo "exit status $rc, expected $want"; cat "$err"; fail=1; }
cmp "$expected" "$out" || { diff "$expected" "$out" | head -20; fail=1; }
[ "$(wc -l <"$err")" = $lines ] || { echo "expected $lines line(s) on stderr:"; cat "$err"; fail=1; }
if [ $lines = 1 ] && [ "$rc" = 0 ]; then
  grep -q '^trak-convert: warning: ' "$err" || { echo "expected a warning:"; cat "$err"; fail=1; }
fi
exit $fail
