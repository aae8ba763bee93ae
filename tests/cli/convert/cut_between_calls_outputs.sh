# A gzip trace without its trailer (gears, whose last call was entered and
# never left) converts to JSON Lines and to a new trace like the whole file,
# with one warning each and exit 0; the new trace is complete: apitrace and
# trak read it to its end without a word.
head -c -8 "$DATA/gears.gz.trace" >cut.trace
"$CONVERT" cut.trace --to jsonl >cut.jsonl
echo "jsonl: exit $?"
"$CONVERT" "$DATA/gears.gz.trace" --to jsonl | cmp - cut.jsonl && echo "same lines as the whole trace's"
"$CONVERT" cut.trace --to trace --codec gzip -o new.trace
echo "trace: exit $?"
gzip -t new.trace && echo "gzip -t: complete"
apitrace dump cut.trace >a.txt 2>/dev/null
apitrace dump new.trace >b.txt 2>apitrace.err
cmp a.txt b.txt && [ ! -s apitrace.err ] && echo "apitrace: same dump as the cut trace's"
"$CONVERT" new.trace >/dev/null && echo "trak-convert: read to its end"
