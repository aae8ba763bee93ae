"$REPLAY" --simulate --json "$DATA/vma/inexor_vma_replays_rst_1.8.csv" | jq -c '[.calls, .buffers, .images, .allocations_created, .threads, .pools, (.heaps | length)]'
"$REPLAY" --simulate "$DATA/vma/inexor_vma_replays_rst_1.8.csv" | sed -n 5,7p
