"$CONVERT" "$DATA/gears.trunc.gz.trace" >out.txt
echo "exit $?"
cmp out.txt "$DATA/gears.trunc.gz.dump.txt" && echo same
