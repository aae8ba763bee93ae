# The other archives Fossilize wrote (copied from ../shared/data/foz): every entry
# parses, hashes to its name, and survives .foz -> json-dir -> .foz -> json-dir.
S="$DATA/foz"
for f in synth_compute edge/truncated_header; do
  n=$(basename $f)
  "$CONVERT" "$S/$f.foz" --to json-dir -o "$n" --check-hashes
  echo "$n: exit $?, $(ls "$n" | wc -l) files"
  "$CONVERT" "$n" --to foz -o "$n.foz" --check-hashes && "$CONVERT" "$n.foz" --to json-dir -o "$n.again"
  diff -r "$n" "$n.again" && echo "$n: same after the round trip"
  "$CONVERT" "$S/$f.foz" 2>/dev/null | "$CONVERT" - --to foz -o "$n.doc.foz" --check-hashes && cmp "$n.foz" "$n.doc.foz" && echo "$n: document gives the same archive"
done
