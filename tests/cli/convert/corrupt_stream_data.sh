head -c 100 "$DATA/gears.trace" >c.trace
printf "\377\377\377\377\377\377\377\377" >>c.trace
tail -c +109 "$DATA/gears.trace" >>c.trace
"$CONVERT" c.trace
