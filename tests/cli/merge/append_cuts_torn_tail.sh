# fossilize-merge-db appended tiny_one_sampler.foz to torn_before_append.foz over the torn entry and left its
# stale bytes (torn_then_appended.foz, 2082 bytes). The same merge here gives the same entries, then ends.
cp "$DATA/foz/edge/torn_before_append.foz" t.foz
"$MERGE" -q --append -o t.foz "$DATA/foz/edge/tiny_one_sampler.foz"
echo "exit $?"
wc -c <t.foz
head -c 148 "$DATA/foz/edge/torn_then_appended.foz" | cmp - t.foz && echo "same bytes as Fossilize's up to its stale tail"
"$STAT" t.foz --json | jq -c '[.entries_per_tag.sampler, .torn_tail]'
