"$CONVERT" "$DATA/gears.trunc.trace" >out.txt
echo "exit $?"
cmp out.txt "$DATA/gears.trunc.dump.txt" && echo same
