# needs: vulkan device
# Lines 56-60: vmaCreateAllocator, two images, a buffer and its destruction.
"$REPLAY" --json --lines 56-60 "$DATA/vma/inexor_vma_replays_rst_1.8.csv" | jq -c '[.replayed_calls, .buffers, .images, .unknown_objects]'
