# Several traces dump one after the other, as `apitrace dump A B` prints them;
# JSON Lines likewise. A cut or a CSV takes one input.
apitrace dump "$DATA/es2gears.trace" "$DATA/threads.gz.trace" >a.txt
"$CONVERT" "$DATA/es2gears.trace" "$DATA/threads.gz.trace" | cmp - a.txt && echo "text: same as apitrace dump"
"$CONVERT" "$DATA/es2gears.trace" --to jsonl >j1
"$CONVERT" "$DATA/threads.gz.trace" --to jsonl >j2
cat "$DATA/threads.gz.trace" | "$CONVERT" "$DATA/es2gears.trace" - --to jsonl | cat j1 j2 - | sort | uniq -u | wc -l
"$CONVERT" "$DATA/es2gears.trace" "$DATA/threads.gz.trace" --to trace -o x.trace
echo "--to trace: exit $?"
"$CONVERT" - - </dev/null
echo "stdin twice: exit $?"
# A missing second input: the first's dump is kept, then the error.
"$CONVERT" "$DATA/es2gears.trace" missing.trace -o out.txt
echo "missing input: exit $?"
apitrace dump "$DATA/es2gears.trace" | cmp - out.txt.partial && echo "first input kept in out.txt.partial"
