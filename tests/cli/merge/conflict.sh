# The same sampler key with another payload (one byte changed, CRC cleared): reported, the first copy kept.
cp "$DATA/foz/edge/tiny_one_sampler.foz" a.foz
cp a.foz b.foz
printf 'X' | dd of=b.foz bs=1 seek=72 conv=notrunc 2>/dev/null
printf '\000\000\000\000' | dd of=b.foz bs=1 seek=64 conv=notrunc 2>/dev/null
"$MERGE" -o out.foz a.foz b.foz --json | jq -c '.conflicts'
cmp out.foz a.foz && echo "first kept"
