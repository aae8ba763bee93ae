for v in 1.2_b3ea2c6 1.8_final; do "$STAT" --json "$DATA/vma/vma_doc_example_$v.csv" | jq -c '[.version, .calls, .peak_live_allocations, .live_at_end, .calls_per_function.vmaCreateImage]'; done
