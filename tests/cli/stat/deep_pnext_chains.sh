# vulkaninfo captured by trak-capture --trace: pNext chains of 50 and 108
# structs (about 220 levels of nesting). Every call is counted, as many as
# `apitrace dump -v` shows.
t="$DATA/capture/vulkaninfo.trace"
"$STAT" --json "$t" >s.json
echo "exit $?, calls $(jq .calls s.json), apitrace $(apitrace dump -v "$t" 2>/dev/null | grep -c '^[0-9]')"
