"$CONVERT" no-such.trace
