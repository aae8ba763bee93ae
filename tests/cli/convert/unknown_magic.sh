printf "hello, this is not a trace at all" >x.trace
"$CONVERT" x.trace
