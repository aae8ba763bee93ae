# --codec zstd writes seekable zstd: the zstd tool reads it back to the same
# stream, trak reads it back to the same calls, on one thread or several.
"$REPACK" -q "$DATA/gears.trace" z1.trace --codec zstd -j 1 --verify
"$REPACK" -q "$DATA/gears.trace" z4.trace --codec zstd --level 19 -j 4 --verify
gzip -dc "$DATA/gears.gz.trace" > stream
for f in z1.trace z4.trace; do
  zstd -qdc "$f" | cmp -s - stream && echo "$f: the zstd tool reads the stream"
  "$CONVERT" "$f" | cmp -s - "$DATA/gears.dump.txt" && echo "$f: same dump"
done
# The seek table's footer: one frame (the stream is under 2 MiB), no checksums, the magic.
tail -c 9 z1.trace | od -An -tx1 | tr -s ' '
"$REPACK" -q "$DATA/gears.trace" bad.trace --codec zstd --level 20
echo "exit $?"
