# A corrupt payload stops the repack; the entries before it are kept as .partial.
cp "$DATA/foz/vkcube.72991ed96a80f842.1.foz" x.foz
printf 'X' | dd of=x.foz bs=1 seek=4000 conv=notrunc 2>/dev/null
"$REPACK" -q x.foz out.foz
echo "exit $?"
test -e out.foz || echo "no output"
"$STAT" out.foz.partial --json | jq -c '[.entries, .torn_tail]'
