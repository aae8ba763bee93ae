mkdir t.trace
"$CAPTURE" --trace t.trace -- true
