"$STAT" "$DATA/gears.trace" --top 3 | head -12
