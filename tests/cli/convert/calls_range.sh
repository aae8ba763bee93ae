"$CONVERT" --calls=10-200/2 "$DATA/gears.trace" | cmp - "$DATA/gears.dump-calls.txt" && echo same
