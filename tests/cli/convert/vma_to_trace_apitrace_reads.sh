"$CONVERT" "$DATA/vma/inexor_vma_replays_rst_1.8.csv" --to trace -o r.trace
apitrace dump r.trace | grep -c "^[0-9]"
apitrace dump r.trace | grep -m1 vmaDestroyBuffer
