"$STAT" --json "$DATA/gears.trace" | jq '.calls'
grep -c '^[0-9]' "$DATA/gears.dump-v-tid.txt"
