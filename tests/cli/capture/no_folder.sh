"$CAPTURE" --foz no/such/folder/app -- true
