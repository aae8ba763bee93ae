"$REPACK" "$DATA/gears.trace" - --verify
