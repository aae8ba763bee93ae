# zstd containers the zstd tool made (one frame, frames joined, skippable
# frames between; tests/data/zstd/README.md): each dumps as apitrace dumps
# the same stream, from a file and from a pipe.
for f in gears.zst.trace gears.joined.zst.trace gears.skippable.zst.trace; do
  "$CONVERT" "$DATA/zstd/$f" | cmp -s - "$DATA/gears.dump.txt" && echo "$f: same dump"
  "$CONVERT" - < "$DATA/zstd/$f" | cmp -s - "$DATA/gears.dump.txt" && echo "$f from a pipe: same dump"
done
"$STAT" "$DATA/zstd/gears.zst.trace" --json | jq -r .container
