"$STAT" "$DATA/gears.trace" --list
