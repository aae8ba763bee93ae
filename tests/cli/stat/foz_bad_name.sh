# A complete entry whose name is not hex: the figures cover the entries before it.
cp "$DATA/foz/vkcube.72991ed96a80f842.1.foz" x.foz
printf 'z' | dd of=x.foz bs=1 seek=232 conv=notrunc 2>/dev/null
"$STAT" x.foz --json | jq -c '[.entries, .error]'
