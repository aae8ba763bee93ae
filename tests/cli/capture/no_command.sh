"$CAPTURE" --foz x
