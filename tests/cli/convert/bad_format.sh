"$CONVERT" --to xml "$DATA/gears.trace"
