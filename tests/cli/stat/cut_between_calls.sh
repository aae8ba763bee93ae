# A trace whose container is cut short between two whole calls: every call
# counted (as many as `apitrace dump -v` shows), one warning, exit 0; from a
# pipe too.
head -c -8 "$DATA/gears.gz.trace" >gz-no-trailer.trace
head -c 31431 "$DATA/gears.br.trace" >br-between-calls.trace
for f in gz-no-trailer.trace br-between-calls.trace; do
  "$STAT" --json $f >s.json
  echo "$f: exit $?, calls $(jq .calls s.json), apitrace $(apitrace dump -v $f 2>/dev/null | grep -c '^[0-9]'), incomplete $(jq .incomplete_calls s.json)"
done
"$STAT" - <gz-no-trailer.trace | grep '^calls'
