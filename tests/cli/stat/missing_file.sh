"$STAT" nope.trace
