#!/bin/sh
# usage: golden_dump.sh TRAK_CONVERT TRACE EXPECTED WANT_EXIT [OPTIONS...]
# Compares trak-convert's stdout with a dump written by apitrace itself, and
# checks the exit status (1 for truncated traces, after the same lines).
# EXPECTED may be gzip'd (NAME.gz), for large dumps.
tool=$1 trace=$2 expected=$3 want=$4
shift 4
[ -f "$trace" ] || { echo "missing $trace"; exit 1; }
out=$(mktemp) err=$(mktemp) plain=$(mktemp)
trap 'rm -f "$out" "$err" "$plain"' EXIT
case $expected in
  *.gz) gzip -dc "$expected" >"$plain" && expected=$plain ;;
esac
"$tool" "$@" "$trace" >"$out" 2>"$err"; rc=$?
fail=0
[ "$rc" = "$want" ] || { echo "exit status $rc, expected $want"; cat "$err"; fail=1; }
cmp "$expected" "$out" || { diff "$expected" "$out" | head -20; fail=1; }
if [ "$want" = 1 ]; then
  [ "$(wc -l <"$err")" = 1 ] || { echo "expected one line on stderr:"; cat "$err"; fail=1; }
fi
exit $fail
