"$REPACK" "$DATA/gears.trunc.trace" out.trace --codec gzip
echo "exit $?"
ls
"$CONVERT" out.trace.partial | cmp - "$DATA/gears.trunc.dump.txt" && echo partial-readable
