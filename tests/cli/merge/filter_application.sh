shared="$DATA/foz"
# One application's entries out of a merged archive (what fossilize-prune --filter-application does):
# vkcube's are its capture again, less its sampler: no set layout names it as an immutable sampler, and
# fossilize-prune keeps samplers only through set layouts. (The sampler is the entry at offset 347, 249 bytes.)
"$MERGE" -q -o all.foz "$DATA/foz/vkcube.72991ed96a80f842.1.foz" "$shared/synth_compute.foz"
"$MERGE" -q -o cube.foz --filter-application 72991ed96a80f842 all.foz
{ head -c 347 "$DATA/foz/vkcube.72991ed96a80f842.1.foz"; tail -c +597 "$DATA/foz/vkcube.72991ed96a80f842.1.foz"; } | cmp - cube.foz && echo identical
"$MERGE" -o synth.foz --filter-application 400377a65cce95dd all.foz --json | jq -c '[.written_per_tag, .pruned_per_tag]'
