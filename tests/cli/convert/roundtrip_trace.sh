"$CONVERT" "$DATA/gears.trace" --to trace -o rt.trace
"$CONVERT" rt.trace | cmp - "$DATA/gears.dump.txt" && echo same
"$CONVERT" "$DATA/texture.trace" --to trace --codec gzip -o - | "$CONVERT" - | cmp - "$DATA/texture.dump.txt" && echo same
