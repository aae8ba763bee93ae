# A keep list given as an archive, as fossilize-prune --whitelist takes one: its pipelines and shader
# modules are kept with what they need, its other entries say nothing. Any archive will do: a pruned one,
# or a replay's --skip-done database (0-byte entries).
shared="$DATA/foz"
"$MERGE" -q -o hot.foz --filter-compute 001db2ccd3114757 --filter-compute 0042902a664a5875 "$shared/synth_compute.foz"
"$MERGE" -q -o x.foz --keep-list hot.foz "$shared/synth_compute.foz"
"$STAT" x.foz --list --tag compute_pipeline
"$STAT" hot.foz --list >hot.txt
"$STAT" x.foz --list | cmp - hot.txt && echo "same entries as hot.foz"
"$REPLAY" "$shared/synth_compute.foz" --null-device --range 5-7 --skip-done done.foz --no-progress >/dev/null
"$MERGE" -q -o y.foz --keep-list done.foz "$shared/synth_compute.foz"
"$STAT" y.foz --json | jq -c '[.entries_per_tag.compute_pipeline, .entries_per_tag.shader_module, .dangling_references]'
# An archive that names nothing keeps no pipeline (an empty whitelist is not the absence of one).
head -c 16 "$shared/synth_compute.foz" >empty.foz
"$MERGE" -q -o z.foz --keep-list empty.foz "$shared/synth_compute.foz"
"$STAT" z.foz --json | jq -c '[.entries_per_tag.compute_pipeline, .entries_per_tag.shader_module]'
