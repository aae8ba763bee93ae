head -c 6 "$DATA/gears.trace" >c.trace
printf "\377\377\377\377\377\377\377\377" >>c.trace
tail -c +15 "$DATA/gears.trace" >>c.trace
"$CONVERT" c.trace
