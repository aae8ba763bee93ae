: >empty.trace
"$CONVERT" empty.trace
