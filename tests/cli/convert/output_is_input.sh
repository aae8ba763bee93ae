# An output that is the input, by name or through a link, is refused before
# anything is written; the input stays as it was.
cp "$DATA/gears.trace" s.trace
ln s.trace hard.trace
"$CONVERT" s.trace -o s.trace; echo "exit $?"
"$CONVERT" s.trace -o hard.trace; echo "exit $?"
cmp s.trace "$DATA/gears.trace" && echo "input intact"
