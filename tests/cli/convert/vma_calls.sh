# --calls on a recording: its calls numbered from 0, as --to trace numbers them.
"$CONVERT" "$DATA/vma/inexor_vma_replays_rst_1.8.csv" --to jsonl --calls 1-3 | jq -r 'select(.type == "call") | .function'
"$CONVERT" "$DATA/vma/inexor_vma_replays_rst_1.8.csv" --to trace --calls 2 -o t.trace
"$CONVERT" t.trace | cut -c1-40
"$CONVERT" "$DATA/foz/vkcube.72991ed96a80f842.1.foz" --calls 2 >/dev/null
echo "exit $?"
