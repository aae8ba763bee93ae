"$CAPTURE" --foz x --snapshot 1 -- true
