cat "$DATA/gears.gz.trace" | "$REPACK" - - --codec brotli --level 3 | "$CONVERT" - | cmp - "$DATA/gears.dump.txt" && echo same
