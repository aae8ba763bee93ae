"$CAPTURE" -- true
