"$CONVERT" --bogus
