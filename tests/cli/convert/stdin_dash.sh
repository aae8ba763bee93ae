cat "$DATA/gears.trace" | "$CONVERT" - | cmp - "$DATA/gears.dump.txt" && echo same
