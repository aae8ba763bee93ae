# One flipped byte inside the graphics pipeline's compressed payload: the figures still come, then the error.
cp "$DATA/foz/vkcube.72991ed96a80f842.1.foz" x.foz
printf 'X' | dd of=x.foz bs=1 seek=4000 conv=notrunc 2>/dev/null
"$STAT" x.foz --json >s.json
echo "exit $?"
jq -c '[.entries, .crc_failures, .bad_entries]' s.json
