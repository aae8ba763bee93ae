"$STAT" --json "$DATA/gears.trunc.trace" >s.json
echo "exit $?"
jq '.incomplete_calls' s.json
