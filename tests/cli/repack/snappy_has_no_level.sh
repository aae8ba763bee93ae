"$REPACK" "$DATA/gears.trace" x.trace --codec snappy --level 3
