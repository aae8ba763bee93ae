"$CONVERT" "$DATA/gears.trace" --to trace | "$CONVERT" - | cmp - "$DATA/gears.dump.txt" && echo same
