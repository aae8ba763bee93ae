gzip -c "$DATA/vma/inexor_vma_replays_rst_1.8.csv" | "$STAT" --json - | jq -c '[.container, .calls]'
