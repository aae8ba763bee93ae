"$REPLAY" --simulate "$DATA/gears.trace"
