"$CAPTURE" --foz x -- no-such-program-here --c 3
