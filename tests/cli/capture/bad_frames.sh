"$CAPTURE" --trace t.trace --snapshot 1,0,x -- true
