"$CONVERT" "$DATA/gears.trace" --to jsonl >g.jsonl
head -1 g.jsonl
grep -c '^[0-9]' "$DATA/gears.dump-v-tid.txt"
grep -c '^{"type":"call"' g.jsonl
jq -r 'select(.type == "call" and .name == "glViewport") | .args.width' g.jsonl | head -1
