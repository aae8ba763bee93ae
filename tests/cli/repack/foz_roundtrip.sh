# zlib 9 with CRCs, then uncompressed without: the same entries, and each decoded payload still byte-equal to
# the JSON fossilize-convert-db wrote from the original (vkcube_json).
"$REPACK" -q "$DATA/foz/vkcube.72991ed96a80f842.1.foz" z.foz --verify
"$REPACK" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" n.foz --codec none --crc strip --verify
"$STAT" z.foz --json | jq -c '[.entries, ([.per_tag[] | .zlib_entries] | add), ([.per_tag[] | .crc_entries] | add)]'
"$STAT" n.foz --json | jq -c '[.entries, ([.per_tag[] | .zlib_entries] | add), ([.per_tag[] | .crc_entries] | add), .stored_bytes == .uncompressed_bytes]'
for f in "$DATA"/foz/vkcube_json/*.json; do
  b=$(basename "$f" .json)
  tag=$(printf '%024x' "0x${b%%.*}")
  hash=${b#*.}
  # An uncompressed entry: name, 16-byte header (size at +40), payload.
  off=$(grep -abo "$tag$hash" n.foz | cut -d: -f1)
  size=$(od -An -tu4 -j $((off + 40)) -N4 n.foz | tr -d ' ')
  tail -c +$((off + 57)) n.foz | head -c "$size" | cmp -s - "$f" || echo "differs: $b"
done
echo checked
