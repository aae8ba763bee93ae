cp "$DATA/foz/vkcube.72991ed96a80f842.1.foz" x.foz
printf 'X' | dd of=x.foz bs=1 seek=4000 conv=notrunc 2>/dev/null
"$MERGE" -q -o out.foz x.foz
echo "exit $?"
test -e out.foz || echo "no output"
"$MERGE" -q --drop-bad -o out.foz x.foz
"$STAT" out.foz --json | jq -c '[.entries, .entries_per_tag.graphics_pipeline]'
