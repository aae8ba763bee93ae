# A damaged payload: copied raw as fossilize-merge-db would (its CRC travels with it, so readers still catch
# it); --check-crc stops at it; --drop-bad leaves it out.
cp "$DATA/foz/vkcube.72991ed96a80f842.1.foz" x.foz
printf 'X' | dd of=x.foz bs=1 seek=4000 conv=notrunc 2>/dev/null
"$MERGE" -q -o copy.foz x.foz
echo "exit $?"
cmp copy.foz x.foz && echo "copied as it is"
"$STAT" copy.foz >/dev/null 2>&1
echo "trak-stat exit $?"
"$MERGE" -q --check-crc -o out.foz x.foz
echo "exit $?"
test -e out.foz || echo "no output"
"$MERGE" -q --drop-bad -o out.foz x.foz
"$STAT" out.foz --json | jq -c '[.entries, .entries_per_tag.graphics_pipeline]'
