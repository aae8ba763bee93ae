shared="$DATA/foz"
# Fossilize drops the torn last entry and reads the other 436 (143 graphics pipelines).
"$STAT" "$shared/edge/truncated_payload.foz" --json | jq -c '[.entries, .entries_per_tag.graphics_pipeline, .torn_tail, .torn_offset, .dangling_links]'
echo "exit $?"
