cat "$DATA/gears.gz.trace" | "$CONVERT" - -o - | cmp - "$DATA/gears.dump.txt" && echo same
