"$CONVERT" "$DATA/vma/inexor_vma_replays_rst_1.8.csv" --to jsonl >r.jsonl
grep -c '"type":"call"' r.jsonl
jq -r 'select(.function == "vmaCreateBuffer") | .args["bufferCreateInfo.size"]' r.jsonl | head -2
