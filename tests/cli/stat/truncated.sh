"$STAT" --json "$DATA/gears.trunc.trace" | jq '.incomplete_calls'
