# Heap and memory-type flags by name (as trak-replay prints them), pool block
# limits in words (a maximum of 0 is no limit).
"$STAT" "$DATA/vma/inexor_vma_replays_rst_1.8.csv" | sed -n '4,5p;14,16p'
"$STAT" "$DATA/vma/linear_pool_1.8.csv" | grep -A2 '^pool'
