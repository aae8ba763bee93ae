echo good >out.txt
"$CONVERT" "$DATA/gears.trunc60.trace" -o out.txt 2>/dev/null
echo "exit $?"
cat out.txt
cmp out.txt.partial "$DATA/gears.trunc60.dump.txt" && echo partial-same
ls
