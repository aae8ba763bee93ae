# Two layer runs of vkcube wrote identical .1 and .2 files; merged, they are that one archive again.
cp "$DATA/foz/vkcube.72991ed96a80f842.1.foz" a.1.foz
cp "$DATA/foz/vkcube.72991ed96a80f842.1.foz" a.2.foz
"$MERGE" -q -o all.foz a.1.foz a.2.foz
cmp all.foz a.1.foz && echo identical
"$MERGE" -o all.foz a.1.foz a.2.foz --json | jq -c '[.entries_written, .identical_duplicates, .reencoded_duplicates, .conflicts, [.inputs[] | [.entries, .written, .duplicates]]]'
