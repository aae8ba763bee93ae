"$CONVERT" "$DATA/gears.trace" --to csv
