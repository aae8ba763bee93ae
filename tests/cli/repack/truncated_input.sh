"$REPACK" "$DATA/gears.trunc60.trace" out.trace --codec gzip
echo "exit $?"
ls
"$CONVERT" out.trace.partial | cmp - "$DATA/gears.trunc60.dump.txt" && echo partial-readable
