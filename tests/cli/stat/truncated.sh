# Cut inside a call: the figures of the calls before it (as many as
# `apitrace dump -v` shows), then one error line.
"$STAT" --json "$DATA/gears.trunc60.trace" >s.json
echo "exit $?"
echo "calls $(jq .calls s.json), apitrace $(apitrace dump -v "$DATA/gears.trunc60.trace" 2>/dev/null | grep -c '^[0-9]')"
jq .incomplete_calls s.json
