echo good >out.txt
"$CONVERT" "$DATA/gears.trunc.trace" -o out.txt 2>/dev/null
echo "exit $?"
cat out.txt
cmp out.txt.partial "$DATA/gears.trunc.dump.txt" && echo partial-same
ls
