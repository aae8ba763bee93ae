mkdir caps
"$CAPTURE" --foz caps/ -- true
